"""What a rummy hand's loose cards are really worth: how many of the cards that would
complete a meld with them are still unseen (in the stock or the rivals' hands).

A run-gap whose card is already on the table or in the pile twice over is dead, and
a card kept for it only costs points; a pair with four live cards around it is worth
keeping. The count reads only what the seat's view shows.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Mapping, Sequence

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games.french_deck import SUITS
from tavolo.cardgames.games.rummy.deck import (
    ACE_HIGH,
    ACE_LOW,
    RANK,
    RUN_CODES,
    SUIT,
    full_deck,
)
from tavolo.cardgames.games.rummy.meld_search import melds_in_hand
from tavolo.cardgames.games.rummy.melds import MeldRules, is_wild

FULL_DECK = Counter(full_deck())
IN_MELD = 12.0  # a card already in a meld the hand holds is not a loose card
WILD_OUT = 0.5  # a wild completes anything, but it is better spent elsewhere


def table_cards(melds: JSON) -> Iterable[str]:
    """Every card in the melds of a view, whatever their nesting (sides or one list)."""
    if isinstance(melds, dict):
        cards = melds.get("cards")
        if isinstance(cards, list):
            yield from (str(c) for c in cards)
        return
    if isinstance(melds, list):
        for item in melds:
            yield from table_cards(item)


def unseen(
    hand: Sequence[str], public: Mapping[str, JSON], pile: Sequence[str], gone: Sequence[str] = ()
) -> Counter[str]:
    """The cards this seat has not seen: the deck less its hand, the pile, the table and
    ``gone`` (cards a rival is known to hold)."""
    left = FULL_DECK.copy()
    left.subtract(hand)
    left.subtract(pile)
    left.subtract(table_cards(public.get("melds", [])))
    left.subtract(gone)
    return +left


def _positions(card: str) -> list[int]:
    rank = RANK[card]
    return [ACE_LOW, ACE_HIGH] if rank == ACE_HIGH else [rank]


def _code(position: int, suit: str) -> str | None:
    if ACE_LOW <= position <= ACE_HIGH:
        return RUN_CODES[suit][position]
    return None


def pair_outs(card: str, other: str, live: Counter[str], rules: MeldRules) -> float:
    """The live cards that make ``card`` and ``other`` a meld of three, 0 when they
    cannot meld together."""
    if card not in RANK or other not in RANK:
        return 0.0
    wilds = sum(n for c, n in live.items() if is_wild(c, rules))
    suit = SUIT[card]
    if RANK[card] == RANK[other] and not (rules.distinct_suits and SUIT[other] == suit):
        taken = {suit, SUIT[other]} if rules.distinct_suits else set()
        same = sum(live[RUN_CODES[s][RANK[card]]] for s in SUITS if s not in taken)
        return same + WILD_OUT * wilds
    if SUIT[other] != suit or other == card:
        return 0.0
    best = 0.0
    for a in _positions(card):
        for b in _positions(other):
            low, high = min(a, b), max(a, b)
            if high - low == 1:
                ends = [_code(low - 1, suit), _code(high + 1, suit)]
                outs = sum(live[c] for c in ends if c is not None)
            elif high - low == 2:
                middle = _code(low + 1, suit)
                outs = live[middle] if middle is not None else 0
            else:
                continue
            best = max(best, outs + WILD_OUT * wilds)
    return best


def melded_cards(hand: Sequence[str], rules: MeldRules) -> Counter[str]:
    """The natural cards of ``hand`` that some meld of naturals it holds uses."""
    naturals = [c for c in hand if not is_wild(c, rules)]
    used: Counter[str] = Counter()
    for cards, _ in melds_in_hand(naturals, rules):
        for c in set(cards):
            used[c] = max(used[c], cards.count(c))
    return used


def keep_values(hand: Sequence[str], live: Counter[str], rules: MeldRules) -> dict[str, float]:
    """Each natural card's worth to ``hand``: ``IN_MELD`` inside a meld it holds, else
    the live cards that would complete it with each partner it has (summed)."""
    in_meld = melded_cards(hand, rules)
    values: dict[str, float] = {}
    for card in set(hand):
        if is_wild(card, rules) or card not in RANK:
            continue
        if in_meld[card]:
            values[card] = IN_MELD
            continue
        partners = {c for c in hand if c != card} | ({card} if hand.count(card) > 1 else set())
        values[card] = sum(pair_outs(card, other, live, rules) for other in partners)
    return values
