"""Our rules beside OpenSpiel's C++ games, random self-play, in the same run (GAMES.md 11).

For each game both sides implement, rounds alternate between our rules (through
:func:`tavolo.cardgames.selfplay.play_random`, the public contract a table uses) and
OpenSpiel's game driven through its Python API as shipped (``pip install open-spiel``),
with uniformly random legal moves on both sides, each side timed in CPU time of the
process (``time.process_time``: the machine is shared, and a wall clock counts the
others' work too). The comparison is per action: player moves; OpenSpiel's chance steps
(the deal) are not counted, though their time is. Games/s are printed for both, and
ours also as deals/s, which is games/s for one deal. Run with
``PYTHONPATH=build/compiled`` to measure our compiled rules.

The pairs, and how they differ:

- **Spades** / ``spades``: the same game (partnerships, bids with nil, spades trumps).
  OpenSpiel's is one deal; ours a whole match to 500 (a deal is 56 player actions on
  both sides), with blind nil off, as by default.
- **Hearts** / ``hearts``: OpenSpiel's is one deal with its defaults (the pass's
  direction drawn at random, none among them; the 2 of clubs leads, hearts must be
  broken, no points on the first trick); ours a match to 100 under the seed's rules
  (three cards to the right every deal, any lead, no restrictions), by default.
- **Pika** / ``crazy_eights`` (4 players, its special cards on, the discards reshuffled
  into the stock): both shed by matching the top card's suit or rank, with a wild card
  that names the suit, skip, reverse and a stackable draw-two; one deal each. Pika deals
  7 cards each from the 108-card Uno-like deck and also has +4 (stacking), draws one card
  only when nothing is playable (then plays it or keeps it) and names a black card's
  colour inside the play; ``crazy_eights`` deals 5 from 52 cards (8s wild, Q skip, A
  reverse, 2 draw two), lets a seat draw up to 5 cards when it likes before passing,
  names the suit as an action of its own and stops after 100 turns. Pika's "Pika" calls
  and their timers are ours alone.

Not compared: OpenSpiel's ``universal_poker`` plays the ACPC family (hold'em-like
betting rounds over hole and board cards, limit or no-limit), which has no change of
cards, no openers and no pot limit, the heart of our Poker all'italiana (RULES §14), nor
its 32-card deck whose flush beats a full house (``docs/scaling.md``).

    .venv/bin/python bench/bench_openspiel.py [--rounds 5] [--seconds 2] [--games spades,pika]
"""

from __future__ import annotations

import argparse
import random
import time
from collections.abc import Callable
from statistics import median
from typing import Any

from tavolo.cardgames.registry import all_games
from tavolo.cardgames.selfplay import play_random

PAIRS: dict[str, tuple[str, dict[str, Any]]] = {
    "spades": ("spades", {}),
    "hearts": ("hearts", {}),
    "pika": ("crazy_eights", {"players": 4, "use_special_cards": True, "reshuffle": True}),
}
"""Our game name → OpenSpiel's, with its parameters."""

DEALS: dict[str, Callable[[Any], int]] = {
    "spades": lambda state: int(state.round),
    "hearts": lambda state: int(state.hand_no),
    "pika": lambda state: 1,  # one round, by default
}
"""How many deals a finished match of ours played."""

Run = Callable[[float], tuple[int, int, int, float]]
"""Play for about ``seconds``: games, deals, player actions and the wall time taken."""


def ours(name: str) -> Run:
    game = all_games()[name]
    deals_of = DEALS[name]

    def run(seconds: float) -> tuple[int, int, int, float]:
        chooser = random.Random(name)
        games = deals = actions = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            state = game.new_game({}, game.max_players, f"{name}-{games}".encode())
            final, applied = play_random(game, state, chooser)
            games, deals, actions = games + 1, deals + deals_of(final), actions + applied
        return games, deals, actions, time.process_time() - start

    return run


def openspiel(name: str, params: dict[str, Any]) -> Run | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game: Any = pyspiel.load_game(name, params)

    def run(seconds: float) -> tuple[int, int, int, float]:
        rand = random.Random(name).random
        games = actions = 0
        start = time.process_time()
        while time.process_time() - start < seconds:
            state = game.new_initial_state()
            while not state.is_terminal():
                if state.is_chance_node():
                    outcomes = state.chance_outcomes()
                    state.apply_action(outcomes[int(rand() * len(outcomes))][0])
                else:
                    legal = state.legal_actions()
                    state.apply_action(legal[int(rand() * len(legal))])
                    actions += 1
            games += 1
        return games, games, actions, time.process_time() - start

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="CPU s per side per round")
    parser.add_argument("--games", default=",".join(PAIRS), help="which of ours, comma-separated")
    args = parser.parse_args()
    for name in args.games.split(","):
        spiel_name, params = PAIRS[name]
        if name not in all_games():
            print(f"{name}: not a registered game yet")
            continue
        reference = openspiel(spiel_name, params)
        if reference is None:
            print("OpenSpiel is not installed (pip install open-spiel): no reference")
            return 1
        mine = ours(name)
        rates: dict[str, list[tuple[float, float, float]]] = {"ours": [], "openspiel": []}
        for _ in range(args.rounds):
            for side, run in (("ours", mine), ("openspiel", reference)):
                games, deals, actions, wall = run(args.seconds)
                rates[side].append((games / wall, deals / wall, actions / wall))
        best = {side: max(r[2] for r in found) for side, found in rates.items()}
        per_round = [a[2] / b[2] for a, b in zip(rates["ours"], rates["openspiel"], strict=True)]
        for side, found in rates.items():
            print(
                f"{name:>7} {side:<9} best {best[side]:9.0f} actions/s "
                f"(median {median(r[2] for r in found):9.0f}), "
                f"{max(r[0] for r in found):7.1f} games/s, "
                f"{max(r[1] for r in found):7.1f} deals/s (games/s for one deal)"
            )
        print(
            f"{name:>7} ours / OpenSpiel per action: {best['ours'] / best['openspiel']:.2f}x "
            f"best to best, per round {min(per_round):.2f}-{max(per_round):.2f}x"
        )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
