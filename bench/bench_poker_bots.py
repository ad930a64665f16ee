"""How much stronger Poker all'italiana's hard bot is than its easy and medium ones, in
chips, and how fast random self-play runs beside Pika's, measured in the same run.

Strength: four seats, two heroes opposite each other (seats 0 and 2, or 1 and 3) against
two rivals, for a whole match (``hands = 20`` pots, ``starting_stack = 100``). Games come
in pairs on the same seed with the seats swapped, so both sides get the same deals once
each. The figure is a hero seat's chip expectation: the chips it ends with less the 100
it started with, averaged over its two seats and the games, with a 95% confidence
interval (normal approximation). Chips only change hands, so an interval above 0 means
hard takes chips from that level. Medium against itself is the reference and comes out
at exactly 0, because every seed is played from both sides.

    .venv/bin/python bench/bench_poker_bots.py [--games 2000] [--jobs 1] [--selfplay-games 300]
"""

from __future__ import annotations

import argparse
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from pathlib import Path

from bench_trick_bots import interval

from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.registry import get_game
from tavolo.cardgames.selfplay import random_games

SEATS = 4
COMPILED = Path(__file__).resolve().parent.parent / "build" / "compiled"


def play_game(seed: bytes, hero: str, rival: str, swap: int) -> float:
    """One match; the heroes' mean chips won per seat."""
    game = get_game("poker")
    heroes = (swap, swap + 2)
    state = game.new_game(None, SEATS, seed)
    bots = [
        make_bot("poker", hero if s in heroes else rival, seed + bytes([s])) for s in range(SEATS)
    ]
    while (outcome := game.outcome(state)) is None:
        (seat,) = game.to_act(state)
        action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
    won = outcome.detail["chips_won"]
    return float(sum(won[s] for s in heroes) / len(heroes))


def play_pairs(hero: str, rival: str, first: int, pairs: int) -> list[float]:
    results = []
    for n in range(first, first + pairs):
        seed = f"poker-bench-{hero}-{rival}-{n}".encode()
        results.extend(play_game(seed, hero, rival, swap) for swap in (0, 1))
    return results


def measure(hero: str, rival: str, games: int, jobs: int) -> list[float]:
    pairs = max(1, games // 2)
    if jobs == 1:
        return play_pairs(hero, rival, 0, pairs)
    bounds = [(i * pairs // jobs, (i + 1) * pairs // jobs) for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(
            play_pairs, *zip(*[(hero, rival, a, b - a) for a, b in bounds], strict=True)
        )
        return [r for part in parts for r in part]


def strength(games: int, jobs: int, reference_games: int) -> bool:
    ok = True
    for hero, rival, count in (
        ("hard", "easy", games),
        ("hard", "medium", games),
        ("medium", "medium", reference_games),
    ):
        start = time.perf_counter()
        results = measure(hero, rival, count, jobs)
        wall = time.perf_counter() - start
        mean, low, high = interval(results)
        verdict = ""
        if hero != rival:
            beats = low > 0.0
            ok &= beats
            verdict = f"  {'beats' if beats else 'does NOT beat'} {rival}"
        print(
            f"  poker {hero:>6} vs {rival:<6} {len(results):5d} games  "
            f"{mean:+7.2f} chips a seat  95% CI [{low:+.2f}, {high:+.2f}]  "
            f"{len(results) / wall:6.1f} games/s{verdict}"
        )
    return ok


def speed(games: int) -> None:
    """Self-play of the interpreted rules, and of the compiled ones when built."""
    builds = [("interpreted", os.environ.get("PYTHONPATH", ""))]
    if (COMPILED / "tavolo" / "cardgames").exists():
        builds.append(("compiled", str(COMPILED)))
    for build, path in builds:
        out = subprocess.run(
            [sys.executable, __file__, "--selfplay-only", "--selfplay-games", str(games)],
            env={**os.environ, "PYTHONPATH": path},
            capture_output=True,
            text=True,
            check=True,
        ).stdout
        print(f"  random self-play, {build} rules:")
        print(out.rstrip())


def selfplay(games: int) -> None:
    for name in ("poker", "pika"):
        seeds = [f"selfplay-{name}-{n}".encode() for n in range(games)]
        start = time.perf_counter()
        played, actions = random_games(get_game(name), SEATS, seeds, random.Random(7))
        wall = time.perf_counter() - start
        rate = f"{actions / wall:9,.0f} actions/s  {played / wall:7.1f} games/s"
        print(f"    {name:<6} {rate}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--reference-games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--selfplay-games", type=int, default=300)
    parser.add_argument("--selfplay-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.selfplay_only:
        selfplay(args.selfplay_games)
        return 0
    print("Poker bot strength (a hero seat's chips won per match; even is 0):")
    ok = strength(args.games, args.jobs, args.reference_games) if args.games else True
    speed(args.selfplay_games)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
