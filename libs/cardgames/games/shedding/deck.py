"""The 108-card Uno/Pika deck (RULES §0.9) and its card codes, shared by Pika and Uno.

A card code is a short string, readable in logs and stable on the wire:

- coloured cards are a colour letter and a value: ``R`` red, ``Y`` yellow, ``G`` green,
  ``B`` blue; values ``0``-``9``, ``skip``, ``rev`` (reverse) and ``+2``. So ``R5``,
  ``Gskip``, ``Brev``, ``Y+2``;
- black cards start with ``W``: ``W`` is the wild (Jolly) and ``W+4`` the wild +4.

Per colour the deck has one 0, two each of 1-9, skip, reverse and +2; then four ``W`` and
four ``W+4``. Codes repeat, so code multisets (not sets) describe piles and hands.

Actions and views name colours in words (``"red"``); :data:`COLOUR_NAMES` maps letters to
words and :data:`COLOUR_LETTERS` back.
"""

from __future__ import annotations

import sys
from typing import Final

COLOUR_NAMES: Final[dict[str, str]] = {"R": "red", "Y": "yellow", "G": "green", "B": "blue"}
COLOUR_LETTERS: Final[dict[str, str]] = {name: letter for letter, name in COLOUR_NAMES.items()}
COLOURS: Final[tuple[str, ...]] = tuple(COLOUR_NAMES.values())
"""The colour names an action may name, in table order."""

WILD: Final = "W"
WILD_DRAW_FOUR: Final = "W+4"
SKIP: Final = "skip"
REVERSE: Final = "rev"
DRAW_TWO: Final = "+2"

_VALUES: Final = (*[str(n) for n in range(10)], SKIP, REVERSE, DRAW_TWO)


def full_deck() -> tuple[str, ...]:
    """The 108 cards in a fixed order (red, yellow, green, blue, then the black cards)."""
    cards: list[str] = []
    for letter in COLOUR_NAMES:
        for value in _VALUES:
            # One interned object per code, both copies included: dict and set lookups
            # of dealt cards then match by identity, without comparing characters.
            code = sys.intern(letter + value)
            cards.extend((code,) if value == "0" else (code, code))
    cards.extend([WILD] * 4)
    cards.extend([WILD_DRAW_FOUR] * 4)
    return tuple(cards)


DECK: Final[tuple[str, ...]] = full_deck()
CODES: Final[frozenset[str]] = frozenset(DECK)
"""Every distinct card code (54 of them)."""


def is_black(card: str) -> bool:
    return card[0] == "W"


def colour_letter(card: str) -> str | None:
    """The card's colour letter, or ``None`` for a black card."""
    return None if card[0] == "W" else card[0]


def value_of(card: str) -> str:
    """``"5"``, ``"skip"``, ``"rev"``, ``"+2"``, or ``"W"`` / ``"W+4"`` for black cards."""
    return card if card[0] == "W" else card[1:]


VALUE_OF: Final[dict[str, str]] = {code: value_of(code) for code in CODES}
"""Each code's :func:`value_of`, looked up instead of sliced: matching cards is on every
move's path."""


def points(card: str) -> int:
    """Uno card points (RULES §2.8): numbers at face value, skip/reverse/+2 20, black 50."""
    if card[0] == "W":
        return 50
    value = card[1:]
    return int(value) if value.isdigit() else 20


POINTS: Final[dict[str, int]] = {code: points(code) for code in CODES}
"""Each code's :func:`points`, looked up when a round is scored."""


def describe(card: str) -> str:
    """Words for people: ``"red 5"``, ``"blue reverse"``, ``"wild +4"``."""
    if card == WILD:
        return "wild"
    if card == WILD_DRAW_FOUR:
        return "wild +4"
    value = card[1:]
    word = {SKIP: "skip", REVERSE: "reverse"}.get(value, value)
    return f"{COLOUR_NAMES[card[0]]} {word}"
