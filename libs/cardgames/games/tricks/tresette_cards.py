"""Tresette's card order and card points (RULES §6.2-6.4, 6.9), shared by Tresette a
vincere and Tresette a perdere (Ciapanò).

Points are counted in *thirds*: an ace is a whole point (3 thirds), each 3, 2, R, C and F
a third, 4-7 nothing. A pile scores aces + ⌊thirds ÷ 3⌋ where thirds counts the figures
only, which is ⌊all thirds ÷ 3⌋; the last trick adds a point, so a hand totals 11.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.tricks.core import CardOrder

ORDER: Final = CardOrder.from_ranks(
    italian_cards.DECK, italian_cards.SUIT_OF, ("3", "2", "A", "R", "C", "F", "7", "6", "5", "4")
)
"""Trick order for Tresette: 3 2 A R C F 7 6 5 4 (RULES §0 rule 8)."""
THIRDS: Final = {
    c: 3 if c[0] == "A" else 1 if c[:-1] in ("3", "2", "R", "C", "F") else 0
    for c in italian_cards.DECK
}
HAND_POINTS: Final = 11
"""Every hand totals 11: 10 in the cards, 1 for the last trick."""


def pile_points(cards: Iterable[str]) -> int:
    """Aces + ⌊thirds ÷ 3⌋ of a pile of won cards, the last trick not included."""
    return sum(THIRDS[c] for c in cards) // 3


def aces_and_thirds(cards: Iterable[str]) -> tuple[int, int]:
    """How many aces a pile holds, and how many thirds its figures make."""
    held = list(cards)
    aces = sum(1 for c in held if c[0] == "A")
    return aces, sum(THIRDS[c] for c in held) - 3 * aces
