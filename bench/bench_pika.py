"""Pika self-play speed through the public contract, beside RLCard's UNO in the same run.

    .venv/bin/python bench/bench_pika.py [--games N] [--rlcard-games N] [--profile]

Random self-play, 4 seats, two ways, each through ``to_act``, ``legal_actions`` and
``apply`` (which re-checks legality and copies the state), exactly as a table does:

- *loop in Python*: this script's own loop calls the contract action by action;
- *selfplay*: :func:`tavolo.cardgames.selfplay.random_games`, the library's loop.

Both run on the Python sources (``interpreted``) and, when ``tools/compile_rules.py`` has
built ``build/compiled`` (``make bench`` does), on the rules compiled by mypyc, in a
child process. RLCard is the reference (``pip install rlcard``); without it the script
says so and measures Pika only. Its UNO environment offers 2 players; it is measured as
shipped and also with its game configured for 4. Peak memory is traced (tracemalloc)
over separate games, since tracing slows everything down.
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import subprocess
import sys
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from tavolo.cardgames.registry import get_game
from tavolo.cardgames.selfplay import random_games

SEATS = 4
COMPILED = Path(__file__).resolve().parent.parent / "build" / "compiled"


def pika_games(count: int, first_seed: int = 0) -> int:
    """Play ``count`` random games from Python; returns the number of actions applied."""
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


def selfplay_games(count: int, first_seed: int = 0) -> int:
    seeds = [n.to_bytes(8, "big") for n in range(first_seed, first_seed + count)]
    return random_games(get_game("pika"), SEATS, seeds, random.Random(first_seed))[1]


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


def measure_pika(games: int) -> dict[str, Any]:
    """Games/s and actions/s of both loops on whichever rules this process imports."""
    import tavolo.cardgames.games.pika as pika

    figures: dict[str, Any] = {
        "rules": "interpreted" if str(pika.__file__).endswith(".py") else "compiled",
    }
    for name, run in (("loop in Python", pika_games), ("selfplay", selfplay_games)):
        run(50, first_seed=10**6)  # warm up imports and caches
        seconds, actions = timed(lambda run=run: run(games))
        figures[name] = {
            "games/s": games / seconds,
            "actions/s": actions / seconds,
            "actions/game": actions / games,
        }
    peak = peak_per_game(lambda n: selfplay_games(1, first_seed=2 * 10**6 + n), 30)
    figures["peak KiB/game"] = peak / 1024
    return figures


def compiled_figures(games: int) -> dict[str, Any] | None:
    """The same measurement on the compiled rules, in a child process, if they are built."""
    if not COMPILED.is_dir():
        return None
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(COMPILED), *sys.path[1:]])}
    out = subprocess.run(
        [sys.executable, __file__, "--games", str(games), "--pika-json"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    figures: dict[str, Any] = json.loads(out.stdout)
    return figures if figures["rules"] == "compiled" else None


def show_pika(figures: dict[str, Any], games: int) -> None:
    print(f"Pika, {SEATS} seats, random self-play, rules {figures['rules']}:")
    for name in ("loop in Python", "selfplay"):
        rate = figures[name]
        print(
            f"  {name:15} {rate['games/s']:9,.0f} games/s {rate['actions/s']:11,.0f} actions/s"
            f" ({rate['actions/game']:.1f} actions/game)"
        )
    print(
        f"  {games} games each; peak memory per game (tracemalloc) "
        f"{figures['peak KiB/game']:.1f} KiB"
    )


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=4000, help="Pika games to time")
    parser.add_argument("--rlcard-games", type=int, default=800, help="RLCard games to time")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of Pika")
    parser.add_argument("--pika-json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pika_json:
        print(json.dumps(measure_pika(args.games)))
        return

    runs = [measure_pika(args.games)]
    compiled = compiled_figures(args.games)
    if compiled is None:
        print("No compiled rules (python tools/compile_rules.py): measuring interpreted only.")
    else:
        runs.append(compiled)
    for figures in runs:
        show_pika(figures, args.games)

    for players in (2, SEATS):
        env = rlcard_env(players)
        if env is None:
            print("RLCard is not installed (pip install rlcard): reference skipped.")
            break
        rlcard_games(env, 20)
        rl_seconds, rl_steps = timed(lambda env=env: rlcard_games(env, args.rlcard_games))
        rl_rate, rl_steps_rate = args.rlcard_games / rl_seconds, rl_steps / rl_seconds
        label = "as shipped" if players == 2 else "configured"
        print(f"RLCard UNO, {players} players ({label}), random players:")
        print(
            f"  {rl_rate:,.0f} games/s, {rl_steps_rate:,.0f} steps/s "
            f"({args.rlcard_games} games, {rl_steps / args.rlcard_games:.1f} steps/game)"
        )
        rl_peak = peak_per_game(lambda n, env=env: rlcard_games(env, 1), 30)
        print(f"  peak memory per game (tracemalloc): {rl_peak / 1024:.1f} KiB")
        for figures in runs:
            for name in ("loop in Python", "selfplay"):
                rate = figures[name]
                print(
                    f"  Pika/RLCard, {figures['rules']} {name}: "
                    f"{rate['games/s'] / rl_rate:.1f}x games/s, "
                    f"{rate['actions/s'] / rl_steps_rate:.1f}x actions/s"
                )

    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(pika_games, 300)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


if __name__ == "__main__":
    main()
