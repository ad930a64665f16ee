"""Pika self-play speed through the public contract, beside RLCard's UNO in the same run.

    .venv/bin/python bench/bench_pika.py [--rounds R] [--games N] [--rlcard-games N] [--profile]

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

A shared machine's speed drifts by tens of percent within a minute, so one timing of each
says little. The script runs ``--rounds`` rounds, each timing everything once in turn,
and prints each figure's best round (interference only ever slows a run down, which is
why ``timeit`` reports the best too) with the median and range over the rounds. Ratios
to RLCard are best to best, and also taken within each round (median and range).
"""

from __future__ import annotations

import argparse
import cProfile
import json
import os
import pstats
import random
import statistics
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
LOOPS = ("loop in Python", "selfplay")
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


def measure_pika(games: int, first_seed: int = 0, peak: bool = False) -> dict[str, Any]:
    """Games/s and actions/s of both loops on whichever rules this process imports."""
    import tavolo.cardgames.games.shedding.pika as pika

    figures: dict[str, Any] = {
        "rules": "interpreted" if str(pika.__file__).endswith(".py") else "compiled",
    }
    for name, run in (("loop in Python", pika_games), ("selfplay", selfplay_games)):
        run(50, first_seed=10**6)  # warm up imports and caches
        seconds, actions = timed(lambda run=run: run(games, first_seed))
        figures[name] = {
            "games/s": games / seconds,
            "actions/s": actions / seconds,
            "actions/game": actions / games,
        }
    if peak:
        worst = peak_per_game(lambda n: selfplay_games(1, first_seed=2 * 10**6 + n), 30)
        figures["peak KiB/game"] = worst / 1024
    return figures


def compiled_figures(games: int, first_seed: int, peak: bool) -> dict[str, Any] | None:
    """The same measurement on the compiled rules, in a child process, if they are built."""
    if not COMPILED.is_dir():
        return None
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(COMPILED), *sys.path[1:]])}
    command = [sys.executable, __file__, "--games", str(games), "--pika-json", str(first_seed)]
    out = subprocess.run(
        [*command, *(["--peak"] if peak else [])],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    figures: dict[str, Any] = json.loads(out.stdout)
    return figures if figures["rules"] == "compiled" else None


def rlcard_figures(env: Any, games: int, peak: bool) -> dict[str, Any]:
    seconds, steps = timed(lambda: rlcard_games(env, games))
    figures = {
        "games/s": games / seconds,
        "actions/s": steps / seconds,
        "actions/game": steps / games,
    }
    if peak:
        figures["peak KiB/game"] = peak_per_game(lambda n: rlcard_games(env, 1), 30) / 1024
    return figures


def summary(values: list[float], unit: str = "", digits: int = 0) -> str:
    """Best (the least disturbed round, as ``timeit`` takes), then median and range."""
    text = f"{max(values):,.{digits}f}{unit}"
    if len(values) > 1:
        low, mid, high = min(values), statistics.median(values), max(values)
        text += f" (median {mid:,.{digits}f}{unit}, {low:,.{digits}f}-{high:,.{digits}f})"
    return text


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=9, help="interleaved rounds")
    parser.add_argument("--games", type=int, default=1000, help="Pika games per loop and round")
    parser.add_argument("--rlcard-games", type=int, default=200, help="RLCard games per round")
    parser.add_argument("--profile", action="store_true", help="print a cProfile of Pika")
    parser.add_argument("--pika-json", type=int, metavar="SEED", help=argparse.SUPPRESS)
    parser.add_argument("--peak", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.pika_json is not None:
        print(json.dumps(measure_pika(args.games, args.pika_json, args.peak)))
        return

    envs = {players: rlcard_env(players) for players in (2, SEATS)}
    for env in envs.values():
        if env is not None:
            rlcard_games(env, 20)  # warm up
    # Every round measures everything once, in turn, so that the machine's drift touches
    # all alike; ratios are taken within a round, then summarised over the rounds.
    rounds: list[dict[str, dict[str, Any]]] = []
    for number in range(args.rounds):
        first, seed = number == 0, 0  # the same games every round
        row = {"interpreted": measure_pika(args.games, seed, peak=first)}
        compiled = compiled_figures(args.games, seed, peak=first)
        if compiled is not None:
            row["compiled"] = compiled
        for players, env in envs.items():
            if env is not None:
                row[f"rlcard {players}"] = rlcard_figures(env, args.rlcard_games, peak=first)
        rounds.append(row)
    report(rounds, args)

    if args.profile:
        profiler = cProfile.Profile()
        profiler.runcall(pika_games, 300)
        pstats.Stats(profiler).sort_stats("tottime").print_stats(15)


def report(rounds: list[dict[str, dict[str, Any]]], args: argparse.Namespace) -> None:
    """Each figure's best round, then its median and range over the rounds. A ratio to
    RLCard is taken best to best, and per round (median and range)."""
    first = rounds[0]
    builds = [name for name in ("interpreted", "compiled") if name in first]
    print(
        f"Pika, {SEATS} seats, random self-play, {len(rounds)} rounds of {args.games:,} games"
        " per loop: best round (median, range)"
    )
    for build in builds:
        for loop in LOOPS:
            games = [r[build][loop]["games/s"] for r in rounds]
            actions = [r[build][loop]["actions/s"] for r in rounds]
            print(
                f"  {build:11} {loop:15} {summary(games)} games/s;"
                f" {max(actions):,.0f} actions/s ({first[build][loop]['actions/game']:.1f}/game)"
            )
        peak = first[build]["peak KiB/game"]
        print(f"  {build:11} peak memory per game (tracemalloc) {peak:.1f} KiB")
    if "compiled" not in first:
        print("  No compiled rules (python tools/compile_rules.py): measured interpreted only.")
    references = [key for key in (f"rlcard {n}" for n in (2, SEATS)) if key in first]
    if not references:
        print("RLCard is not installed (pip install rlcard): reference skipped.")
        return
    print(f"RLCard UNO, random players, {args.rlcard_games:,} games per round:")
    for key in references:
        players = int(key.split()[1])
        label = "as shipped" if players == 2 else "configured"
        games = [r[key]["games/s"] for r in rounds]
        actions = [r[key]["actions/s"] for r in rounds]
        print(
            f"  {players} players ({label}) {summary(games)} games/s;"
            f" {max(actions):,.0f} steps/s ({first[key]['actions/game']:.1f}/game),"
            f" peak {first[key]['peak KiB/game']:.0f} KiB/game"
        )
    for key in references:
        players = key.split()[1]
        print(f"Pika / RLCard UNO {players} players: best to best; per round (median, range)")
        for build in builds:
            for loop in LOOPS:
                ours = [r[build][loop]["games/s"] for r in rounds]
                theirs = [r[key]["games/s"] for r in rounds]
                per_round = [a / b for a, b in zip(ours, theirs, strict=True)]
                steps = max(r[build][loop]["actions/s"] for r in rounds) / max(
                    r[key]["actions/s"] for r in rounds
                )
                print(
                    f"  {build:11} {loop:15} {max(ours) / max(theirs):.1f}x games/s"
                    f" ({statistics.median(per_round):.1f}x, {min(per_round):.1f}-"
                    f"{max(per_round):.1f}x); {steps:.1f}x actions/s"
                )


if __name__ == "__main__":
    main()
