"""Hand-built fishing tables for rule tests: hands, table and stock written out card by
card, so a test says exactly what lies where and searches no seed."""

from __future__ import annotations

from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Event
from tavolo.cardgames.games.fishing.core import FishingGame
from tavolo.cardgames.games.fishing.state import NOBODY, FishingState


def cards(text: str) -> tuple[str, ...]:
    return tuple(text.split())


def table(
    game: FishingGame,
    seats: int,
    hands: dict[int, str],
    on_table: str,
    *,
    stock: str = "",
    piles: dict[int, str] | None = None,
    turn: int = 0,
    dealer: int | None = None,
    options: dict[str, Any] | None = None,
    **fields: Any,
) -> FishingState:
    """A table in the middle of a hand. Seats missing from ``hands`` hold nothing; cards
    given nowhere are out of this hand (a rule test needs no conservation)."""
    state = game.new_game(options, seats, b"hand-built table").copy()
    state.hands = tuple(cards(hands.get(s, "")) for s in range(seats))
    state.table = cards(on_table)
    state.stock = cards(stock)
    state.piles = tuple(cards((piles or {}).get(k, "")) for k in range(len(state.sides)))
    state.turn = turn
    state.dealer = (turn - 1) % seats if dealer is None else dealer
    state.may_declare = (False,) * seats
    state.declared = ("",) * seats
    state.bonus = ()
    state.plays = ()
    state.scope = (0,) * len(state.sides)
    state.accusi = (0,) * len(state.sides)
    state.last_capturer = NOBODY
    for name, value in fields.items():
        setattr(state, name, value)
    return state


def play(card: str, capture: str = "") -> Action:
    return Action(ActionKind.PLAY, cards=(card,), capture=cards(capture))


def plays_of(game: FishingGame, state: FishingState, card: str) -> set[tuple[str, ...]]:
    """The captures (each sorted) offered to ``card``; ``()`` is laying it."""
    return {
        tuple(sorted(a.capture))
        for a in game.legal_actions(state, state.turn)
        if a.kind is ActionKind.PLAY and a.cards == (card,)
    }


def events_of(events: list[Event], kind: str) -> list[Event]:
    return [e for e in events if e["type"] == kind]
