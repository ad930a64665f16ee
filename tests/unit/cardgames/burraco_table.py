"""Burraco positions set up by hand for the rule tests: who holds what, what is melded."""

from __future__ import annotations

from collections import Counter
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.games.rummy.burraco import Burraco
from tavolo.cardgames.games.rummy.burraco_state import DRAW, PLAY, BurracoState
from tavolo.cardgames.games.rummy.deck import full_deck, sort_cards
from tavolo.cardgames.games.rummy.melds import BURRACO_MELDS, Meld, read_meld

GAME = Burraco()


def meld(*cards: str) -> Meld:
    found = read_meld(cards, BURRACO_MELDS)
    assert isinstance(found, Meld), found
    return found


def table(
    hands: list[list[str]],
    *,
    melds: tuple[list[Meld], list[Meld]] = ([], []),
    discard: list[str] | None = None,
    turn: int = 0,
    phase: str = PLAY,
    took_pozzetto: tuple[bool, bool] = (False, False),
    stock_size: int | None = None,
    options: dict[str, Any] | None = None,
    **changes: Any,
) -> BurracoState:
    """A table whose cards add up to the full deck: whatever no hand, meld or pile holds
    goes to the pozzetti not yet taken and to the stock."""
    seats = len(hands)
    state = GAME.new_game(options or {}, seats, b"burraco table")
    discard = ["KD"] if discard is None else discard
    placed = Counter(c for h in hands for c in h)
    placed.update(c for side in melds for m in side for c in m.cards)
    placed.update(discard)
    rest = list((Counter(full_deck()) - placed).elements())
    assert len(rest) + placed.total() == 108, "more copies than the deck holds"
    pozzetti: list[tuple[str, ...]] = []
    for side in (0, 1):
        if took_pozzetto[side]:
            pozzetti.append(())
        else:
            pozzetti.append(tuple(rest[:11]))
            rest = rest[11:]
    stock = tuple(rest if stock_size is None else rest[:stock_size])
    extra = rest[len(stock) :]
    if extra:  # a short stock: the cards it leaves out go to the discard pile's bottom
        discard = [*extra, *discard]
    return state.replace(
        hands=tuple(sort_cards(h) for h in hands),
        melds=(tuple(melds[0]), tuple(melds[1])),
        discard=tuple(discard),
        stock=stock,
        pozzetti=(pozzetti[0], pozzetti[1]),
        took_pozzetto=took_pozzetto,
        turn=turn,
        phase=phase,
        banned=None,
        last_turn=False,
        **changes,
    )


def act(state: BurracoState, seat: int, kind: ActionKind, *cards: str, **fields: Any) -> Any:
    return GAME.apply(state, seat, Action(kind, cards=cards, **fields))


def legal(state: BurracoState, seat: int | None = None) -> list[Action]:
    return GAME.legal_actions(state, state.turn if seat is None else seat)


__all__ = ["DRAW", "GAME", "PLAY", "act", "legal", "meld", "table"]
