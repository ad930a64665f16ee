"""Poker all'italiana hands (RULES §14, POKER-1, 3, 4): the short deck, the ranking and
the ties, as pure functions on French card codes (``"KH"``, ``"10S"``).

The ranking puts a **flush above a full house** (in a short deck a flush is the rarer
hand). The ace plays high, or low just below the deck's lowest rank, so with 4 players
(7 to ace) A-7-8-9-10 is the lowest straight. Two hands never tie: after the ranks, the
best suit in the top group decides, cuori > quadri > fiori > picche.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence
from typing import Final

from tavolo.cardgames.games import french_deck

HIGH_CARD, PAIR, TWO_PAIR, THREE, STRAIGHT, FULL_HOUSE, FLUSH, FOUR, STRAIGHT_FLUSH = range(9)
CATEGORY_NAMES: Final = (
    "high card",
    "pair",
    "two pair",
    "three of a kind",
    "straight",
    "full house",
    "flush",
    "four of a kind",
    "straight flush",
)
SUIT_ORDER: Final = {"H": 4, "D": 3, "C": 2, "S": 1}
"""POKER-4: cuori > quadri > fiori > picche."""
SUIT_WORDS: Final = {"H": "hearts", "D": "diamonds", "C": "clubs", "S": "spades"}
RANK_WORDS: Final = {
    5: "five",
    6: "six",
    7: "seven",
    8: "eight",
    9: "nine",
    10: "ten",
    11: "jack",
    12: "queen",
    13: "king",
    14: "ace",
}
ACE: Final = 14
HAND_SIZE: Final = 5

HandKey = tuple[int, ...]
"""A hand's strength: compare two keys with ``>``; no two hands share a key."""


def lowest_rank(players: int) -> int:
    """POKER-1: the deck's lowest rank is 11 - players (9 for 2 … 5 for 6)."""
    return 11 - players


def deck(players: int) -> list[str]:
    """The short deck for ``players``, in a fixed order before the shuffle."""
    low = lowest_rank(players)
    return [c for c in french_deck.full_deck() if french_deck.rank_of(c) >= low]


def _straight_top(ranks: Sequence[int], low: int) -> int | None:
    """The top rank of a straight made by five distinct ``ranks``, else ``None``. The ace
    below ``low`` makes the lowest straight, whose top is ``low + 3``."""
    ordered = sorted(set(ranks))
    if len(ordered) != HAND_SIZE:
        return None
    if ordered[-1] - ordered[0] == 4:
        return ordered[-1]
    if ordered == [low, low + 1, low + 2, low + 3, ACE]:
        return low + 3
    return None


def hand_key(cards: Sequence[str], low: int) -> HandKey:
    """The strength of a five-card hand in a deck whose lowest rank is ``low``:
    (category, the ranks of the groups and kickers from the highest down, the best suit
    in the top group) (POKER-3, POKER-4)."""
    ranks = [french_deck.rank_of(c) for c in cards]
    suits = [french_deck.suit_of(c) for c in cards]
    counts = Counter(ranks)
    groups = sorted(counts, key=lambda r: (counts[r], r), reverse=True)
    shape = sorted(counts.values(), reverse=True)
    flush = len(set(suits)) == 1
    top = _straight_top(ranks, low)
    if top is not None:
        category = STRAIGHT_FLUSH if flush else STRAIGHT
        order: list[int] = [top]
    elif flush:
        category, order = FLUSH, sorted(ranks, reverse=True)
    else:
        category = {
            (4, 1): FOUR,
            (3, 2): FULL_HOUSE,
            (3, 1, 1): THREE,
            (2, 2, 1): TWO_PAIR,
            (2, 1, 1, 1): PAIR,
        }.get(tuple(shape), HIGH_CARD)
        order = groups
    top_rank = order[0]
    best_suit = max(SUIT_ORDER[s] for r, s in zip(ranks, suits, strict=True) if r == top_rank)
    return (category, *order, best_suit)


def category(key: HandKey) -> int:
    return key[0]


def opens(cards: Sequence[str], low: int, minimum: int) -> bool:
    """POKER-5: a hand may open holding a pair of ``minimum`` (jacks, queens, kings or
    aces) or better; two pair or more always does."""
    key = hand_key(cards, low)
    return key[0] > PAIR or (key[0] == PAIR and key[1] >= minimum)


def describe(cards: Sequence[str], low: int) -> str:
    """The hand in words, as a table calls it at the showdown: "pair of kings",
    "flush of hearts, ace high", "straight to the ten"."""
    key = hand_key(cards, low)
    kind, ranks = key[0], key[1:-1]
    word = RANK_WORDS
    suit = SUIT_WORDS[french_deck.suit_of(cards[0])]
    plural = {r: ("sixes" if r == 6 else word[r] + "s") for r in word}
    if kind in (STRAIGHT, STRAIGHT_FLUSH):
        what = CATEGORY_NAMES[kind] + (f" of {suit}" if kind == STRAIGHT_FLUSH else "")
        return f"{what} to the {word[ranks[0]]}"
    if kind == FLUSH:
        return f"flush of {suit}, {word[ranks[0]]} high"
    if kind == FOUR:
        return f"four {plural[ranks[0]]}"
    if kind == FULL_HOUSE:
        return f"full house, {plural[ranks[0]]} over {plural[ranks[1]]}"
    if kind == THREE:
        return f"three {plural[ranks[0]]}"
    if kind == TWO_PAIR:
        return f"two pair, {plural[ranks[0]]} and {plural[ranks[1]]}"
    if kind == PAIR:
        return f"pair of {plural[ranks[0]]}"
    return f"{word[ranks[0]]} high"
