"""``tavolo play``: a whole offline game driven through scripted input."""

from __future__ import annotations

import io
import itertools
from collections.abc import Callable, Iterator

import pytest

from tavolo.cli.main import main
from tavolo.cli.play.command import play


def scripted(lines: Iterator[str], echo: io.StringIO | None = None) -> Callable[[str], str | None]:
    """Answers from ``lines``; with ``echo``, prompts and answers are written as a terminal
    would show them."""

    def read(prompt: str) -> str | None:
        answer = next(lines, None)
        if echo is not None:
            echo.write(f"{prompt}{answer}\n")
        return answer

    return read


def test_always_choosing_the_first_option_plays_to_the_end() -> None:
    out = io.StringIO()
    code = play("pika", 4, "hard", "first", input_line=scripted(itertools.repeat("1")), out=out)
    text = out.getvalue()
    assert code == 0
    assert text.startswith("Pika: you against 3 hard bots. Seed: first")
    assert "Your hand: [1]" in text and "Top card:" in text
    assert "Final places" in text and text.count("You (") == 1


@pytest.mark.parametrize("players", [2, 3])
def test_smaller_tables_play_to_the_end(players: int) -> None:
    out = io.StringIO()
    lines = itertools.repeat("1")
    assert play("pika", players, "easy", "small", input_line=scripted(lines), out=out) == 0
    assert out.getvalue().count("Bot ") > 0 and "Final places" in out.getvalue()


def test_bad_input_is_explained_and_asked_again() -> None:
    out = io.StringIO()
    lines = itertools.chain(["banana", "0", "999", "move 1 99"], itertools.repeat("1"))
    assert play("pika", 2, "medium", "bad", input_line=scripted(lines), out=out) == 0
    text = out.getvalue()
    assert "'banana' is not a choice: type a number from 1 to" in text
    assert "'999' is not a choice" in text and "'move 1 99' is not a choice" in text


def test_sort_reorders_the_hand_and_the_order_stays() -> None:
    out = io.StringIO()
    lines = itertools.chain(["sort"], itertools.repeat("1"))
    assert play("pika", 2, "easy", "sorting", input_line=scripted(lines), out=out) == 0
    hands = [line for line in out.getvalue().splitlines() if line.startswith("Your hand:")]
    first_sorted = hands[1]
    colours = [part.split("] ")[1].split()[0] for part in first_sorted.split("  ")[1:]]
    order = ["red", "yellow", "green", "blue", "wild"]
    assert [order.index(c) for c in colours] == sorted(order.index(c) for c in colours)


def test_a_late_pika_call_costs_two_cards() -> None:
    texts = []
    for n in range(10):
        ticks = itertools.count(step=10.0)  # ten seconds pass between two looks at the clock
        out = io.StringIO()
        code = play(
            "pika",
            2,
            "easy",
            f"late{n}",
            input_line=scripted(itertools.repeat("1"), out),  # calls, but always too late
            out=out,
            clock=lambda ticks=ticks: next(ticks),
        )
        assert code == 0
        texts.append(out.getvalue())
    windows = [t for t in texts if "One card left!" in t]
    assert windows, "no game left the human with one card"
    for text in windows:
        assert "Too late!" in text
        assert "You forgot to call Pika and drew 2 cards." in text


def test_quitting_and_bad_set_up() -> None:
    out = io.StringIO()
    assert play("pika", 4, "easy", "q", input_line=scripted(iter(["quit"])), out=out) == 1
    assert "You left the table." in out.getvalue()
    out = io.StringIO()
    assert play("pika", 5, "easy", "q", input_line=scripted(iter([])), out=out) == 2
    assert "cannot start: Pika is for 2 to 4 players, not 5" in out.getvalue()


def test_the_tavolo_command(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 5000))
    assert main(["play", "pika", "--players", "3", "--level", "hard", "--seed", "cli"]) == 0
    assert "Final places" in capsys.readouterr().out


def test_a_quick_pika_call_is_accepted() -> None:
    texts = []
    for n in range(10):
        out = io.StringIO()
        lines = scripted(itertools.repeat("1"), out)
        assert play("pika", 2, "easy", f"late{n}", input_line=lines, out=out, clock=float) == 0
        texts.append(out.getvalue())
    windows = [t for t in texts if "One card left!" in t]
    assert windows
    for text in windows:
        assert "You: Pika!" in text and "Too late!" not in text
        assert "You forgot to call Pika" not in text
