"""``tavolo play tresette`` and ``tavolo play ciapano``: whole offline games driven
through scripted input."""

from __future__ import annotations

import io

import pytest

from tavolo.cli.main import main


@pytest.mark.parametrize(
    ("game", "players"), [("tresette", "4"), ("tresette", "2"), ("ciapano", "4"), ("ciapano", "3")]
)
def test_scripted_stdin_plays_a_tresette_game_to_the_end(
    game: str, players: str, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("2\n1\n" * 1500))
    assert main(["play", game, "--players", players, "--seed", "cli"]) == 0
    text = capsys.readouterr().out
    assert "Seed: cli" in text and "Hand 1: " in text
    assert "Trick 1: " in text and " it." in text
    assert "Hand 1 is over (aces, thirds, points; last trick +1):" in text
    assert "--- Final places" in text
