"""How much stronger the hard Spades bot is than the easy and medium ones (SPADES-9).

A hard partnership plays seeded games against an easy one and against a medium one.
Games come in pairs on the same seed with the partnerships swapped between seats 0+2
and 1+3: both sides get the same deals and the same first bidder once each, so neither
side always bids first and the luck of the cards mostly cancels out. The figure is the
hard side's share of games won, with a 95% Wilson interval, and the games played per
second (engine and bots together). Two references are measured in the same run:
medium against easy (the levels below hard differ too), and medium against itself,
which must come out at exactly 50% because each seed is played from both sides.

    .venv/bin/python bench/bench_spades_bots.py [--games 2000] [--jobs 1]
"""

from __future__ import annotations

import argparse
import math
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass

from tavolo.cardgames.bots.tricks.spades import SpadesBot
from tavolo.cardgames.games.tricks.spades import Spades

TARGETS = {("hard", "easy"): 0.70, ("hard", "medium"): 0.58}
MAX_ROUNDS = 300  # far beyond any real game; a guard, counted as a loss if ever hit


@dataclass(frozen=True, slots=True)
class Tally:
    games: int = 0
    wins: int = 0
    rounds: int = 0
    seconds: float = 0.0

    def __add__(self, other: Tally) -> Tally:
        return Tally(
            self.games + other.games,
            self.wins + other.wins,
            self.rounds + other.rounds,
            self.seconds + other.seconds,
        )


def wilson(wins: int, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def play_game(seed: bytes, levels: tuple[str, str, str, str]) -> tuple[int | None, int]:
    """One game with ``levels[s]`` at seat s: the winning team and the rounds played."""
    game = Spades()
    state = game.new_game(None, 4, seed)
    bots = [SpadesBot(level) for level in levels]
    while game.outcome(state) is None:
        if state.round > MAX_ROUNDS:
            return None, state.round
        (seat,) = game.to_act(state)
        action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
    return state.winner, state.round


def play_pairs(hero: str, rival: str, first: int, pairs: int) -> Tally:
    """``pairs`` seeds from ``first``, each played twice with the sides swapped."""
    tally = Tally()
    start = time.perf_counter()
    for n in range(first, first + pairs):
        seed = f"spades-bench-{hero}-{rival}-{n}".encode()
        for hero_team in (0, 1):
            levels = tuple(hero if s % 2 == hero_team else rival for s in range(4))
            winner, rounds = play_game(seed, levels)  # type: ignore[arg-type]
            tally += Tally(1, int(winner == hero_team), rounds)
    return tally + Tally(seconds=time.perf_counter() - start)


def measure(hero: str, rival: str, games: int, jobs: int) -> Tally:
    pairs = max(1, games // 2)
    chunks = [(i * pairs // jobs, (i + 1) * pairs // jobs) for i in range(jobs)]
    if jobs == 1:
        return play_pairs(hero, rival, 0, pairs)
    with ProcessPoolExecutor(jobs) as pool:
        jobs_args = [(hero, rival, a, b - a) for a, b in chunks]
        parts = pool.map(play_pairs, *zip(*jobs_args, strict=True))
        return sum(parts, Tally())


def report(hero: str, rival: str, tally: Tally, wall: float, target: float | None) -> bool:
    low, high = wilson(tally.wins, tally.games)
    rate = tally.wins / tally.games
    verdict = ""
    ok = True
    if target is not None:
        ok = rate >= target
        verdict = f"  target >= {target:.0%}: {'met' if ok else 'NOT met'}"
    print(
        f"{hero:>6} vs {rival:<6} {tally.games:5d} games  win rate {rate:6.1%}  "
        f"95% CI [{low:.1%}, {high:.1%}]  {tally.rounds / tally.games:4.1f} rounds/game  "
        f"{tally.games / wall:5.1f} games/s{verdict}"
    )
    return ok


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--reference-games", type=int, default=200)
    args = parser.parse_args()
    ok = True
    pairings = [("hard", "easy"), ("hard", "medium"), ("medium", "easy")]
    for hero, rival in pairings:
        start = time.perf_counter()
        tally = measure(hero, rival, args.games, args.jobs)
        ok &= report(hero, rival, tally, time.perf_counter() - start, TARGETS.get((hero, rival)))
    start = time.perf_counter()
    reference = measure("medium", "medium", args.reference_games, args.jobs)
    report("medium", "medium", reference, time.perf_counter() - start, None)
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
