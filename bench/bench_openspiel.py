"""Our rules beside OpenSpiel's C++ games, random self-play, in the same run (GAMES.md 11).

For each game both sides implement (Spades, Hearts), rounds alternate between our rules
(through :func:`tavolo.cardgames.selfplay.play_random`, the public contract a table uses)
and OpenSpiel's game driven through its Python API as shipped (``pip install open-spiel``),
with uniformly random legal moves on both sides. OpenSpiel's game is one deal, ours a
whole match of several, so the comparison is per action (player moves; OpenSpiel's
chance steps, the deal, are not counted). Games/s are printed for both, and ours also
as deals/s, which is games/s for one deal, the unit OpenSpiel's game is. Run with
``PYTHONPATH=build/compiled`` to measure our compiled rules.

    .venv/bin/python bench/bench_openspiel.py [--rounds 5] [--seconds 2]
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

PAIRS = {"spades": "spades", "hearts": "hearts"}
"""Our game name → OpenSpiel's."""

DEALS: dict[str, Callable[[Any], int]] = {
    "spades": lambda state: int(state.round),
    "hearts": lambda state: int(state.hand_no),
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
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
            state = game.new_game({}, game.max_players, f"{name}-{games}".encode())
            final, applied = play_random(game, state, chooser)
            games, deals, actions = games + 1, deals + deals_of(final), actions + applied
        return games, deals, actions, time.perf_counter() - start

    return run


def openspiel(name: str) -> Run | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game: Any = pyspiel.load_game(name)

    def run(seconds: float) -> tuple[int, int, int, float]:
        rand = random.Random(name).random
        games = actions = 0
        start = time.perf_counter()
        while time.perf_counter() - start < seconds:
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
        return games, games, actions, time.perf_counter() - start

    return run


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--rounds", type=int, default=5)
    parser.add_argument("--seconds", type=float, default=2.0, help="per side per round")
    args = parser.parse_args()
    for name, spiel_name in PAIRS.items():
        if name not in all_games():
            print(f"{name}: not a registered game yet")
            continue
        reference = openspiel(spiel_name)
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
