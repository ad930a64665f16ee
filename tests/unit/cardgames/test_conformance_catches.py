"""The conformance checks must fail on engines that break the contract, or they prove
nothing: each broken variant of Pika below is caught."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import pytest

from tavolo.cardgames.actions import Action
from tavolo.cardgames.contract import Event, Outcome, View
from tavolo.cardgames.games.shedding.pika import Pika
from tavolo.cardgames.games.shedding.pika_state import PikaState
from tests.unit.cardgames.conformance import check_outcome, check_replay, play_random_game


class LeakyPika(Pika):
    """Shows every seat the next seat's hand."""

    def view(self, state: PikaState, seat: int | None) -> View:
        view = super().view(state, seat)
        peek = list(state.hands[((seat or 0) + 1) % state.seats])
        return View(view.seat, view.hand, {**view.public, "peek": peek}, view.private)


class HandSwappingPika(Pika):
    """Gives each seat another seat's hand in its view."""

    def view(self, state: PikaState, seat: int | None) -> View:
        view = super().view(state, seat)
        if seat is None:
            return view
        return View(seat, state.hands[(seat + 1) % state.seats], view.public, view.private)


class MutatingPika(Pika):
    """Changes the state it is given."""

    def _apply(self, state: PikaState, seat: int, action: Action) -> tuple[PikaState, list[Event]]:
        new, events = super()._apply(state, seat, action)
        state.idle = new.idle + 1
        return new, events


class LosingPika(Pika):
    """Drops a card from the stock on every draw."""

    def _apply(self, state: PikaState, seat: int, action: Action) -> tuple[PikaState, list[Event]]:
        new, events = super()._apply(state, seat, action)
        if action.kind.value == "draw" and new.stock:
            new.stock = new.stock[1:]
        return new, events


class LaxPika(Pika):
    """Accepts any play of a card in hand, matching or not."""

    def _is_legal(self, state: PikaState, seat: int, action: Action) -> bool:
        if action.kind.value == "play" and seat == state.turn and action.cards:
            return action.cards[0] in state.hands[seat] or super()._is_legal(state, seat, action)
        return super()._is_legal(state, seat, action)


class UnsettledPika(Pika):
    """Deals from a generator that is not the state's own, so replays differ."""

    calls = 0

    def _new_game(self, options: dict[str, Any], seats: int, rng: Any) -> PikaState:
        UnsettledPika.calls += 1
        rng.counter += UnsettledPika.calls
        return super()._new_game(options, seats, rng)


@pytest.mark.parametrize(
    ("broken", "reason"),
    [
        (LeakyPika, "which it cannot see"),
        (HandSwappingPika, "hand is not its own"),
        (MutatingPika, "changed"),
        (LosingPika, "cards not conserved"),
        (LaxPika, "not legal"),
    ],
)
def test_broken_engines_are_caught(broken: Callable[[], Pika], reason: str) -> None:
    with pytest.raises(AssertionError, match=reason):
        for n in range(20):
            play_random_game(
                broken(), 4, {}, f"seed {n}".encode(), b"chooser", [None] * 4, deep=False
            )


def test_replay_differences_are_caught() -> None:
    game = UnsettledPika()
    record = play_random_game(game, 3, {}, b"seed", b"chooser", [None] * 3, deep=False)
    with pytest.raises(AssertionError, match="replay"):
        check_replay(game, record)


def test_places_must_be_a_competition_ranking() -> None:
    check_outcome(Outcome(places=(1, 2, 2, 4), scores=(0, 0, 0, 0)), 4)
    for places in ((1, 2, 2, 3), (0, 1, 2, 3), (1, 1, 2, 3), (1, 2, 3)):
        with pytest.raises(AssertionError):
            check_outcome(Outcome(places=places, scores=(0,) * len(places)), 4)
