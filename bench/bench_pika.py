"""Pika self-play speed through the public contract, beside RLCard's UNO in the same run.

    .venv/bin/python bench/bench_pika.py [--games N] [--rlcard-games N] [--profile]

Random self-play, 4 seats: each step asks ``to_act``, ``legal_actions`` and ``apply``
(which re-checks legality and copies the state), exactly as a table does. RLCard is the
reference (``pip install rlcard``); without it the script says so and measures Pika only.
Its UNO environment offers 2 players; it is measured as shipped and also with its game
configured for 4. Peak memory is traced (tracemalloc) over separate games, since tracing
slows everything down.
"""

from __future__ import annotations

import argparse
import cProfile
import pstats
import random
import time
import tracemalloc
from collections.abc import Callable
from typing import Any

from tavolo.cardgames.registry import get_game

SEATS = 4


def pika_games(count: int, first_seed: int = 0) -> int:
    """Play ``count`` random games; returns the number of actions applied."""
    game = get_game("pika")
    choose = random.Random(first_seed).choice  # the players' choices, not the deal
    actions = 0
    for n in range(first_seed, first_seed + count):
        state = game.new_game({}, SEATS, n.to_bytes(8, "big"))
        while game.outcome(state) is None:
            (seat,) = game.to_act(state)
            state, _ = game.apply(state, seat, choose(game.legal_actions(state, seat)))
            actions += 1
    return actions


def rlcard_env(players: int) -> Any | None:
    """RLCard's UNO environment with random players, or ``None`` when RLCard is missing."""
    try:
        import rlcard
        from rlcard.agents import RandomAgent
    except ImportError:
        return None
    env = rlcard.make("uno", config={"seed": 0})
    if players != env.num_players:
        env.game.configure({"game_num_players": players})
        env.num_players = players
    env.set_agents([RandomAgent(num_actions=env.num_actions) for _ in range(players)])
    return env


def rlcard_games(env: Any, count: int) -> int:
    steps = 0
    for _ in range(count):
        env.run(is_training=False)
        steps += len(env.action_recorder)
    return steps


def timed(run: Callable[[], int]) -> tuple[float, int]:
    start = time.perf_counter()
    actions = run()
    return time.perf_counter() - start, actions


def peak_per_game(run_one: Callable[[int], object], games: int) -> int:
    """The largest traced peak of one game, in bytes."""
    tracemalloc.start()
    worst = 0
    try:
        for n in range(games):
            tracemalloc.reset_peak()
            base = tracemalloc.get_traced_memory()[0]
            run_one(n)
            worst = max(worst, tracemalloc.get_traced_memory()[1] - base)
    finally:
        tracemalloc.stop()
    return worst


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=3000, help="Pika games to time")
    parser.add_argument("--rlcard-games", type=int, default=600, help="RLCard games to time")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of Pika")
    args = parser.parse_args()

    pika_games(50, first_seed=10**6)  # warm up imports and caches
    seconds, actions = timed(lambda: pika_games(args.games))
    pika_rate = args.games / seconds
    print(f"Pika, {SEATS} seats, random self-play via the public contract:")
    print(f"  {args.games} games in {seconds:.2f} s: {pika_rate:,.0f} games/s")
    print(f"  {actions / seconds:,.0f} actions/s, {actions / args.games:.1f} actions/game")
    peak = peak_per_game(lambda n: pika_games(1, first_seed=2 * 10**6 + n), 30)
    print(f"  peak memory per game (tracemalloc): {peak / 1024:.1f} KiB")

    for players in (2, SEATS):
        env = rlcard_env(players)
        if env is None:
            print("RLCard is not installed (pip install rlcard): reference skipped.")
            break
        rlcard_games(env, 20)
        rl_seconds, rl_steps = timed(lambda env=env: rlcard_games(env, args.rlcard_games))
        rl_rate = args.rlcard_games / rl_seconds
        label = "as shipped" if players == 2 else "configured"
        print(f"RLCard UNO, {players} players ({label}), random players:")
        print(f"  {args.rlcard_games} games in {rl_seconds:.2f} s: {rl_rate:,.0f} games/s")
        print(
            f"  {rl_steps / rl_seconds:,.0f} steps/s, {rl_steps / args.rlcard_games:.1f} steps/game"
        )
        rl_peak = peak_per_game(lambda n, env=env: rlcard_games(env, 1), 30)
        print(f"  peak memory per game (tracemalloc): {rl_peak / 1024:.1f} KiB")
        print(
            f"  ratio Pika/RLCard: {pika_rate / rl_rate:.1f}x games/s, "
            f"{(actions / seconds) / (rl_steps / rl_seconds):.1f}x actions/s"
        )

    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(pika_games, 300)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
