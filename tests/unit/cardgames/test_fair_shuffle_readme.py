"""The README's "Fair shuffles" section is enough to reproduce a deal.

Everything here is written from the README's sentences, with its own SHA-256 generator
and its own card lists: no code of the rules engine's is used to deal. The engine must
then have dealt the same cards.
"""

from __future__ import annotations

import hashlib
from datetime import UTC, datetime
from typing import Any

import pytest

from tavolo.cardgames.registry import get_game
from tavolo.tablelog.setup import SeatInfo, TableSetup
from tavolo.tablelog.table import open_table


class ReadmeRandom:
    """Block b is SHA-256(seed ‖ b as 8 bytes big-endian); eight 4-byte draws each."""

    def __init__(self, seed: bytes) -> None:
        self.seed, self.draws = seed, 0

    def draw(self) -> int:
        block = hashlib.sha256(self.seed + (self.draws // 8).to_bytes(8, "big")).digest()
        k = self.draws % 8
        self.draws += 1
        return int.from_bytes(block[4 * k : 4 * k + 4], "big")

    def randbelow(self, n: int) -> int:
        while True:
            x = self.draw()
            if x < 2**32 - (2**32 % n):
                return x % n

    def shuffle(self, pile: list[str]) -> None:
        for i in range(len(pile) - 1, 0, -1):
            j = self.randbelow(i + 1)
            pile[i], pile[j] = pile[j], pile[i]


def clockwise_from(first: int, seats: int) -> list[int]:
    return [(first - k) % seats for k in range(seats)]


PIKA_VALUES = ["0", *[v for n in range(1, 10) for v in (str(n), str(n))]]
PIKA_VALUES += ["skip", "skip", "rev", "rev", "+2", "+2"]
PIKA_DECK = [c + v for c in "RYGB" for v in PIKA_VALUES] + ["W"] * 4 + ["W+4"] * 4
SPADES_DECK = [r + s for s in "SHDC" for r in [*map(str, range(2, 11)), "J", "Q", "K", "A"]]


def pika_by_the_readme(seed: bytes, seats: int) -> tuple[int, list[list[str]], str]:
    rng = ReadmeRandom(seed)
    dealer = rng.randbelow(seats)
    deck = list(PIKA_DECK)
    rng.shuffle(deck)
    hands = [[] for _ in range(seats)]  # type: list[list[str]]
    for k, seat in enumerate(clockwise_from((dealer - 1) % seats, seats)):
        hands[seat] = deck[k : 7 * seats : seats]
    stock = deck[7 * seats :]
    while stock[0].startswith("W"):
        rng.shuffle(stock)
    return dealer, hands, stock[0]


def spades_by_the_readme(seed: bytes) -> tuple[int, list[list[str]]]:
    rng = ReadmeRandom(seed)
    first = rng.randbelow(4)
    deck = list(SPADES_DECK)
    rng.shuffle(deck)
    hands = [[] for _ in range(4)]  # type: list[list[str]]
    for k, seat in enumerate(clockwise_from(first, 4)):
        hands[seat] = deck[k::4]
    return first, hands


def uno_by_the_readme(seed: bytes, seats: int) -> tuple[int, list[list[str]], str]:
    rng = ReadmeRandom(seed)
    dealer = rng.randbelow(seats)
    deck = list(PIKA_DECK)
    rng.shuffle(deck)
    hands = [[] for _ in range(seats)]  # type: list[list[str]]
    first = (dealer - 1) % seats
    for k, seat in enumerate(clockwise_from(first, seats)):
        hands[seat] = deck[k : 7 * seats : seats]
    stock = deck[7 * seats :]
    while stock[0] == "W+4":
        rng.shuffle(stock)
    if stock[0].endswith("+2"):
        hands[first] += stock[1:3]
    return dealer, hands, stock[0]


def hearts_by_the_readme(seed: bytes) -> tuple[int, list[list[str]]]:
    rng = ReadmeRandom(seed)
    dealer = rng.randbelow(4)
    deck = list(SPADES_DECK)
    rng.shuffle(deck)
    hands = [[] for _ in range(4)]  # type: list[list[str]]
    for k in range(4):
        hands[(dealer + 1 + k) % 4] = deck[k::4]
    return dealer, hands


SEEDS = [hashlib.sha256(f"readme-{n}".encode()).digest() for n in range(40)]


def test_the_starting_decks_are_whole() -> None:
    assert len(PIKA_DECK) == 108 and len(set(PIKA_DECK)) == 54
    assert len(SPADES_DECK) == 52 == len(set(SPADES_DECK))


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_a_pika_deal_follows_the_readme(seats: int) -> None:
    game = get_game("pika")
    for seed in SEEDS:
        dealer, hands, top = pika_by_the_readme(seed, seats)
        state: Any = game.new_game({}, seats, seed)
        public = game.view(state, None).public
        assert public["dealer"] == dealer
        assert public["top"] == top
        assert [list(game.view(state, s).hand) for s in range(seats)] == hands


def test_a_spades_deal_follows_the_readme() -> None:
    game = get_game("spades")
    for seed in SEEDS:
        first, hands = spades_by_the_readme(seed)
        state: Any = game.new_game({}, 4, seed)
        assert game.view(state, None).public["first_bidder"] == first
        for seat in range(4):  # the screen sorts a hand; the cards are the README's
            assert sorted(game.view(state, seat).hand) == sorted(hands[seat])


@pytest.mark.parametrize("seats", [2, 3, 4, 7])
def test_an_uno_deal_follows_the_readme(seats: int) -> None:
    game = get_game("uno")
    for seed in SEEDS:
        dealer, hands, top = uno_by_the_readme(seed, seats)
        state: Any = game.new_game({}, seats, seed)
        public = game.view(state, None).public
        assert (public["dealer"], public["top"]) == (dealer, top)
        assert [list(game.view(state, s).hand) for s in range(seats)] == hands


def test_a_hearts_deal_follows_the_readme() -> None:
    game = get_game("hearts")
    for seed in SEEDS:
        dealer, hands = hearts_by_the_readme(seed)
        state: Any = game.new_game({}, 4, seed)
        assert game.view(state, None).public["dealer"] == dealer
        for seat in range(4):  # the screen sorts a hand; the cards are the README's
            assert sorted(game.view(state, seat).hand) == sorted(hands[seat])


def test_the_first_event_commits_to_the_seed_and_shows_no_card() -> None:
    seed = SEEDS[0]
    setup = TableSetup(
        table_id="t-readme",
        game="spades",
        options={},
        seats=tuple(SeatInfo(seat=s, bot=True, bot_level="easy") for s in range(4)),
        mode="versus_computer",
    )
    [event] = open_table(setup, seed, datetime.now(UTC)).events
    assert event.type == "table_opened"
    assert event.data["seed_commitment"] == hashlib.sha256(seed).hexdigest()
    assert {"game", "options", "seats", "mode", "stake"} <= set(event.data)
    _, hands = spades_by_the_readme(seed)
    text = repr(event.data)
    assert not any(f"'{card}'" in text for hand in hands for card in hand)
