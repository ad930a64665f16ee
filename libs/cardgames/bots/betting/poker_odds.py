"""What a Poker all'italiana hand is worth, for the bots: the change a player makes, and
how a hand ranks among the hands players end with after their change.

Strength is a *percentile*: the share of final hands (five random cards of the short
deck, improved by the usual change) that a hand beats. Against ``k`` unknown opponents a
hand of percentile ``p`` wins about ``p ** k`` of the time. The table of final hands is
sampled once per deck from a fixed seed, so every bot's choices stay reproducible.
"""

from __future__ import annotations

from bisect import bisect_left
from collections import Counter
from collections.abc import Sequence
from functools import cache

from tavolo.cardgames.games import french_deck
from tavolo.cardgames.games.betting import poker_hands
from tavolo.cardgames.games.betting.poker_hands import HandKey
from tavolo.cardgames.rng import SeededRandom

TABLE_SIZE = 3000


def best_change(hand: Sequence[str], low: int, draws: bool = True) -> tuple[str, ...]:
    """The cards to discard, in the hand's order: keep any made hand from a straight up,
    the groups of a pair to four of a kind, and (with ``draws``) four to a flush or to a
    straight; otherwise keep the highest card."""
    key = poker_hands.hand_key(hand, low)
    kind = key[0]
    if kind >= poker_hands.STRAIGHT:
        return ()
    ranks = Counter(french_deck.rank_of(c) for c in hand)
    if kind > poker_hands.HIGH_CARD:
        return tuple(c for c in hand if ranks[french_deck.rank_of(c)] == 1)
    if draws:
        suits = Counter(french_deck.suit_of(c) for c in hand)
        suit, count = suits.most_common(1)[0]
        if count == 4:
            return tuple(c for c in hand if french_deck.suit_of(c) != suit)
        for odd in hand:
            rest = [french_deck.rank_of(c) for c in hand if c != odd]
            if max(rest) - min(rest) <= 4:
                return (odd,)
    top = max(hand, key=french_deck.rank_of)
    return tuple(c for c in hand if c != top)


def after_change(
    hand: Sequence[str], unseen: Sequence[str], low: int, rng: SeededRandom
) -> tuple[str, ...]:
    """``hand`` after its usual change, drawing at random from ``unseen``."""
    out = best_change(hand, low)
    if not out:
        return tuple(hand)
    kept = [c for c in hand if c not in out]
    pool = [c for c in unseen if c not in hand]
    drawn = [pool.pop(rng.randbelow(len(pool))) for _ in range(len(out))]
    return (*kept, *drawn)


@cache
def final_hands(low: int) -> tuple[HandKey, ...]:
    """Sorted keys of sampled final hands in the deck starting at ``low``."""
    rng = SeededRandom(f"poker final hands {low}".encode())
    deck = poker_hands.deck(11 - low)
    keys = []
    for _ in range(TABLE_SIZE):
        cards = list(deck)
        rng.shuffle(cards)
        keys.append(poker_hands.hand_key(after_change(cards[:5], cards[5:], low, rng), low))
    return tuple(sorted(keys))


def percentile(key: HandKey, low: int) -> float:
    """The share of final hands that ``key`` beats."""
    table = final_hands(low)
    return bisect_left(table, key) / len(table)


def hand_percentile(hand: Sequence[str], low: int) -> float:
    return percentile(poker_hands.hand_key(hand, low), low)


def expected_percentile(
    hand: Sequence[str], low: int, rng: SeededRandom, samples: int = 12
) -> float:
    """Before the change: the average percentile of ``hand`` after its usual change."""
    if not best_change(hand, low):
        return hand_percentile(hand, low)
    unseen = [c for c in poker_hands.deck(11 - low) if c not in hand]
    total = sum(hand_percentile(after_change(hand, unseen, low, rng), low) for _ in range(samples))
    return total / samples


def pair_percentile(rank: int, low: int) -> float:
    """Where the weakest hand holding a pair of ``rank`` sits: what an opener must beat."""
    return percentile((poker_hands.PAIR, rank, 0, 0, 0, 0), low)
