"""The Italian 40-card deck of the trick games (RULES §0 rule 8) as short string codes.

A card code is its rank followed by its suit letter, as the fishing games write them:
ranks ``A 2 3 4 5 6 7 F C R`` (Fante, Cavallo, Re); suits ``C`` coppe, ``D`` denari,
``B`` bastoni, ``S`` spade. ``"AD"`` is the ace of denari, ``"RC"`` the Re of coppe.

The trick games rank the cards differently (Briscola and Bestia: A 3 R C F 7 6 5 4 2;
Tresette: 3 2 A R C F 7 6 5 4), so each game builds its own
:class:`~tavolo.cardgames.games.tricks.core.CardOrder` from :data:`SUIT_OF` and its rank order.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from typing import Final

RANKS: Final = ("A", "2", "3", "4", "5", "6", "7", "F", "C", "R")
SUITS: Final = ("C", "D", "B", "S")
SUIT_NAMES: Final = {"C": "coppe", "D": "denari", "B": "bastoni", "S": "spade"}
RANK_NAMES: Final = {"A": "Asso", "F": "Fante", "C": "Cavallo", "R": "Re"}

DECK: Final = tuple(rank + suit for suit in SUITS for rank in RANKS)
"""The 40 codes in a fixed order (suit by suit, A to R): the order before a shuffle."""
SUIT_OF: Final = {c: c[-1] for c in DECK}
RANK_OF: Final = {c: c[:-1] for c in DECK}
_INDEX: Final = {c: i for i, c in enumerate(DECK)}


def deck(without: Iterable[str] = ()) -> list[str]:
    """A fresh deck in the fixed order, less the cards ``without`` (the 2 of bastoni of
    three-handed Briscola, the 4 of bastoni of three-handed Ciapanò)."""
    removed = set(without)
    return [c for c in DECK if c not in removed]


def is_card(code: str) -> bool:
    return code in _INDEX


def sort_hand(cards: Iterable[str], strength: Mapping[str, int] | None = None) -> tuple[str, ...]:
    """Display order: by suit (coppe, denari, bastoni, spade), strongest first when the
    game's ``strength`` is given, else A to R."""
    if strength is None:
        return tuple(sorted(cards, key=_INDEX.__getitem__))
    return tuple(sorted(cards, key=lambda c: (_INDEX[c] // 10, -strength[c])))


def pretty(card: str) -> str:
    """For people: ``"3 coppe"``, ``"R denari"``."""
    return f"{card[:-1]} {SUIT_NAMES[card[-1]]}"
