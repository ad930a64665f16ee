"""Legal actions of the rummy games where the choices explode (GAMES.md 7).

The melds a hand can lay are generated from its runs and sets
(:mod:`tavolo.cardgames.games.rummy.meld_search`), never by filtering subsets. This bench
times ``legal_actions`` on the worst hands we could build: a 14-card hand with every
wild, and hands that took a large discard pile (two whole suits, every joker and 2,
sets of every rank), and prints how many actions each lists. The reference, timed in
the same run, is what generation replaces: checking every subset of the 14-card hand
with the same meld reader (``read_meld``), which already takes seconds on 14 cards and
doubles with each card more.

    .venv/bin/python bench/bench_meld_actions.py
"""

from __future__ import annotations

import time
from collections.abc import Callable
from itertools import combinations

from tavolo.cardgames.games.rummy.burraco import Burraco
from tavolo.cardgames.games.rummy.burraco_state import PLAY
from tavolo.cardgames.games.rummy.deck import full_deck, sort_cards, sort_key
from tavolo.cardgames.games.rummy.meld_search import melds_in_hand
from tavolo.cardgames.games.rummy.melds import BURRACO_MELDS, Meld, read_meld

HANDS: dict[str, list[str]] = {
    "14 cards, 4 jokers and 2s": [
        "JK",
        "JK",
        "2H",
        "2C",
        "5H",
        "6H",
        "7H",
        "9H",
        "10H",
        "5S",
        "5D",
        "5C",
        "QS",
        "KS",
    ],
    "40 cards: two suits twice, the wilds": [
        *(
            f"{r}{s}"
            for s in "HS"
            for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
        ),
        *("3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H"),
        *("JK", "JK", "JK", "JK", "2H", "2S", "2D", "2C"),
    ],
    "56 cards: every rank twice in three suits": [
        *(
            f"{r}{s}"
            for s in "HSD"
            for r in ("3", "4", "5", "6", "7", "8", "9", "10", "J", "Q", "K", "A")
        ),
        *(f"{r}{s}" for s in "HD" for r in ("5", "6", "7", "8", "9", "10")),
        *("JK", "JK", "JK", "JK", "2H", "2S", "2D", "2C"),
    ],
}


def timed(run: Callable[[], object], repeat: int) -> tuple[float, object]:
    best, result = float("inf"), None
    for _ in range(repeat):
        start = time.perf_counter()
        result = run()
        best = min(best, time.perf_counter() - start)
    return best, result


def subsets_by_filtering(hand: list[str]) -> int:
    """The reference: every subset of 3+ cards in display order, read as a meld (the
    order makes runs readable; wild placements are not even tried)."""
    found = 0
    ordered = sorted(hand, key=sort_key)
    for size in range(3, len(ordered) + 1):
        for cards in combinations(ordered, size):
            if isinstance(read_meld(cards, BURRACO_MELDS), Meld):
                found += 1
    return found


def main() -> None:
    game = Burraco()
    base = game.new_game({}, 2, b"meld bench")
    for name, hand in HANDS.items():
        assert all(hand.count(c) <= full_deck().count(c) for c in hand), name
        state = base.replace(hands=(sort_cards(hand), base.hands[1]), phase=PLAY, turn=0)
        seconds, actions = timed(lambda s=state: game.legal_actions(s, 0), 20)
        melds = len(melds_in_hand(hand, BURRACO_MELDS))
        assert isinstance(actions, list)
        print(
            f"{name:40} {len(hand):3d} cards  {len(actions):5d} legal actions "
            f"({melds} melds)  {seconds * 1000:8.2f} ms",
            flush=True,
        )
    hand = HANDS["14 cards, 4 jokers and 2s"]
    seconds, found = timed(lambda: subsets_by_filtering(hand), 1)
    print(
        f"reference: filtering all {2 ** len(hand)} subsets of the 14-card hand "
        f"({found} read as melds)  {seconds * 1000:8.2f} ms",
        flush=True,
    )


if __name__ == "__main__":
    main()
