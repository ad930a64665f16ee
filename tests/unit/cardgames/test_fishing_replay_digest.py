"""Seeded random fishing matches replay to the very same record (AUDIT-1, FAIR-2).

A table's log is replayed from its seed and actions, so the rules must give the same
events, views, legal moves, refusals and outcome for ever; a change made for speed must
change none of them. Several hundred matches of every fishing game, under every
seat count and a spread of options, are played with random legal moves (and now and then
a turn timer running out, and a refused move), and everything they produce is hashed. The
digest was recorded from the rules before their hot paths were rewritten for speed.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import JSON
from tavolo.cardgames.registry import get_game
from tests.unit.cardgames.digest import Digest, refused

RECORDED = "9d5b1539df81f7dfb9f84ca10e645be2bb9137e74000539f0d80b8c39e406662"

TABLES: tuple[tuple[str, dict[str, JSON]], ...] = (
    ("scopa", {}),
    ("scopa", {"fewest_cards_sum": True, "napola": True, "re_bello": True}),
    ("scopone", {}),
    ("asso", {}),
    ("asso", {"ace_sweep_scopa": True}),
    ("cirulla", {}),
)
MATCHES_PER_TABLE = 12


def _probes(state: Any, seat: int, legal: list[Action]) -> list[Action]:
    """Moves that are near misses of legal ones: a capture in another order, a lay of a
    card that must capture, a card not held, a capture of a card not on the table."""
    probes: list[Action] = []
    for action in legal:
        if action.kind is ActionKind.PLAY and len(action.capture) >= 2:
            probes.append(Action(ActionKind.PLAY, cards=action.cards, capture=action.capture[::-1]))
        if action.kind is ActionKind.PLAY and action.capture:
            probes.append(Action(ActionKind.PLAY, cards=action.cards))
            probes.append(
                Action(ActionKind.PLAY, cards=action.cards, capture=(*action.capture[:1], "XX"))
            )
    other = (seat + 1) % state.seats
    if state.hands[other]:
        probes.append(Action(ActionKind.PLAY, cards=state.hands[other][:1]))
    probes.append(Action(ActionKind.CALL, call="decino"))
    return probes[:6]


def _match_record(name: str, options: dict[str, JSON], seats: int, n: int) -> str:
    game = get_game(name)
    chooser = random.Random(f"{name}-{seats}-{n}")
    state = game.new_game(options, seats, f"digest {name} {seats} {n}".encode())
    digest = Digest()
    add = digest.add

    add(game.view(state, None).to_dict())
    while game.to_act(state):
        (seat,) = game.to_act(state)
        legal = game.legal_actions(state, seat)
        add([a.to_dict() for a in legal])
        for probe in _probes(state, seat, legal):
            add(refused(game, state, seat, probe))
        if chooser.random() < 0.05:
            (timer,) = game.timers(state)
            action = Action(ActionKind.EXPIRE, timer=timer.key)
        else:
            action = legal[chooser.randrange(len(legal))]
        state, events = game.apply(state, seat, action)
        add(events)
        for viewer in (None, *range(seats)):
            add(game.view(state, viewer).to_dict())
    outcome = game.outcome(state)
    assert outcome is not None
    add([list(outcome.places), list(outcome.scores), dict(outcome.detail)])
    return digest.hexdigest()


def fishing_digest() -> str:
    hasher = hashlib.sha256()
    for name, options in TABLES:
        for seats in get_game(name).seat_counts():
            for n in range(MATCHES_PER_TABLE):
                hasher.update(_match_record(name, options, seats, n).encode())
    return hasher.hexdigest()


def test_seeded_fishing_matches_replay_to_the_recorded_digest() -> None:
    """AUDIT-1: every event, view, legal move, refusal and outcome as recorded."""
    assert fishing_digest() == RECORDED


def test_a_fishing_state_copies_every_field_in_order() -> None:
    """AUDIT-1: the copy named field by field holds what the generic copy would."""
    from tavolo.cardgames.slotted import SlottedState

    for name, _ in TABLES:
        game = get_game(name)
        state = game.new_game({}, 4, name.encode())
        assert state.copy().values() == SlottedState.copy(state).values() == state.values()


if __name__ == "__main__":
    print(fishing_digest())
