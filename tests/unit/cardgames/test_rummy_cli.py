"""``tavolo play burraco`` and ``tavolo play scala40``: offline games driven by scripted
input, showing each side's melds, the discard pile's top and the scoring of each hand."""

from __future__ import annotations

import io
from collections.abc import Callable, Iterator

from tavolo.cli.play.command import play


def scripted(lines: Iterator[str]) -> Callable[[str], str | None]:
    def read(prompt: str) -> str | None:
        return next(lines, None)

    return read


def test_burraco_plays_to_the_end_with_melds_pile_and_scoring() -> None:
    out = io.StringIO()
    code = play("burraco", 2, "easy", "demo", input_line=scripted(iter(["1"] * 5000)), out=out)
    text = out.getvalue()
    assert code == 0, text[-2000:]
    assert text.startswith("Burraco: you against 1 easy bot. Seed: demo")
    assert "  You (pozzetto waiting):" in text and "Discard pile: " in text and ", top " in text
    assert "1) draw from the stock" in text and "take the discard pile (" in text
    assert "Hand 1 is over:" in text
    for line in ("melded cards", "burraci (", "cards in hand", "hand total", "  Match: You "):
        assert line in text
    final = text.split("--- Final places")[1].splitlines()
    assert final[1].startswith(" 1st") and final[2].startswith(" 2nd")


def test_burraco_partnerships_finish_first_and_second_not_third() -> None:
    out = io.StringIO()
    code = play("burraco", 4, "easy", "demo", input_line=scripted(iter(["1"] * 20000)), out=out)
    text = out.getvalue()
    assert code == 0, text[-2000:]
    final = text.split("--- Final places")[1].splitlines()
    assert final[1].startswith(" 1st"), final
    assert final[2].startswith((" 1st", " 2nd")), final  # a drawn match shares 1st


def test_burraco_shows_what_a_wild_stands_for() -> None:
    out = io.StringIO()
    play("burraco", 2, "easy", "demo", input_line=scripted(iter(["1", "1", "quit"])), out=out)
    text = out.getvalue()
    assert "joker(" in text or "2♣(" in text or "2♥(" in text or "2♠(" in text or "2♦(" in text


def test_scala40_shows_the_table_the_pozzo_and_the_penalties() -> None:
    out = io.StringIO()
    play("scala40", 3, "medium", "demo", input_line=scripted(iter(["1"] * 400)), out=out)
    text = out.getvalue()
    assert text.startswith("Scala 40: you against 2 medium bots. Seed: demo")
    assert "Melds on the table:" in text and "Pozzo: " in text
    assert "You have not opened: lay 40 or more" in text
    assert "First round: nobody may close yet." in text
    assert "Hand 1 is over: Bot 2 (medium) closed." in text
    assert "  You              never opened              +100" in text
    assert "  Totals: You 100" in text
