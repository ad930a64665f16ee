"""Cirulla's accusi (CIRULLA-6/7): what a hand of three may declare, and its points.

- *decino*: three cards of a rank, 10 points;
- *cirulla*: the three total 9 or less, 3 points;
- the *matta*, the 7 of coppe/cuori, takes any value from 1 to 10 for accusi only: it
  joins any pair as a decino, and counts 1 towards a cirulla.

A hand that could declare both declares the decino (one accuso per seat per deal,
decino first **[decision]**).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tavolo.cardgames.games.fishing.deck import COPPE, Deck

DECINO: Final = "decino"
CIRULLA: Final = "cirulla"
POINTS: Final = {DECINO: 10, CIRULLA: 3}
CIRULLA_MAX: Final = 9
MATTA_VALUE: Final = 7


def matta(deck: Deck) -> str:
    return deck.card(MATTA_VALUE, COPPE)


def accuso(deck: Deck, cards: Sequence[str]) -> str | None:
    """The accuso three cards may declare (``"decino"``, ``"cirulla"``), else ``None``.
    One pass, no list: it is asked at the first turn of every deal."""
    if len(cards) != 3:
        return None
    wild = matta(deck)
    value = deck.value
    total = first = 0
    same = True  # the cards other than the matta are all of one rank
    for card in cards:
        if card == wild:
            total += 1  # the matta counts 1 towards a cirulla
            continue
        rank = value[card]
        if first and rank != first:
            same = False
        first = first or rank
        total += rank
    if same:
        return DECINO
    return CIRULLA if total <= CIRULLA_MAX else None
