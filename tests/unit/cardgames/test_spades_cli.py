"""``tavolo play spades``: whole offline games driven through scripted input."""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Iterator

import pytest

from tavolo.cli.main import main
from tavolo.cli.play.command import play


def scripted(lines: Iterator[str]) -> Callable[[str], str | None]:
    def read(prompt: str) -> str | None:
        return next(lines, None)

    return read


def test_spades_9_the_partner_is_hard_whatever_the_level() -> None:
    out = io.StringIO()
    assert play("spades", 4, "easy", "partner", input_line=scripted(iter(["quit"])), out=out) == 1
    text = out.getvalue()
    assert text.startswith(
        "Spades (Piki): you and Bot 2 (hard) against Bot 1 (easy) & Bot 3 (easy).\nSeed: "
    )
    assert "Bids: You - | Bot 3 (easy) - | Bot 2 (hard) - | Bot 1 (easy) -" in text
    assert "Bot 2 (hard)" in text and "Bot 3 (easy)" in text


def test_scripted_stdin_plays_spades_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    # "4" bids 3, or plays the fourth legal card; when there is none, "1" follows.
    monkeypatch.setattr("sys.stdin", io.StringIO("4\n1\n" * 3000))
    assert main(["play", "spades", "--level", "medium", "--seed", "cli"]) == 0
    text = capsys.readouterr().out
    assert "Spades (Piki)" in text and "Seed: cli" in text
    assert "Round 1: " in text and " first." in text
    assert "Trick 1: " in text and "takes it." in text
    assert "Round 1 is over:" in text and "You & Bot 2 (hard): bid " in text
    assert "is not a choice" in text  # a "4" with fewer than four cards to choose from
    final = text.split("--- Final places")[1].splitlines()
    assert final[1].startswith(" 1st") and final[2].startswith(" 2nd")  # sides, not seats
    assert {"You & Bot 2 (hard)" in final[1], "You & Bot 2 (hard)" in final[2]} == {True, False}


def test_the_table_shows_the_hand_bids_and_trick() -> None:
    out = io.StringIO()
    lines = itertools.chain(["2"], itertools.repeat("quit"))  # bid 1, then leave
    assert play("spades", 4, "hard", "look", input_line=scripted(lines), out=out) == 1
    text = out.getvalue()
    assert "--- Round 1, bidding - your turn" in text
    assert "1) bid nil (take no trick: +100, or -100)" in text and "14) bid 13" in text
    assert "Scores: You & Bot 2 (hard) 0 (0 bags)   Bot 1 (hard) & Bot 3 (hard) 0" in text
    hand = next(line for line in text.splitlines() if line.startswith("Your hand: "))
    assert len(hand.split("  ")) == 13 and any(s in hand for s in "♠♥♦♣")
    assert "--- Round 1, trick " in text and "On the table: " in text
    assert "You bid 1." in text


def test_sorting_is_not_a_spades_command() -> None:
    out = io.StringIO()
    lines = iter(["sort", "quit"])
    assert play("spades", 4, "easy", "sort", input_line=scripted(lines), out=out) == 1
    assert "'sort' is not a choice: type a number from 1 to 14" in out.getvalue()
