"""Scala 40 positions set up by hand for the rule tests."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.games.rummy.deck import full_deck, sort_cards
from tavolo.cardgames.games.rummy.melds import SCALA40_MELDS, Meld, read_meld
from tavolo.cardgames.games.rummy.scala40 import Scala40
from tavolo.cardgames.games.rummy.scala40_state import PLAY, Scala40State

GAME = Scala40()


def meld(*cards: str) -> Meld:
    found = read_meld(cards, SCALA40_MELDS)
    assert isinstance(found, Meld), found
    return found


def table(
    hands: list[list[str]],
    *,
    melds: list[tuple[int, Meld]] | None = None,
    pozzo: list[str] | None = None,
    turn: int = 0,
    phase: str = PLAY,
    opened: tuple[bool, ...] | None = None,
    turns_done: int = 10,
    options: dict[str, Any] | None = None,
    **changes: Any,
) -> Scala40State:
    """A table whose cards add up to the deck: the rest is the stock."""
    seats = len(hands)
    state = GAME.new_game(options or {}, seats, b"scala40 table")
    melds = melds or []
    pozzo = ["KD"] if pozzo is None else pozzo
    placed = Counter(c for h in hands for c in h)
    placed.update(c for _, m in melds for c in m.cards)
    placed.update(pozzo)
    stock = tuple((Counter(full_deck()) - placed).elements())
    assert len(stock) + placed.total() == 108, "more copies than the deck holds"
    return state.replace(
        hands=tuple(sort_cards(h) for h in hands),
        melds=tuple(melds),
        pozzo=tuple(pozzo),
        stock=stock,
        turn=turn,
        phase=phase,
        opened=opened or (False,) * seats,
        turns_done=turns_done,
        pending=0,
        taken=None,
        **changes,
    )


def act(state: Scala40State, seat: int, kind: ActionKind, *cards: str, **fields: Any) -> Any:
    return GAME.apply(state, seat, Action(kind, cards=cards, **fields))
