"""Knock-out places when three or more sides tie (RULES §0.12-14, PCG-7).

A scripted game stands in for the rules here, so that each case names the match's places
and each tie-break hand's result exactly as a position of the real game would give them;
the conformance suite forces the same ties in the real games.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Event, Game, Outcome, View, places_from_measure
from tavolo.cardgames.knockout import KnockOut
from tavolo.cardgames.rng import SeededRandom

END = Action(ActionKind.STOP)


@dataclass(frozen=True)
class Scripted:
    hand: int  # 0: the match; n: the n-th tie-break hand
    over: bool = False


class ScriptedGame(Game[Scripted]):
    """One action ends the match or a tie-break hand; ``results[n]`` is hand n's places."""

    name = "scripted"
    title = "Scripted"
    min_players = 2
    max_players = 8
    offers_knock_out = True

    def __init__(self, seats: int, results: list[tuple[int, ...]], last: int | None) -> None:
        self.n, self.results, self.last = seats, results, last

    def _new_game(self, options: dict[str, Any], seats: int, rng: SeededRandom) -> Scripted:
        return Scripted(0)

    def _legal_actions(self, state: Scripted, seat: int) -> list[Action]:
        return [END] if seat == 0 and not state.over else []

    def _apply(self, state: Scripted, seat: int, action: Action) -> tuple[Scripted, list[Event]]:
        return Scripted(state.hand, True), [{"type": "ended"}]

    def view(self, state: Scripted, seat: int | None) -> View:
        return View(seat, (), {})

    def outcome(self, state: Scripted) -> Outcome | None:
        if not state.over:
            return None
        places = self.results[state.hand]
        return Outcome(places, tuple(-p for p in places))

    def to_act(self, state: Scripted) -> frozenset[int]:
        return frozenset() if state.over else frozenset({0})

    def seats(self, state: Scripted) -> int:
        return self.n

    def cards_in_play(self, state: Scripted) -> list[str]:
        return []

    def hidden_cards(self, state: Scripted, seat: int | None) -> list[str]:
        return []

    def tie_break_hand(self, state: Scripted) -> tuple[Scripted, list[Event]]:
        return Scripted(state.hand + 1), []

    def last_capture(self, state: Scripted) -> int | None:
        return self.last


def ko_places(
    seats: int, results: list[tuple[int, ...]], last: int | None = None
) -> tuple[int, ...]:
    game = KnockOut(ScriptedGame(seats, results, last))
    state = game.new_game(None, seats, b"scripted")
    while game.to_act(state):
        state, _ = game.apply(state, 0, END)
    outcome = game.outcome(state)
    assert outcome is not None
    return outcome.places


@pytest.mark.parametrize(
    ("match", "hand", "expected"),
    [
        # Hearts, rules=seed, target=1: seats 0-2 tied; tie-break points 1/13/4/8, the
        # fewest first.
        ((1, 1, 1, 4), places_from_measure([1, 13, 4, 8], lower_is_better=True), (1, 3, 2, 4)),
        # Ciapanò, 3 players all tied; penalty points 3/0/8.
        ((1, 1, 1), places_from_measure([3, 0, 8], lower_is_better=True), (2, 1, 3)),
        # Bestia, 6 players, seats 2, 3 and 5 tied; the hand's chips 0/0/0/-3/0/+3.
        (
            (5, 4, 1, 1, 6, 1),
            places_from_measure([0, 0, 0, -3, 0, 3], lower_is_better=False),
            (5, 4, 2, 3, 6, 1),
        ),
    ],
    ids=["hearts", "ciapano", "bestia"],
)
def test_pcg_7_among_three_tied_sides_more_tie_break_points_ranks_higher(
    match: tuple[int, ...], hand: tuple[int, ...], expected: tuple[int, ...]
) -> None:
    """PCG-7, RULES §0.13: every tied side is placed by its tie-break hand result, not
    only the best one; the others keep their places."""
    assert ko_places(len(match), [match, hand]) == expected


def test_pcg_7_sides_level_in_a_hand_stay_ordered_by_the_next() -> None:
    """PCG-7, RULES §0.13-14: a hand that leaves two of three tied sides level at the top
    places the third, and the next hand orders the two (no shared first place)."""
    match = (1, 1, 1, 4)
    first = (1, 1, 3, 4)  # seats 0 and 1 level, seat 2 below them
    second = (2, 1, 3, 4)
    assert ko_places(4, [match, first, second]) == (2, 1, 3, 4)


def test_pcg_7_three_drawn_hands_the_last_capture_loses_among_the_level_sides() -> None:
    """PCG-7, RULES §0.14: after three drawn hands the side that made the last capture
    loses; the others share first (RULES §0.12). A last capture by no tied side: they
    share their place (RULES §0.13)."""
    match = (1, 1, 1, 4)
    level = (1, 1, 1, 4)
    assert ko_places(4, [match, level, level, level], last=1) == (1, 3, 1, 4)
    assert ko_places(4, [match, level, level, level], last=3) == (1, 1, 1, 4)
