"""The meld core shared by Burraco and Scala 40: reading melds, the reasons for refusing
them, attaching, and the generation of every meld a hand can lay (GAMES.md 7)."""

from __future__ import annotations

from collections import Counter
from itertools import combinations, permutations

import pytest

from tavolo.cardgames.games.rummy.deck import full_deck
from tavolo.cardgames.games.rummy.meld_search import attachments, melds_in_hand
from tavolo.cardgames.games.rummy.melds import (
    BURRACO_MELDS,
    HIGH,
    LOW,
    SCALA40_MELDS,
    Attached,
    Meld,
    MeldRules,
    attach,
    is_wild,
    read_meld,
)
from tavolo.cardgames.rng import SeededRandom


@pytest.mark.parametrize(
    ("cards", "reason"),
    [
        (("7H", "9H", "10H"), "a run needs 3 cards of one suit in sequence; 7♥ 9♥ skips 8♥"),
        (("5H", "6H"), "a meld needs at least 3 cards, not 2 (5♥ 6♥)"),
        (("5H", "6H", "7S"), "a run is of one suit: 7♠ is not ♥ like 5♥"),
        (("9H", "8H", "7H"), "a run is laid low to high: 8♥ cannot follow 9♥"),
        (("KH", "AH", "2H"), "a run stops at the ace"),
        (("5H", "JK", "7H", "JK"), "a meld holds at most one wild card"),
        (("5H", "5S", "JK"), "lay a combination in suit order, any wild last: 5♠ 5♥ joker"),
        (("JK", "JK", "JK"), "a meld may not be wild cards only"),
        (("XX", "5H", "6H"), "'XX' is not a card"),
    ],
)
def test_a_refused_meld_says_what_is_wrong(cards: tuple[str, ...], reason: str) -> None:
    assert read_meld(cards, BURRACO_MELDS) == reason or str(
        read_meld(cards, BURRACO_MELDS)
    ).startswith(reason)


def test_wilds_aces_and_pinelle() -> None:
    ace_low = read_meld(("AH", "2H", "3H"), BURRACO_MELDS)
    assert isinstance(ace_low, Meld) and ace_low.low == 1 and ace_low.wild == -1
    ace_high = read_meld(("QH", "KH", "AH"), SCALA40_MELDS)
    assert isinstance(ace_high, Meld) and ace_high.high == 14
    pinella = read_meld(("5H", "6H", "2C"), BURRACO_MELDS)
    assert isinstance(pinella, Meld) and pinella.stands_for() == "7H"
    assert isinstance(read_meld(("5H", "6H", "2C"), SCALA40_MELDS), str)  # no pinelle there
    assert isinstance(read_meld(("2S", "2H", "2D"), SCALA40_MELDS), Meld)
    assert isinstance(read_meld(("5S", "5S", "5H"), SCALA40_MELDS), str)  # one per suit


def test_attaching_one_card() -> None:
    run = read_meld(("5H", "6H", "7H"), BURRACO_MELDS)
    assert isinstance(run, Meld)
    low = attach(run, "JK", LOW, BURRACO_MELDS)
    assert isinstance(low, Attached) and low.meld.cards == ("JK", "5H", "6H", "7H")
    assert (
        attach(run, "JK", None, BURRACO_MELDS) == "say where the wild goes on the run: low or high"
    )
    assert attach(run, "9H", None, BURRACO_MELDS) == "9♥ does not continue 5♥ 6♥ 7♥"
    high = attach(run, "8H", None, BURRACO_MELDS)
    assert isinstance(high, Attached) and high.meld.high == 8
    wild_run = read_meld(("5H", "JK", "7H"), SCALA40_MELDS)
    assert isinstance(wild_run, Meld)
    swap = attach(wild_run, "6H", None, SCALA40_MELDS)
    assert isinstance(swap, Attached) and swap.freed == "JK" and swap.meld.wild == -1


def _brute_force(hand: list[str], rules: MeldRules) -> set[tuple[str, ...]]:
    """Every meld of the hand by trying every ordered subset: the reference the generator
    must match (only usable on tiny hands)."""
    found = set()
    for size in range(3, len(hand) + 1):
        for chosen in set(combinations(sorted(hand), size)):
            for order in set(permutations(chosen)):
                if isinstance(read_meld(order, rules), Meld):
                    found.add(order)
    return found


def _wild_inside_in_place_of_a_held_natural(cards: tuple[str, ...], hand: list[str]) -> bool:
    meld = read_meld(cards, BURRACO_MELDS)
    assert isinstance(meld, Meld)
    if meld.kind != "run" or meld.wild in (-1, 0, len(cards) - 1):
        return False
    stands = meld.stands_for()
    return Counter(hand)[stands] > Counter(cards)[stands]


@pytest.mark.parametrize("rules", [BURRACO_MELDS, SCALA40_MELDS])
def test_generation_finds_every_meld_brute_force_finds(rules: MeldRules) -> None:
    """On random 6-card hands the generator lists exactly the melds that trying every
    ordered subset finds, but for a wild put inside a run in place of a natural the hand
    holds (legal, left for read_meld to accept)."""
    deck = full_deck()
    for n in range(6):
        rng = SeededRandom(f"melds {n}".encode())
        rng.shuffle(deck)
        hand = [*[c for c in deck if c.endswith(("H", "S")) or c == "JK"][:4], "JK", "2C"]
        generated = [cards for cards, _ in melds_in_hand(hand, rules)]
        assert len(generated) == len(set(generated))
        for cards in generated:
            assert isinstance(read_meld(cards, rules), Meld), cards
            assert not Counter(cards) - Counter(hand), cards
        missing = _brute_force(hand, rules) - set(generated)
        assert all(_wild_inside_in_place_of_a_held_natural(m, hand) for m in missing), missing


def test_attachments_are_exactly_the_cards_that_join() -> None:
    melds = [
        read_meld(("5H", "6H", "7H"), BURRACO_MELDS),
        read_meld(("KS", "KD", "KC"), BURRACO_MELDS),
    ]
    assert all(isinstance(m, Meld) for m in melds)
    hand = ["4H", "8H", "9H", "KH", "2C", "JK", "QS"]
    found = attachments(melds, hand, BURRACO_MELDS)  # type: ignore[arg-type]
    every = {
        (i, c, end)
        for i, m in enumerate(melds)
        for c in set(hand)
        for end in (None, LOW, HIGH)
        if isinstance(attach(m, c, end, BURRACO_MELDS), Attached)  # type: ignore[arg-type]
    }
    assert set(found) == every
    assert (0, "4H", None) in every and (1, "KH", None) in every and (0, "JK", HIGH) in every
    assert is_wild("2C", BURRACO_MELDS) and not is_wild("2C", SCALA40_MELDS)
