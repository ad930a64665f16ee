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
    """The accuso three cards may declare (``"decino"``, ``"cirulla"``), else ``None``."""
    if len(cards) != 3:
        return None
    wild = matta(deck)
    values = [deck.value[c] for c in cards if c != wild]
    if len(values) == 2:  # the matta is among them
        if values[0] == values[1]:
            return DECINO
        return CIRULLA if 1 + sum(values) <= CIRULLA_MAX else None
    if values[0] == values[1] == values[2]:
        return DECINO
    return CIRULLA if sum(values) <= CIRULLA_MAX else None
