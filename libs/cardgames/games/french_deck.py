"""The French 52-card deck (RULES §0.9) as short string codes, shared by the trick games.

A card code is its rank followed by its suit letter, in upper case:

- ranks ``2`` … ``10``, ``J``, ``Q``, ``K``, ``A`` (ace high: rank values 2 … 14);
- suits ``S`` (spades ♠), ``H`` (hearts ♥), ``D`` (diamonds ♦), ``C`` (clubs ♣).

So ``"AS"`` is the ace of spades, ``"10H"`` the ten of hearts, ``"QD"`` the queen of
diamonds. Codes are what actions, events and views carry, so they stay readable in the
event log and need no lookup table to audit.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Final

from tavolo.cardgames.games.tricks.core import CardOrder

SUITS: Final[tuple[str, ...]] = ("S", "H", "D", "C")
RANKS: Final[tuple[str, ...]] = ("2", "3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
SUIT_NUMBERS: Final[dict[str, int]] = {suit: i for i, suit in enumerate(SUITS)}
"""Each suit's place in :data:`SUITS`: a suit as a number, for tables of the hot paths."""
SUIT_NAMES: Final[dict[str, str]] = {"S": "spades", "H": "hearts", "D": "diamonds", "C": "clubs"}
SUIT_SYMBOLS: Final[dict[str, str]] = {"S": "♠", "H": "♥", "D": "♦", "C": "♣"}
RANK_VALUES: Final[dict[str, int]] = {rank: value for value, rank in enumerate(RANKS, start=2)}

_CODES: Final[tuple[str, ...]] = tuple([f"{rank}{suit}" for suit in SUITS for rank in RANKS])
"""The 52 codes, each one string object that every table below is keyed by: a dealt card
then finds its entry by identity, without comparing the characters (the code built twice
would be two equal objects, and every lookup in the hot paths would compare them)."""
_CARD_INDEX: Final[dict[str, int]] = {code: i for i, code in enumerate(_CODES)}
# Card → (suit, rank value), filled once so the hot paths of engines and bots avoid parsing.
_PARTS: Final[dict[str, tuple[str, int]]] = {
    code: (SUITS[i // 13], RANK_VALUES[RANKS[i % 13]]) for i, code in enumerate(_CODES)
}


def full_deck() -> list[str]:
    """The 52 codes in a fixed order (suit by suit, 2 to ace): the order before a shuffle."""
    return list(_CARD_INDEX)


def is_card(code: str) -> bool:
    return code in _PARTS


def suit_of(card: str) -> str:
    """The suit letter of a card code."""
    return _PARTS[card][0]


def rank_of(card: str) -> int:
    """The rank value of a card code: 2 … 10, J=11, Q=12, K=13, A=14."""
    return _PARTS[card][1]


def card(rank: int, suit: str) -> str:
    """The code of the card with rank value ``rank`` in ``suit``."""
    return f"{RANKS[rank - 2]}{suit}"


_DISPLAY: Final[dict[str, int]] = {
    c: (_CARD_INDEX[c] // 13) * 16 - _PARTS[c][1] + 14 for c in _CODES
}
"""Each card's place in display order, one small number (0 to 60) to sort by."""
_BY_DISPLAY: Final[tuple[str, ...]] = tuple(
    [next((c for c in _CODES if _DISPLAY[c] == n), "") for n in range(61)]
)
"""The card at each display number (``""`` for the numbers no card has)."""


def sort_hand(cards: Iterable[str]) -> tuple[str, ...]:
    """A hand in display order: spades, hearts, diamonds, clubs; high to low in each suit.

    The cards' display numbers are sorted as plain ints and mapped back: no key function
    called per card, which costs most of a deal's sorting."""
    numbers = [_DISPLAY[c] for c in cards]
    numbers.sort()
    by_display = _BY_DISPLAY
    return tuple([by_display[n] for n in numbers])


def deal_hands(deck: list[str], seat_at: tuple[int, ...]) -> tuple[tuple[str, ...], ...]:
    """The hands dealt from ``deck`` (distinct cards) one at a time in turn: the card at
    position p goes to seat ``seat_at[p % len(seat_at)]``; each hand in display order,
    as :func:`sort_hand` gives it.

    The deck is walked once, then the display order once, each card dropped into its
    seat's hand: no hand is sorted (sorting four hands cost a third of a deal)."""
    seats = len(seat_at)
    owner = [-1] * len(_BY_DISPLAY)
    display = _DISPLAY
    for p in range(len(deck)):
        owner[display[deck[p]]] = seat_at[p % seats]
    return _gathered(owner, seats)


def sort_hands(hands: list[list[str]]) -> tuple[tuple[str, ...], ...]:
    """Every hand in display order, as :func:`sort_hand` gives each, in one walk of the
    display order (the hands hold distinct cards)."""
    owner = [-1] * len(_BY_DISPLAY)
    display = _DISPLAY
    for seat in range(len(hands)):
        for card in hands[seat]:
            owner[display[card]] = seat
    return _gathered(owner, len(hands))


def _gathered(owner: list[int], seats: int) -> tuple[tuple[str, ...], ...]:
    """The hands of ``seats`` seats when ``owner[n]`` is the seat holding the card of
    display number n (-1 for nobody), each in display order."""
    hands: list[list[str]] = [[] for _ in range(seats)]
    by_display = _BY_DISPLAY
    for n in range(len(by_display)):
        seat = owner[n]
        if seat >= 0:
            hands[seat].append(by_display[n])
    return tuple([tuple(hand) for hand in hands])


def pretty(card_code: str) -> str:
    """The card with its suit symbol, for people: ``"10♥"``."""
    suit, _ = _PARTS[card_code]
    return card_code[:-1] + SUIT_SYMBOLS[suit]


ACE_HIGH: Final = CardOrder(
    suit={c: suit_of(c) for c in _PARTS}, strength={c: rank_of(c) for c in _PARTS}
)
"""Ace high, 2 low, in every suit: the trick core's view of the French deck (Spades, Hearts)."""
