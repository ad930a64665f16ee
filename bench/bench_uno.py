"""Uno: how fast its rules play against Pika's (GAMES.md 11).

Random self-play of single hands at four seats, Uno beside Pika in the same run (both
through :func:`tavolo.cardgames.selfplay.play_random`, interleaved in rounds). Run it
with ``PYTHONPATH=build/compiled`` to measure the compiled rules. The bots' strength is
the league's: ``bench/bench_bot_league.py uno --match --seats 2
--steps easy<hard,medium<hard,easy<medium,medium<medium --detail`` plays whole matches to
500 head to head, seats swapped per seed, the stronger level's share of matches won
with a 95% interval.

    .venv/bin/python bench/bench_uno.py [--speed-games 300] [--rounds 5]
"""

from __future__ import annotations

import argparse
import random
import time

from tavolo.cardgames.registry import get_game
from tavolo.cardgames.selfplay import play_random


def speed(games: int, rounds: int) -> None:
    options = {"uno": {"match_length": "single"}, "pika": {"match_length": "single"}}
    best: dict[str, tuple[float, float]] = {}
    for r in range(rounds):
        for name in ("pika", "uno"):
            game = get_game(name)
            chooser = random.Random(f"{name}-{r}")
            actions = 0
            start = time.perf_counter()
            for n in range(games):
                state = game.new_game(options[name], 4, f"{name}-{r}-{n}".encode())
                _, applied = play_random(game, state, chooser)
                actions += applied
            wall = time.perf_counter() - start
            rate = (games / wall, actions / wall)
            if name not in best or rate[0] > best[name][0]:
                best[name] = rate
    for name, (gps, aps) in best.items():
        print(
            f"{name:>5} random self-play, 4 seats, one hand: {gps:8.0f} games/s "
            f"{aps:10.0f} actions/s (best of {rounds} interleaved rounds)"
        )
    ratio = best["uno"][1] / best["pika"][1]
    print(f"Uno actions/s are {ratio:.2f}x Pika's in the same run")


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--speed-games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    speed(args.speed_games, args.rounds)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
