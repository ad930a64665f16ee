"""Every meld a hand can lay and every card it can attach, generated from the runs and
sets it holds, never by filtering subsets (GAMES.md 7).

A hand of 14 cards with jokers has thousands of subsets, and one that took a big discard
pile has millions. Runs are found by sliding a window along each suit's positions while
at most one place is missing; sets by counting each rank's cards per suit; attachments
by looking up the few cards that can join each meld. The list holds every meld once,
those that put a wild in a run in place of a natural the hand also holds (5♥ joker 7♥
while holding 6♥) included: they are legal, so a client and a bot must find them.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterable, Iterator, Sequence
from itertools import product

from tavolo.cardgames.games.french_deck import SUITS
from tavolo.cardgames.games.rummy.deck import ACE_HIGH, ACE_LOW, RANK, RUN_CODES
from tavolo.cardgames.games.rummy.melds import HIGH, LOW, RUN, Meld, MeldRules, attach, is_wild

MeldCards = tuple[str, ...]
FoundMeld = tuple[MeldCards, int]
"""A meld's cards in table order, and its rank when it is a set (0 for a run)."""


def melds_in_hand(hand: Iterable[str], rules: MeldRules) -> list[FoundMeld]:
    """The melds ``hand`` can lay, in a stable order: runs suit by suit, then sets."""
    counts = Counter(hand)
    wilds = sorted(c for c in counts if is_wild(c, rules))
    found: list[FoundMeld] = []
    for suit in SUITS:
        found.extend((cards, 0) for cards in _runs(counts, suit, wilds))
    found.extend(_sets(counts, wilds, rules))
    return list(dict.fromkeys(found))  # a pinella in its own place is found twice


def _runs(counts: Counter[str], suit: str, wilds: Sequence[str]) -> Iterator[MeldCards]:
    codes = RUN_CODES[suit]
    held = [counts[c] > 0 for c in codes]
    for low in range(ACE_LOW, ACE_HIGH - 1):
        missing: list[int] = []
        for high in range(low, ACE_HIGH + 1):
            if not held[high]:
                missing.append(high)
                if len(missing) > 1:
                    break
            if high - low < 2:
                continue
            whole = codes[low : high + 1]
            if missing:
                places = missing
            else:
                if not (low == ACE_LOW and high == ACE_HIGH):
                    yield whole
                places = list(range(low, high + 1))  # a wild for any of them
            for place in places:
                at = place - low
                for wild in wilds:
                    cards = (*whole[:at], wild, *whole[at + 1 :])
                    if _enough(cards, counts):
                        yield cards


def _enough(cards: MeldCards, counts: Counter[str]) -> bool:
    """The hand holds every card of ``cards``, copies counted; one ace per run."""
    if len(cards) == ACE_HIGH and RANK.get(cards[0]) == RANK.get(cards[-1]) == ACE_HIGH:
        return False
    need = Counter(cards)
    return all(counts[c] >= n for c, n in need.items())


def _sets(counts: Counter[str], wilds: Sequence[str], rules: MeldRules) -> Iterator[FoundMeld]:
    ranks = sorted({RANK[c] for c in counts if not is_wild(c, rules) and c in RANK})
    cap = rules.max_set_naturals
    for rank in ranks:
        codes = [RUN_CODES[s][rank] for s in SUITS]
        per_suit = [counts[c] for c in codes]
        if rules.distinct_suits:
            per_suit = [min(n, 1) for n in per_suit]
        if sum(per_suit) < 2:
            continue
        for taken in product(*(range(n + 1) for n in per_suit)):
            size = sum(taken)
            if size < 2 or size > cap:
                continue
            naturals = tuple(c for c, n in zip(codes, taken, strict=True) for _ in range(n))
            if 3 <= size <= rules.max_set:
                yield naturals, rank
            if size + 1 <= rules.max_set:
                for wild in wilds:
                    yield (*naturals, wild), rank


Attachment = tuple[int, str, str | None]
"""(meld index, card, end): one card of the hand that joins a meld."""


def attachments(melds: Sequence[Meld], hand: Iterable[str], rules: MeldRules) -> list[Attachment]:
    """Every single card of ``hand`` that joins one of ``melds``."""
    have = set(hand)
    wilds = sorted(c for c in have if is_wild(c, rules))
    found: list[Attachment] = []
    for index, meld in enumerate(melds):
        results: set[tuple[str, object]] = set()
        for card, end in _candidates(meld, have, wilds):
            done = attach(meld, card, end, rules)
            # A pinella laid at the low end in its own place is the same play as laid
            # there as a natural: listed once.
            if not isinstance(done, str) and (card, done) not in results:
                results.add((card, done))
                found.append((index, card, end))
    return found


def _candidates(meld: Meld, have: set[str], wilds: Sequence[str]) -> list[tuple[str, str | None]]:
    """The few (card, end) pairs that might join ``meld``; :func:`attach` decides."""
    out: list[tuple[str, str | None]] = []
    if meld.kind != RUN:
        out.extend((RUN_CODES[s][meld.low], None) for s in SUITS if RUN_CODES[s][meld.low] in have)
        if meld.wild < 0:
            out.extend((w, None) for w in wilds)
        return out
    codes = RUN_CODES[meld.suit]
    places = [meld.low - 1, meld.high + 1]
    if meld.wild >= 0:
        places.append(meld.low + meld.wild)
    naturals = {codes[p] for p in places if ACE_LOW <= p <= ACE_HIGH and codes[p] in have}
    for c in sorted(naturals):
        both = meld.low - 1 == ACE_LOW and meld.high + 1 == ACE_HIGH and RANK.get(c) == ACE_HIGH
        out.extend([(c, LOW), (c, HIGH)] if both else [(c, None)])
    if meld.wild < 0:
        out.extend((w, end) for w in wilds for end in (LOW, HIGH))
    return out
