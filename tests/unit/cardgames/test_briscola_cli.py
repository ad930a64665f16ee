"""``tavolo play briscola``: whole offline games driven through scripted input."""

from __future__ import annotations

import io

import pytest

from tavolo.cli.main import main


@pytest.mark.parametrize("players", ["2", "3", "4"])
def test_scripted_stdin_plays_briscola_to_the_end(
    players: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("2\n1\n" * 100))
    assert main(["play", "briscola", "--players", players, "--seed", "cli"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Briscola: you ") and "Seed: cli" in text
    assert "Hand 1: " in text and "trumps are " in text
    assert "Trick 1: " in text and "take" in text
    assert "Hand 1 is over (card points, 120 in the deck):" in text
    assert "--- Final places" in text and "points)" in text
