"""Pika checks legality directly (no list) for speed: it must agree with ``legal_actions``
on every action one might send, in positions from real games."""

from __future__ import annotations

import random
from dataclasses import replace

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import RuleError
from tavolo.cardgames.games.shedding.deck import CODES, COLOURS
from tavolo.cardgames.games.shedding.pika import Pika
from tavolo.cardgames.games.shedding.pika_state import PikaState

GAME = Pika()


def candidates() -> list[Action]:
    """Every PLAY shape of every card, the bare actions, and malformed variants."""
    found: list[Action] = []
    for card in sorted(CODES):
        for colour in (None, *COLOURS, "purple"):
            for call in (None, "pika", "uno"):
                found.append(Action(ActionKind.PLAY, cards=(card,), colour=colour, call=call))
    # Reorders and expiries are checked elsewhere: no list can hold them.
    bare = [
        Action(kind) for kind in ActionKind if kind not in (ActionKind.EXPIRE, ActionKind.REORDER)
    ]
    found.extend(bare)
    found.append(Action(ActionKind.CALL, call="pika"))
    found.append(Action(ActionKind.PLAY, cards=("R1", "R2")))
    found.extend(replace(a, amount=1) for a in (*bare, *found[:40]))
    return found


def positions(games: int) -> list[PikaState]:
    rng = random.Random(7)
    found = []
    for n in range(games):
        state = GAME.new_game({}, 2 + n % 3, f"legality {n}".encode())
        while GAME.outcome(state) is None:
            found.append(state)
            seat = min(GAME.to_act(state))
            state, _ = GAME.apply(state, seat, rng.choice(GAME.legal_actions(state, seat)))
    return found


def test_direct_legality_agrees_with_the_legal_list() -> None:
    actions = candidates()
    states = positions(12)
    assert len(states) > 300
    for state in states[::3]:
        for seat in range(state.seats):
            legal = GAME.legal_actions(state, seat)
            for action in actions:
                assert GAME._is_legal(state, seat, action) == (action in legal), (action, seat)


def test_every_refusal_says_why() -> None:
    actions = candidates()
    for state in positions(3)[::7]:
        for seat in range(state.seats):
            legal = GAME.legal_actions(state, seat)
            for action in actions:
                if action in legal:
                    continue
                try:
                    GAME.apply(state, seat, action)
                except RuleError as exc:
                    assert len(str(exc)) > 15
                else:
                    raise AssertionError(f"{action} accepted for seat {seat}")
