"""Forced ties in the games that play their own tie-break hands (RULES §0.11-14, PCG-7):
Scopa, Scopone, Asso Pigliatutto, Cirulla, Briscola, Spades, Burraco and Tresette.

Each match's first hand is played once by bots to learn what every side scores in it;
the same hand is then replayed from totals set so that it ends with 2 or 3 sides level
at the top, and bots play the tie-break hands that follow. No game here seats four
sides (four players play in two partnerships), so ties are 3-way only at 3-player
tables. The places are worked out here from the rules alone, never by the engine's own
place function: the tied sides ordered by the tie-break hands in turn (a later hand
orders only the sides an earlier one left level), at most 3 hands, then the last
capture's side dropping below the others still level, and everyone else by total."""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from typing import Any

import pytest

from tavolo.cardgames.actions import Action
from tavolo.cardgames.bots.registry import bot_levels, make_bot
from tavolo.cardgames.contract import Event, Game
from tavolo.cardgames.registry import all_games
from tavolo.cardgames.rng import SeededRandom
from tests.scale import scaled
from tests.unit.cardgames.conformance import check_outcome

MAX_TIE_BREAK_HANDS = 3
FORCED_TIES = scaled(2, 20)
"""Matches per game, seat count and tie size whose first hand is forced level."""


def _hand_points(event: Event) -> list[int] | None:
    """Each side's points in the hand an event scores, if it scores one."""
    if event["type"] == "round_scored":  # Spades
        return [int(team["delta"]) for team in event["teams"]]
    if event["type"] != "hand_scored":
        return None
    if "sides" in event:  # Burraco
        return [int(side["total"]) for side in event["sides"]]
    return [int(p) for p in event["points"]]


@dataclass(frozen=True)
class Spec:
    options: dict[str, Any]
    totals: str
    """The state's field holding each side's match total."""
    floor: int
    """A level total at least this high ends the match (a points target), else 0."""
    last_side: Callable[[Game[Any], Any, Sequence[Event], int, int], int | None]
    """The side that made the last capture (or play) in the hand just ended."""


def _from_event(game: Game[Any], state: Any, events: Sequence[Event], seat: int, sides: int) -> int:
    scored = next(e for e in events if e["type"] == "hand_scored")
    return int(scored["last_trick_side"])


def _last_trick_team(
    game: Game[Any], state: Any, events: Sequence[Event], seat: int, sides: int
) -> int:
    return int([e for e in events if e["type"] == "trick_won"][-1]["seat"]) % sides


def _last_capturer(
    game: Game[Any], state: Any, events: Sequence[Event], seat: int, sides: int
) -> int | None:
    found = game.last_capture(state)
    return None if found is None else found % sides


def _last_player(
    game: Game[Any], state: Any, events: Sequence[Event], seat: int, sides: int
) -> int:
    return seat % sides


FISHING = {"match_length": "hands:1"}
SPECS = {
    "scopa": Spec(FISHING, "totals", 0, _last_capturer),
    "scopone": Spec(FISHING, "totals", 0, _last_capturer),
    "asso": Spec(FISHING, "totals", 0, _last_capturer),
    "cirulla": Spec(FISHING, "totals", 0, _last_capturer),
    "briscola": Spec({"ko": True}, "points", 0, _from_event),
    "tresette": Spec({}, "totals", 21, _from_event),
    "spades": Spec({}, "scores", 500, _last_trick_team),
    "burraco": Spec({"match_length": "hands:1"}, "totals", 0, _last_player),
}
OWN = sorted(n for n, g in all_games().items() if g.own_tie_breaks)


def expected_side_places(
    totals: Sequence[int], tied: Sequence[int], hands: Sequence[Sequence[int]], last: int | None
) -> tuple[list[int], int]:
    """RULES §0.12-14 for sides: the places, and how many tie-break hands decide them."""
    groups = [list(tied)]
    used = 0
    for points in hands:
        if len(groups[0]) == 1 or used == MAX_TIE_BREAK_HANDS:
            break
        used += 1
        split: list[list[int]] = []
        for group in groups:
            for value in sorted({points[s] for s in group}, reverse=True):
                split.append([s for s in group if points[s] == value])
        groups = split
    if len(groups[0]) > 1 and last in groups[0]:
        groups = [[s for s in groups[0] if s != last], [last], *groups[1:]]
    rest = sorted((s for s in range(len(totals)) if s not in tied), key=lambda s: -totals[s])
    for side in rest:
        if groups and groups[-1][0] in rest and totals[groups[-1][0]] == totals[side]:
            groups[-1].append(side)
        else:
            groups.append([side])
    places = [0] * len(totals)
    ahead = 0
    for group in groups:
        for side in group:
            places[side] = 1 + ahead
        ahead += len(group)
    return places, used


def _bots(name: str, seats: int, rng: SeededRandom, seed: bytes) -> list[Any]:
    levels = bot_levels(name)
    return [
        make_bot(name, levels[rng.randbelow(len(levels))], seed + bytes([s])) for s in range(seats)
    ]


def _step(game: Game[Any], state: Any, bots: list[Any], rng: SeededRandom) -> tuple[int, Action]:
    waiting = sorted(game.to_act(state))
    seat = waiting[rng.randbelow(len(waiting))]
    legal = game.legal_actions(state, seat)
    return seat, bots[seat].choose(game.view(state, seat), legal)


def forced_tie(name: str, seats: int, size: int, seed: bytes) -> int | None:
    """One match whose first hand ends with ``size`` sides level at the top; checks its
    places and totals. Returns the tie-break hands played, or None when the match did
    not reach them (a Cirulla cappotto ends it at once, RULES 11.9)."""
    game, spec = all_games()[name], SPECS[name]
    rng = SeededRandom(seed)
    bots = _bots(name, seats, rng, seed)
    state = game.new_game(spec.options, seats, seed)
    sides = len(getattr(state, spec.totals))
    if size > sides:
        return None
    moves: list[tuple[int, Action]] = []
    first: list[int] | None = None
    while first is None:
        seat, action = _step(game, state, bots, rng)
        state, events = game.apply(state, seat, action)
        moves.append((seat, action))
        first = next((p for p in map(_hand_points, events) if p is not None), None)
        if game.outcome(state) is not None and first is None:
            return None
    # Totals before the hand: the tied sides end it level on ``top``, the others below.
    top = spec.floor + 10 + max(abs(p) for p in first)
    start = rng.randbelow(sides - size + 1)
    tied = list(range(start, start + size))
    gaps = [0 if s in tied else 1 + rng.randbelow(3) for s in range(sides)]
    before = tuple(top - first[s] - gaps[s] for s in range(sides))
    state = game.new_game(spec.options, seats, seed)
    state = state.replace(**{spec.totals: before})
    bots = _bots(name, seats, SeededRandom(seed + b"again"), seed)
    hands: list[list[int]] = []
    last: int | None = None
    for seat, action in moves:
        state, events = game.apply(state, seat, action)
    ended = [top - gaps[s] for s in range(sides)]
    assert list(getattr(state, spec.totals)) == ended
    steps = 0
    while game.outcome(state) is None:
        seat, action = _step(game, state, bots, rng)
        state, events = game.apply(state, seat, action)
        steps += 1
        assert steps < 100_000, "no end"
        for points in filter(None, map(_hand_points, events)):
            hands.append(points)
            last = spec.last_side(game, state, events, seat, sides)
    outcome = game.outcome(state)
    assert outcome is not None
    if outcome.detail.get("reason") == "cappotto":
        return None
    assert len(hands) <= MAX_TIE_BREAK_HANDS, f"{len(hands)} tie-break hands"
    expected, used = expected_side_places(ended, tied, hands, last)
    assert len(hands) == used, f"{len(hands)} tie-break hands played where {used} decide"
    # RULES §0.13: tie-break hands' points never enter the match totals.
    assert list(getattr(state, spec.totals)) == ended, "tie-break points entered the totals"
    by_seat = [expected[game_side(game, state, s, sides)] for s in range(seats)]
    wanted = tuple(1 + sum(1 for o in by_seat if o < p) for p in by_seat)
    assert outcome.places == wanted, (outcome.places, wanted, ended, tied, hands, last)
    check_outcome(outcome, seats)
    return len(hands)


def game_side(game: Game[Any], state: Any, seat: int, sides: int) -> int:
    """The side a seat plays for: partners sit opposite (seats 0+2 against 1+3)."""
    side = seat % sides
    seats = game.seats(state)
    assert game.partners(state, seat) == {s for s in range(seats) if s % sides == side}
    return side


@pytest.mark.load
@pytest.mark.parametrize("name", OWN)
def test_forced_ties_are_placed_by_rules_0_12_to_0_14(name: str) -> None:
    """PCG-7, RULES §0.11-14: a match ending with 2, 3 or 4 sides level at the top (as
    many as the game seats) plays at most 3 tie-break hands, whose points stay out of the
    totals; the places follow the rules as worked out here."""
    assert set(OWN) == set(SPECS)
    game = all_games()[name]
    played = hands = 0
    counted: dict[int, int] = {}
    for seats in game.seat_counts():
        for size in (2, 3, 4):
            for repeat in range(FORCED_TIES):
                seed = f"own tie {name} {seats} {size} {repeat}".encode()
                used = forced_tie(name, seats, size, seed)
                if used is None:
                    continue
                played += 1
                hands += used
                counted[size] = counted.get(size, 0) + 1
    print(f"{name}: {played} forced ties by size {counted}, {hands} tie-break hands")
    assert played >= FORCED_TIES
