"""`tavolo play scopa|scopone|asso|cirulla`: whole offline games driven through scripted
input, showing the table, the captures and the count line by line."""

from __future__ import annotations

import io
import re
from collections.abc import Callable, Iterator

import pytest

from tavolo.cli.main import main
from tavolo.cli.play.command import play


def scripted(lines: Iterator[str]) -> Callable[[str], str | None]:
    def read(prompt: str) -> str | None:
        return next(lines, None)

    return read


@pytest.mark.parametrize(
    ("game", "players"), [("scopa", 2), ("scopa", 4), ("scopone", 4), ("asso", 3), ("cirulla", 2)]
)
def test_a_scripted_player_plays_a_fishing_game_to_the_end(
    game: str, players: int, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 3000))
    args = ["play", game, "--players", str(players), "--level", "hard", "--seed", "cli"]
    assert main(args) == 0
    text = capsys.readouterr().out
    assert "Seed: cli" in text
    assert re.search(r"Hand 1: .* deals?; on the table \S+ \S+ \S+ \S+\.", text)
    assert "On the table: " in text and "Your hand: " in text
    assert re.search(r"\) \S+ takes \S+", text), "a capture among the choices"
    assert re.search(r": \S+ takes \S+", text), "a capture narrated"
    count = text.split("The hand is over. The count:")[1].splitlines()
    names = [line.split()[0] for line in count[2:11]]  # under the row of side names
    if game == "cirulla":
        assert names[5:8] == ["grande", "piccola", "accusi"]
        names = names[:5] + names[8:]
    assert names[:6] == [
        "carte",
        "denari",
        "settebello",
        "primiera",
        "scope",
        "hand",
    ]
    assert count[1].split()[0] == "You"
    assert re.match(r"^  primiera +\d+( \+1)? +\d+( \+1)?", count[5])
    if game == "cirulla":
        assert "Your hand (shown to all)" in text or "declare " not in text
    assert "--- Final places" in text


def test_the_table_lists_every_capture_choice() -> None:
    out = io.StringIO()
    lines = iter(["quit"])
    assert play("scopa", 2, "easy", "look", input_line=scripted(lines), out=out) == 1
    text = out.getvalue()
    assert text.startswith("Scopa: you against 1 easy bot. Seed: look")
    assert "Match: first to 11 points.   Stock: 30 cards." in text
    assert re.search(r"^\s+total\s+cards\s+denari\s+scope$", text, re.M)
    assert re.search(r"^  You\s+0\s+0\s+0\s+0$", text, re.M)
    assert re.search(r"^  Bot 1\s+0\s+0\s+0\s+0$", text, re.M)
    assert "Suits: c coppe, d denari, b bastoni, s spade" in text
    assert re.search(r"  1\) (lay \S+|\S+ takes )", text)
