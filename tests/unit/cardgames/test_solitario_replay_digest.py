"""Seeded Solitario games replay to the very same record (AUDIT-1, FAIR-2, SOLITARIO-1…6).

A table's log is replayed from its seed and actions, so the rules must give the same
deal, events, views, legal moves, timers, refusals and outcome for ever; a change made for
speed must change none of them. Games of one to four seats under every draw and scoring
(timed too) are played by a chooser that leans towards the foundations (so that deals are
won and auto-finished), with now and then a timer running out and a refused near miss,
and everything they produce is hashed. The digest was recorded from the rules before
their hot paths were rewritten for speed.
"""

from __future__ import annotations

import hashlib
import random
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games.solitario.piles import COLUMN_NAMES, FOUNDATION_NAMES, WASTE
from tavolo.cardgames.registry import get_game
from tests.unit.cardgames.digest import Digest, refused

RECORDED = "5ee06c45acf82ab6358aa1a7c20351abba68344a448b96aa57cd16945aab29c2"

OPTIONS: tuple[dict[str, JSON], ...] = (
    {},
    {"draw": 3},
    {"scoring": "vegas"},
    {"scoring": "vegas", "draw": 3},
    {"timed": True},
    {"timed": True, "draw": 3, "time_limit": 1},
)
GAMES_PER_TABLE = 5
ACTIONS_PER_SEAT = 200
"""A seat that has made this many moves and draws stops (random play may loop)."""


def _probes(chooser: random.Random, legal: list[Action]) -> list[Action]:
    """Near misses of legal moves (one card more or fewer, the other way round, another
    pile), malformed draws and stops, and moves between arbitrary piles."""
    piles = (WASTE, *COLUMN_NAMES, *FOUNDATION_NAMES, "t8", "stock")
    probes: list[Action] = []
    for action in legal:
        if action.kind is ActionKind.MOVE and action.count is not None:
            source, target, count = action.source, action.target, action.count
            probes.append(Action(ActionKind.MOVE, source=source, target=target, count=count + 1))
            probes.append(Action(ActionKind.MOVE, source=source, target=target, count=count - 1))
            probes.append(Action(ActionKind.MOVE, source=target, target=source, count=count))
            probes.append(Action(ActionKind.MOVE, source=source, target=target, cards=("AS",)))
    chooser.shuffle(probes)
    probes = probes[:2]
    source, target = chooser.choice(piles), chooser.choice(piles)
    probes.append(
        Action(ActionKind.MOVE, source=source, target=target, count=chooser.randrange(0, 14))
    )
    malformed = (
        Action(ActionKind.MOVE, source=WASTE, target="t1"),
        Action(ActionKind.DRAW),
        Action(ActionKind.DRAW, count=1),
        Action(ActionKind.STOP, cards=("AS",)),
        Action(ActionKind.PLAY, cards=("AS",)),
    )
    probes.append(chooser.choice(malformed))
    return probes


def _choose(chooser: random.Random, seat: Any, legal: list[Action]) -> Action:
    """A greedy player with a little noise: to the foundations first, then a run that
    uncovers a face-down card, then the waste's top, then the stock; stuck, it stops."""
    layout = seat.layout
    upward, uncovering, from_waste, other = [], [], [], []
    draw = None
    for action in legal:
        source, target = action.source, action.target
        if action.kind is ActionKind.DRAW:
            draw = action
        elif action.kind is not ActionKind.MOVE or source is None or target is None:
            continue
        elif target.startswith("f"):
            upward.append(action)
        elif source.startswith("t"):
            k = COLUMN_NAMES.index(source)
            if action.count == len(layout.up[k]) and (layout.down[k] or target == WASTE):
                uncovering.append(action)
            else:
                other.append(action)
        elif source == WASTE:
            from_waste.append(action)
        else:
            other.append(action)
    if other and chooser.random() < 0.03:
        return chooser.choice(other)
    for found in (upward, uncovering, from_waste):
        if found:
            return chooser.choice(found)
    if draw is not None and seat.actions < ACTIONS_PER_SEAT - 40:
        return draw
    return chooser.choice(other) if other and chooser.random() < 0.5 else legal[-1]


def _game_record(options: dict[str, JSON], seats: int, n: int) -> tuple[str, int]:
    game = get_game("solitario")
    chooser = random.Random(f"solitario-{options}-{seats}-{n}")
    state = game.new_game(options, seats, f"digest solitario {options} {seats} {n}".encode())
    digest = Digest()
    add = digest.add
    won = 0

    def add_views(*viewers: int | None) -> None:
        for viewer in viewers:
            add(game.view(state, viewer).to_dict())
        add([[t.key, t.seat, t.kind, t.millis] for t in game.timers(state)])

    add(state.redeals)
    add_views(None, *range(seats))
    while game.to_act(state):
        to_act = sorted(game.to_act(state))
        seat = chooser.choice(to_act)
        legal = game.legal_actions(state, seat)
        add([seat, [a.to_dict() for a in legal]])
        for probe in _probes(chooser, legal):
            add(refused(game, state, seat, probe))
        if state.seats[seat].actions >= ACTIONS_PER_SEAT:
            action = Action(ActionKind.STOP)
        elif chooser.random() < 0.004:
            timer = chooser.choice([t for t in game.timers(state) if t.seat == seat])
            action = Action(ActionKind.EXPIRE, timer=timer.key)
        else:
            action = _choose(chooser, state.seats[seat], legal)
        state, events = game.apply(state, seat, action)
        add(events)
        add_views(None, seat)
        won += sum(1 for e in events if e["type"] == "finished" and e["result"] == "won")
    outcome = game.outcome(state)
    assert outcome is not None
    add([list(outcome.places), list(outcome.scores), dict(outcome.detail)])
    return digest.hexdigest(), won


def solitario_digest() -> tuple[str, int]:
    """The digest of every game, and how many seats won (the chooser must win some)."""
    hasher = hashlib.sha256()
    game = get_game("solitario")
    wins = 0
    for options in OPTIONS:
        for seats in game.seat_counts():
            for n in range(GAMES_PER_TABLE):
                digest, won = _game_record(options, seats, n)
                hasher.update(digest.encode())
                wins += won
    return hasher.hexdigest(), wins


def test_seeded_solitario_games_replay_to_the_recorded_digest() -> None:
    """AUDIT-1: every deal, event, view, timer, legal move, refusal and outcome as recorded."""
    digest, wins = solitario_digest()
    assert wins >= 10
    assert digest == RECORDED


if __name__ == "__main__":
    print(solitario_digest())
