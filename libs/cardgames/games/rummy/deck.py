"""The rummy deck (RULES §0.9): two French decks and 4 jokers, 108 cards.

Codes are the French deck's (``"7H"``, ``"10S"``, ``"AD"``) plus ``"JK"`` for a joker.
The two copies of a card share a code: nothing in Burraco or Scala 40 tells them apart,
and a code per copy would leak which copy a seat holds.

Runs are read on *positions*: 1 is the ace low, 2 … 13 the 2 to the king, 14 the ace
high, so A-2-3 and Q-K-A are both straight lines.
"""

from __future__ import annotations

from collections.abc import Iterable

from tavolo.cardgames.games.french_deck import SUIT_SYMBOLS, SUITS
from tavolo.cardgames.games.french_deck import full_deck as french_deck

JOKER = "JK"
JOKERS = 4
ACE_LOW = 1
ACE_HIGH = 14

_FRENCH = tuple(french_deck())
_SUIT_ORDER = {s: i for i, s in enumerate(SUITS)}
_NAMES = {11: "J", 12: "Q", 13: "K", 14: "A", 1: "A"}


def _rank(code: str) -> int:
    face = code[:-1]
    return {"J": 11, "Q": 12, "K": 13, "A": 14}.get(face) or int(face)


RANK: dict[str, int] = {c: _rank(c) for c in _FRENCH}
"""Card code → rank value (2 … 10, J 11, Q 12, K 13, A 14); jokers have none."""
SUIT: dict[str, str] = {c: c[-1] for c in _FRENCH}


def full_deck() -> list[str]:
    """The 108 codes in a fixed order (both French decks, then the jokers)."""
    return [*_FRENCH, *_FRENCH, *([JOKER] * JOKERS)]


def is_card(code: str) -> bool:
    return code == JOKER or code in RANK


def _code_at(position: int, suit: str) -> str:
    value = 14 if position == ACE_LOW else position
    face = _NAMES.get(value, str(value))
    return f"{face}{suit}"


RUN_CODES: dict[str, tuple[str, ...]] = {
    s: ("", *tuple(_code_at(p, s) for p in range(ACE_LOW, ACE_HIGH + 1))) for s in SUITS
}
"""Suit → the natural card at each run position (index 1 … 14; index 0 is unused)."""


def code_at(position: int, suit: str) -> str:
    """The natural card at a run position (1 and 14 are both the ace)."""
    return RUN_CODES[suit][position]


def fits(code: str, position: int, suit: str) -> bool:
    """Whether ``code`` is the natural card of ``suit`` at run ``position``."""
    if SUIT.get(code) != suit:
        return False
    rank = RANK[code]
    return rank == position or (rank == ACE_HIGH and position == ACE_LOW)


def pretty(code: str) -> str:
    """``"7♥"``, ``"10♠"``, ``"joker"``: a card for people."""
    if code == JOKER:
        return "joker"
    return code[:-1] + SUIT_SYMBOLS[code[-1]]


def pretty_all(codes: Iterable[str]) -> str:
    return " ".join(pretty(c) for c in codes)


def sort_key(code: str) -> tuple[int, int]:
    """Display order: by suit (♠♥♦♣), low to high, jokers last."""
    if code == JOKER:
        return (len(SUITS), 0)
    return (_SUIT_ORDER[SUIT[code]], RANK[code])


def sort_cards(codes: Iterable[str]) -> tuple[str, ...]:
    return tuple(sorted(codes, key=sort_key))
