"""How much stronger each trick game's hard bot is than its easy and medium ones, and how
fast the game's random self-play runs beside Pika's, measured in the same run.

Strength: a hard seat (or partnership) plays seeded games against an easy one and
against a medium one. Games come in pairs on the same seed with the seats swapped, so
both sides get the same deals once each and the luck of the cards mostly cancels out.
For games ranked by places, each game scores the hero 1 for a win, ½ for a shared first
place and 0 for a loss; for chip games (Bestia) the figure is the chips a hero seat won
per game less those a rival seat won. Each figure comes with a 95% confidence interval
(normal approximation over the games); an interval above ½ (above 0 chips) means hard
beats that level. Medium against itself is the reference and must come out at exactly
even, because every seed is played from both sides.

Speed: random self-play actions per second of each game and of Pika, interpreted, and
compiled when ``build/compiled`` exists (``make compiled``).

    .venv/bin/python bench/bench_trick_bots.py [briscola ...] [--games 2000]
        [--easy-games N] [--reference-games 200] [--jobs 1]

The hard bots search (about 10-20 ms a move), so a hard pairing takes minutes per
hundred games; hard against easy needs fewer games to be decided (``--easy-games``).
"""

from __future__ import annotations

import argparse
import math
import os
import random
import subprocess
import sys
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.registry import get_game

COMPILED = Path(__file__).resolve().parent.parent / "build" / "compiled"


@dataclass(frozen=True)
class Setup:
    """How a game is benched: its seats, options and which seats the hero holds."""

    seats: int
    options: dict[str, Any]
    hero_seats: Callable[[int], tuple[int, ...]]  # (swap 0 or 1) → the hero's seats
    chips: bool = False


SETUPS: dict[str, Setup] = {
    "briscola": Setup(2, {}, lambda swap: (swap,)),
    "briscola4": Setup(4, {}, lambda swap: (swap, swap + 2)),
    "tresette": Setup(4, {}, lambda swap: (swap, swap + 2)),
    "tresette2": Setup(2, {}, lambda swap: (swap,)),
    "ciapano": Setup(4, {}, lambda swap: (swap, swap + 2)),
    "bestia": Setup(4, {}, lambda swap: (swap, swap + 2), chips=True),
}


def hero_result(name: str, outcome: Any, heroes: tuple[int, ...]) -> float:
    """1 for a win, ½ for a shared first place, 0 for a loss; chips for chip games."""
    if SETUPS[name].chips:  # chips left in the pot belong to nobody: compare the sides
        won = outcome.detail["chips_won"]
        rivals = [s for s in range(len(won)) if s not in heroes]
        return float(
            sum(won[s] for s in heroes) / len(heroes) - sum(won[s] for s in rivals) / len(rivals)
        )
    firsts = set(outcome.winners())
    if not firsts & set(heroes):
        return 0.0
    return 1.0 if firsts <= set(heroes) else 0.5


def play_game(name: str, seed: bytes, hero: str, rival: str, swap: int) -> float:
    setup = SETUPS[name]
    game = get_game(name.rstrip("0123456789"))
    heroes = setup.hero_seats(swap)
    state = game.new_game(setup.options, setup.seats, seed)
    bots = [
        make_bot(game.name, hero if s in heroes else rival, seed + bytes([s]))
        for s in range(setup.seats)
    ]
    while (outcome := game.outcome(state)) is None:
        seat = min(game.to_act(state))
        action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
    return hero_result(name, outcome, heroes)


def play_pairs(name: str, hero: str, rival: str, first: int, pairs: int) -> list[float]:
    results = []
    for n in range(first, first + pairs):
        seed = f"{name}-bench-{hero}-{rival}-{n}".encode()
        results.extend(play_game(name, seed, hero, rival, swap) for swap in (0, 1))
    return results


def measure(name: str, hero: str, rival: str, games: int, jobs: int) -> list[float]:
    pairs = max(1, games // 2)
    if jobs == 1:
        return play_pairs(name, hero, rival, 0, pairs)
    bounds = [(i * pairs // jobs, (i + 1) * pairs // jobs) for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(
            play_pairs,
            *zip(*[(name, hero, rival, a, b - a) for a, b in bounds], strict=True),
        )
        return [r for part in parts for r in part]


def interval(results: list[float]) -> tuple[float, float, float]:
    """Mean and 95% confidence interval (normal approximation)."""
    n = len(results)
    mean = sum(results) / n
    var = sum((r - mean) ** 2 for r in results) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def strength(name: str, games: int, jobs: int, reference_games: int, easy_games: int) -> bool:
    even = 0.0 if SETUPS[name].chips else 0.5
    unit = " chips" if SETUPS[name].chips else ""
    ok = True
    pairings = [
        ("hard", "easy", easy_games),
        ("hard", "medium", games),
        ("medium", "medium", reference_games),
    ]
    for hero, rival, count in pairings:
        start = time.perf_counter()
        results = measure(name, hero, rival, count, jobs)
        wall = time.perf_counter() - start
        mean, low, high = interval(results)
        verdict = ""
        if hero != rival:
            beats = low > even
            ok &= beats
            verdict = f"  {'beats' if beats else 'does NOT beat'} {rival}"
        print(
            f"  {name:<10} {hero:>6} vs {rival:<6} {len(results):5d} games  "
            f"score {mean:7.3f}{unit}  95% CI [{low:.3f}, {high:.3f}]  "
            f"{len(results) / wall:6.1f} games/s{verdict}"
        )
    return ok


def move_times(name: str, games: int) -> None:
    """How long a hard move takes (median, 90th percentile, worst), beside a medium move
    timed in the same games: a move must stay quick enough for the CLI and the engine."""
    setup = SETUPS[name]
    game = get_game(name.rstrip("0123456789"))
    times: dict[str, list[float]] = {"hard": [], "medium": []}
    for n in range(games):
        seed = f"{name}-timing-{n}".encode()
        state = game.new_game(setup.options, setup.seats, seed)
        heroes = setup.hero_seats(n % 2)
        levels = ["hard" if s in heroes else "medium" for s in range(setup.seats)]
        bots = [make_bot(game.name, levels[s], seed + bytes([s])) for s in range(setup.seats)]
        while game.outcome(state) is None:
            seat = min(game.to_act(state))
            view, legal = game.view(state, seat), game.legal_actions(state, seat)
            start = time.perf_counter()
            action = bots[seat].choose(view, legal)
            times[levels[seat]].append(time.perf_counter() - start)
            state, _ = game.apply(state, seat, action)
    for level, spent in times.items():
        spent.sort()
        print(
            f"  {name:<10} {level:>6} move  median {spent[len(spent) // 2] * 1000:6.2f} ms  "
            f"p90 {spent[len(spent) * 9 // 10] * 1000:6.2f} ms  "
            f"worst {spent[-1] * 1000:6.2f} ms  ({len(spent)} moves)"
        )


def selfplay(names: list[str], games: int) -> dict[str, tuple[float, float]]:
    """Random self-play actions/s and games/s of each game (Pika included)."""
    from tavolo.cardgames.selfplay import random_games

    figures = {}
    for name in names:
        game = get_game(name)
        seats = SETUPS[name].seats if name in SETUPS else 4
        seeds = [f"selfplay-{name}-{n}".encode() for n in range(games)]
        start = time.perf_counter()
        played, actions = random_games(game, seats, seeds, random.Random(7))
        wall = time.perf_counter() - start
        figures[name] = (actions / wall, played / wall)
    return figures


def speed(names: list[str], games: int) -> None:
    builds = [("interpreted", os.environ.get("PYTHONPATH", ""))]
    if (COMPILED / "tavolo" / "cardgames").exists():
        builds.append(("compiled", str(COMPILED)))
    for build, path in builds:
        out = subprocess.run(
            [sys.executable, __file__, "--selfplay-only", "--games", str(games), *names],
            env={**os.environ, "PYTHONPATH": path},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        print(f"  random self-play, {build} rules:")
        print(out.rstrip())


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("names", nargs="*", default=sorted(SETUPS))
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--reference-games", type=int, default=200)
    parser.add_argument(
        "--easy-games", type=int, help="games of hard against easy (default: --games)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--selfplay-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.selfplay_only:
        for name, (actions, games) in selfplay(["pika", *args.names], args.games).items():
            print(f"    {name:<10} {actions:9,.0f} actions/s  {games:7.1f} games/s")
        return 0
    ok = True
    print("Bot strength (hero's score per game; even is 0.5, chips: 0):")
    for name in args.names:
        easy_games = args.easy_games or args.games
        ok &= strength(name, args.games, args.jobs, args.reference_games, easy_games)
    print("Move time (hard beside medium, in the same games):")
    for name in args.names:
        move_times(name, 4)
    games = [n for n in args.names if n.isalpha()]
    if games:  # "briscola4" is a seating of briscola, whose speed is its own
        speed(games, min(args.games, 300))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
