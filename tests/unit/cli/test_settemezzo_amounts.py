"""Sette e mezzo's bet menu offers a few amounts, not every one (one line per amount, 40
at ``max_bet`` 40, before): the least, half the most, the most, and "another amount",
which asks for the number (MODE-1)."""

from __future__ import annotations

import io
import re
from itertools import product
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.games.betting.settemezzo import SetteMezzo
from tavolo.cardgames.rng import SeededRandom
from tavolo.cli.play import command
from tavolo.cli.play.renderers import amount_answer, amount_question, menu, renderer_for

from .human_moves import record_human_moves

GAME = SetteMezzo()
RENDERER = renderer_for("settemezzo")


def betting_positions() -> list[tuple[Any, int]]:
    """Positions where a punter bets, at every seat count and bet range drawn (stacks
    short enough that the most is sometimes what the punter holds)."""
    found: list[tuple[Any, int]] = []
    rng = SeededRandom(b"bets")
    ranges = [(1, 1), (1, 2), (1, 10), (5, 40), (1, 40), (3, 1000)]
    for n, (seats, (low, high), stack) in enumerate(product(range(2, 9), ranges, (10, 100))):
        options = {"min_bet": low, "max_bet": high, "starting_stack": stack, "hands": 2}
        state = GAME.new_game(options, seats, f"bets {n}".encode())
        while GAME.outcome(state) is None:
            (seat,) = GAME.to_act(state)
            legal = GAME.legal_actions(state, seat)
            if any(a.kind is ActionKind.BET for a in legal):
                found.append((state, seat))
            state, _ = GAME.apply(state, seat, legal[rng.randbelow(len(legal))])
    return found


def test_every_bet_menu_is_short_and_reaches_every_amount() -> None:
    """At most 4 bet lines; the least and the most listed, each listed bet legal; "another
    amount" there exactly when a bet is not listed, and its answer takes every legal
    amount and nothing else."""
    positions = betting_positions()
    assert len(positions) > 100
    longest = 0
    for state, seat in positions:
        view = GAME.view(state, seat)
        legal = GAME.legal_actions(state, seat)
        choices = menu(RENDERER, view, legal)
        bets = sorted(int(a.amount or 0) for a in legal if a.kind is ActionKind.BET)
        listed = [a for _, a in choices if a.kind is ActionKind.BET and a.amount is not None]
        other = [a for _, a in choices if a.kind is ActionKind.BET and a.amount is None]
        longest = max(longest, len(listed) + len(other))
        assert len(listed) + len(other) <= 4
        assert all(a in legal for a in listed)
        assert {bets[0], bets[-1]} <= {a.amount for a in listed}
        assert len(other) == (len(listed) < len(bets))
        assert [a for _, a in choices if a.kind is not ActionKind.BET] == [
            a for a in legal if a.kind is not ActionKind.BET
        ]
        for choice in other:
            assert amount_question(RENDERER, view, choice) is not None
            for typed in range(bets[-1] + 3):
                got = amount_answer(RENDERER, view, legal, choice, str(typed))
                assert got == (Action(ActionKind.BET, amount=typed) if typed in bets else None)
            assert amount_answer(RENDERER, view, legal, choice, "tanti") is None
        for _, a in choices:
            assert amount_question(RENDERER, view, a) is None or a.amount is None
    assert longest == 4


def test_another_amount_is_played_offline(monkeypatch: Any) -> None:
    """Offline at max_bet 40: "another amount", a number too large (told which are
    right), then a right one that no line lists: that bet is played."""
    out = io.StringIO()
    played = record_human_moves(monkeypatch)
    asked: list[str] = []

    def answer(prompt: str) -> str | None:
        current = out.getvalue()[-2000:]
        other = re.findall(r"(\d+)\) bet another amount \((\d+) to (\d+)\)", current)
        if prompt.startswith("How many chips?"):
            asked.append(prompt)
            return "41" if len(asked) == 1 else "7"
        if any(a.kind is ActionKind.BET for a in played):
            return "q"
        return other[-1][0] if other else "1"

    options = {"max_bet": 40}
    code = command.play(
        "settemezzo", 4, "easy", "another", input_line=answer, out=out, options=options
    )
    assert code == 1
    assert "'41' is not an amount: type a number from 1 to 40, or Enter to go back" in (
        out.getvalue()
    )
    assert [a for a in played if a.kind is ActionKind.BET] == [Action(ActionKind.BET, amount=7)]
