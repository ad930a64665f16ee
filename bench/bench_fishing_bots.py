"""How much stronger the hard fishing bot is than the easy and medium ones (GAMES.md 8).

For each fishing game, a hard side plays seeded matches against an easy side and against
a medium one (two players, or two partnerships in Scopone). Matches come in pairs on the
same seed with the sides swapped, so both get the same deals and the same first dealer
once each and the luck of the cards mostly cancels out. The figure is the hard side's
share of matches won, with a 95% Wilson interval; a drawn match (a KO that no tied side
lost) counts half. Medium against easy is measured in the same run for reference.

    .venv/bin/python bench/bench_fishing_bots.py [--games 2000] [--jobs 1] [--game scopa]
        [--no-reference]
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from tavolo.cardgames.bots.fishing.core import FishingBot
from tavolo.cardgames.registry import get_game
from tavolo.cardgames.rng import SeededRandom

GAMES = {"scopa": 2, "scopone": 4, "asso": 2, "cirulla": 2}
"""Each fishing game and the seats it is measured at."""
PAIRINGS = (("hard", "easy"), ("hard", "medium"), ("medium", "easy"))


@dataclass(frozen=True, slots=True)
class Tally:
    games: int = 0
    wins: float = 0.0
    actions: int = 0

    def __add__(self, other: Tally) -> Tally:
        return Tally(self.games + other.games, self.wins + other.wins, self.actions + other.actions)


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def play_match(name: str, seed: bytes, levels: list[str]) -> tuple[tuple[int, ...], int]:
    """One match with ``levels[s]`` at seat s: the places and the actions played."""
    game = get_game(name)
    state = game.new_game(None, len(levels), seed)
    bots = [FishingBot(level) for level in levels]
    rngs = [SeededRandom(seed + bytes([s])) for s in range(len(levels))]
    actions = 0
    while (outcome := game.outcome(state)) is None:
        (seat,) = game.to_act(state)
        legal = game.legal_actions(state, seat)
        action = bots[seat].choose(game.view(state, seat), legal, rngs[seat])
        state, _ = game.apply(state, seat, action)
        actions += 1
    return outcome.places, actions


def play_pairs(name: str, hero: str, rival: str, first: int, pairs: int) -> Tally:
    """``pairs`` seeds from ``first``, each played twice with the sides swapped."""
    seats = GAMES[name]
    tally = Tally()
    for n in range(first, first + pairs):
        seed = f"fishing-bench-{name}-{hero}-{rival}-{n}".encode()
        for hero_side in (0, 1):
            levels = [hero if s % 2 == hero_side else rival for s in range(seats)]
            places, actions = play_match(name, seed, levels)
            mine, theirs = places[hero_side], places[1 - hero_side]
            won = 1.0 if mine < theirs else 0.5 if mine == theirs else 0.0
            tally += Tally(1, won, actions)
    return tally


def measure(name: str, hero: str, rival: str, games: int, jobs: int) -> Tally:
    pairs = max(1, games // 2)
    if jobs == 1:
        return play_pairs(name, hero, rival, 0, pairs)
    chunks = [(i * pairs // jobs, (i + 1) * pairs // jobs) for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = pool.map(
            play_pairs, *zip(*[(name, hero, rival, a, b - a) for a, b in chunks], strict=True)
        )
        return sum(parts, Tally())


def report(name: str, hero: str, rival: str, tally: Tally, wall: float) -> bool:
    low, high = wilson(tally.wins, tally.games)
    rate = tally.wins / tally.games
    clear = low > 0.5
    print(
        f"{name:<8} {hero:>6} vs {rival:<6} {tally.games:5d} matches  win rate {rate:6.1%}  "
        f"95% CI [{low:.1%}, {high:.1%}]  {tally.actions / tally.games:5.0f} actions/match  "
        f"{tally.games / wall:5.1f} matches/s  {'above 50%' if clear else 'NOT above 50%'}",
        flush=True,
    )
    return clear


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="matches per pairing")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--game", action="append", choices=sorted(GAMES), help="game(s)")
    parser.add_argument(
        "--no-reference", action="store_true", help="skip medium vs easy (hard pairings only)"
    )
    args = parser.parse_args()
    ok = True
    pairings = PAIRINGS[:2] if args.no_reference else PAIRINGS
    for name in args.game or list(GAMES):
        for hero, rival in pairings:
            start = time.perf_counter()
            tally = measure(name, hero, rival, args.games, args.jobs)
            clear = report(name, hero, rival, tally, time.perf_counter() - start)
            ok &= clear or hero != "hard"
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
