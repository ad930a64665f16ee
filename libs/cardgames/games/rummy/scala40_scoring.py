"""Scala 40's points (RULES 13.4, 13.7): what a meld is worth for the opening, and the
penalty of the cards left in a hand. Kept apart so fixture 24 reads against it alone."""

from __future__ import annotations

from collections.abc import Iterable, Sequence

from tavolo.cardgames.games.rummy.deck import ACE_HIGH, ACE_LOW, JOKER, RANK
from tavolo.cardgames.games.rummy.melds import RUN, Meld

OPENING = 40
NEVER_OPENED = 100


def _position_value(position: int) -> int:
    if position == ACE_LOW:
        return 1
    if position == ACE_HIGH:
        return 11
    return min(position, 10)


def meld_value(meld: Meld) -> int:
    """2-10 at face value, J Q K 10, the ace 1 in A-2-3 and 11 otherwise; a joker counts
    as the card it stands for (RULES 13.4)."""
    if meld.kind == RUN:
        return sum(_position_value(meld.low + i) for i in range(len(meld.cards)))
    rank = meld.low
    return len(meld.cards) * (11 if rank == ACE_HIGH else min(rank, 10))


def opening_value(melds: Iterable[Meld]) -> int:
    return sum(meld_value(m) for m in melds)


def card_penalty(code: str, *, alone: bool) -> int:
    """Joker 25; ace 11, or 1 when it is the only card left; J Q K 10; others face value."""
    if code == JOKER:
        return 25
    rank = RANK[code]
    if rank == ACE_HIGH:
        return 1 if alone else 11
    return min(rank, 10)


def hand_penalty(hand: Sequence[str], *, opened: bool, in_mano: bool) -> int:
    """What a player who did not close scores (RULES 13.7): 100 flat if they never
    opened, else their cards, doubled after a chiusura in mano."""
    if not opened:
        return NEVER_OPENED
    cards = sum(card_penalty(c, alone=len(hand) == 1) for c in hand)
    return 2 * cards if in_mano else cards
