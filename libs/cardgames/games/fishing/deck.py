"""The 40-card decks of the fishing games (RULES §0.8, PCG-9) as short string codes.

A card code is its rank followed by its suit letter:

- **Italian**: ranks ``A 2 3 4 5 6 7 F C R`` (Fante, Cavallo, Re); suits ``C`` coppe,
  ``D`` denari, ``B`` bastoni, ``S`` spade. ``"7D"`` is the settebello, ``"RC"`` the Re
  of coppe.
- **French** (Cirulla's Genoese deck, and the French deck without jokers, 8s, 9s and 10s
  of PCG-9): ranks ``A 2 … 7 J Q K``; suits ``H`` cuori, ``D`` quadri, ``C`` fiori,
  ``S`` picche. ``"7D"`` is the 7 of quadri, which is the settebello.

The two decks play the same game: cuori = coppe, quadri = denari, fiori = bastoni,
picche = spade, and J, Q, K are F, C, R. Rules therefore never read a code's letters;
they ask the deck for a card's capture *value* (A = 1 … 7, F/J = 8, C/Q = 9, R/K = 10)
and its *suit number* (0 coppe/cuori, 1 denari/quadri, 2 bastoni/fiori, 3 spade/picche).
"""

from __future__ import annotations

from typing import Final

COPPE: Final = 0
DENARI: Final = 1
BASTONI: Final = 2
SPADE: Final = 3
SUIT_NAMES: Final = ("coppe", "denari", "bastoni", "spade")
FRENCH_SUIT_NAMES: Final = ("cuori", "quadri", "fiori", "picche")

PRIMIERA: Final = (0, 16, 12, 13, 14, 15, 18, 21, 10, 10, 10)
"""Primiera value by capture value (index 0 unused): 7=21, 6=18, A=16, 5=15, 4=14, 3=13,
2=12, figures 10."""


class Deck:
    """One 40-card deck: its codes in a fixed order (the order before a shuffle), and each
    card's capture value and suit number."""

    __slots__ = ("codes", "count_key", "french", "name", "order", "suit", "value")

    def __init__(self, name: str, ranks: tuple[str, ...], suits: tuple[str, ...]) -> None:
        self.name = name
        self.french = name == "french"
        self.codes: tuple[str, ...] = tuple(r + s for s in suits for r in ranks)
        self.value: dict[str, int] = {r + s: v for s in suits for v, r in enumerate(ranks, 1)}
        self.suit: dict[str, int] = {r + s: n for n, s in enumerate(suits) for r in ranks}
        # each card's place in display order (by value, then suit), the key of a sort
        self.order: dict[str, int] = {c: self.value[c] * 4 + self.suit[c] for c in self.codes}
        # what the count reads of a card in one look-up: value << 7 | primiera points << 2
        # | suit
        self.count_key: dict[str, int] = {
            c: self.value[c] << 7 | PRIMIERA[self.value[c]] << 2 | self.suit[c] for c in self.codes
        }

    def card(self, value: int, suit: int) -> str:
        """The code of the card of ``value`` (1-10) in suit number ``suit``."""
        return self.codes[suit * 10 + value - 1]

    def is_denari(self, card: str) -> bool:
        return self.suit[card] == DENARI

    def pretty(self, card: str) -> str:
        """For people: ``"7♦"`` in the French deck, ``"7d"`` (seven of denari) in the
        Italian one, whose suits have no common symbols."""
        if self.french:
            return card[:-1] + "♥♦♣♠"[self.suit[card]]
        return card[:-1] + "cdbs"[self.suit[card]]

    def suit_name(self, suit: int) -> str:
        return (FRENCH_SUIT_NAMES if self.french else SUIT_NAMES)[suit]


ITALIAN: Final = Deck(
    "italian", ("A", "2", "3", "4", "5", "6", "7", "F", "C", "R"), ("C", "D", "B", "S")
)
FRENCH: Final = Deck(
    "french", ("A", "2", "3", "4", "5", "6", "7", "J", "Q", "K"), ("H", "D", "C", "S")
)
DECKS: Final = {"italian": ITALIAN, "french": FRENCH}


def sort_cards(deck: Deck, cards: tuple[str, ...] | list[str]) -> tuple[str, ...]:
    """Cards in display order: by value, then suit. An insertion sort on each card's
    place (``Deck.order``): a hand is three to ten cards, too few for ``sorted``'s set-up
    to pay, compiled."""
    order = deck.order
    out = list(cards)
    keys = [order[c] for c in out]
    for i in range(1, len(out)):
        key, card = keys[i], out[i]
        j = i
        while j and keys[j - 1] > key:
            keys[j], out[j] = keys[j - 1], out[j - 1]
            j -= 1
        keys[j], out[j] = key, card
    return tuple(out)
