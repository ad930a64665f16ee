"""``tavolo play solitario``: whole offline games driven through scripted input."""

from __future__ import annotations

import io
import re
from collections.abc import Callable

import pytest

from tavolo.cli.main import main
from tavolo.cli.play.command import play


def stopping_after(moves: int, out: io.StringIO) -> Callable[[str], str | None]:
    """Answers "1" ``moves`` times, then picks the menu's stop line."""
    asked = [0]

    def read(prompt: str) -> str | None:
        asked[0] += 1
        if asked[0] <= moves:
            return "1"
        stops = re.findall(r"(\d+)\) stop here", out.getvalue())
        return stops[-1]

    return read


def test_solitario_plays_alone_by_default_and_ends_with_the_score(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 5 + "quit\n"))
    assert main(["play", "solitario", "--seed", "cli"]) == 1
    text = capsys.readouterr().out
    assert text.startswith("Solitario (Klondike): you alone. Seed: cli")
    assert "--- Solitario, draw 1, standard scoring" in text
    assert "Stock 24 cards   Waste: empty" in text
    assert "   1     2     3     4     5     6     7" in text
    assert "turn the stock" in text and "stop here with this score" in text


def test_a_game_shows_moves_in_words_and_the_final_place() -> None:
    out = io.StringIO()
    assert play("solitario", 1, "hard", "words", input_line=stopping_after(12, out), out=out) == 0
    text = out.getvalue()
    assert re.search(r"\d+\) \S+ from (column \d|the waste) onto ", text)
    assert "You stopped with " in text
    final = text.split("--- Final places")[1].splitlines()
    assert re.match(r" 1st  You \(\d+ points, stopped\)", final[1])


def test_bots_play_the_same_deal_beside_the_player() -> None:
    out = io.StringIO()
    assert play("solitario", 2, "hard", "duo", input_line=stopping_after(3, out), out=out) == 0
    text = out.getvalue()
    assert "you against 1 hard bot" in text
    assert "Others: Bot 1 (hard) 0" in text
    assert "Bot 1 (hard) " in text.split("--- Final places")[1]
