"""How much stronger the hard rummy bots are than the easy and medium ones (GAMES.md 8),
and random self-play speed beside Pika's, measured in the same run (GAMES.md 11).

Each game is one hand of a two-player match (``match_length = hands:1``): a whole match
to 2005 points is five to fifteen hands, and a hand is where the levels differ. Games
come in pairs on the same seed with the seats swapped, so both players get the same
deal from both sides and the luck of the cards mostly cancels out. The figures are the
hard player's share of games won with a 95% Wilson interval, and its mean point margin
per hand with a 95% normal interval. A reference pairing is measured in the same run:
medium against itself, which comes out at exactly 50% because each seed is played from
both sides.

    .venv/bin/python bench/bench_rummy_bots.py [--games 2000] [--game burraco|scala40]
        [--pairings hard:easy,hard:medium] [--jobs 1]

Self-play speed is measured for both rummy games and Pika in every run; the pairings
are played for ``--game``.

A run that cannot finish reports the games it completed (``--games`` is a target, and
every figure printed says over how many games it was measured).
"""

from __future__ import annotations

import argparse
import math
import random
import statistics
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field

from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.registry import get_game
from tavolo.cardgames.selfplay import random_games

LOWER_IS_BETTER = frozenset({"scala40"})  # its totals are penalty points
MAX_ACTIONS = 20_000  # a guard far beyond any real hand; counted as a loss if ever hit


@dataclass
class Tally:
    games: int = 0
    wins: int = 0
    draws: int = 0
    margins: list[int] = field(default_factory=list)
    seconds: float = 0.0

    def add(self, other: Tally) -> None:
        self.games += other.games
        self.wins += other.wins
        self.draws += other.draws
        self.margins.extend(other.margins)
        self.seconds += other.seconds


def wilson(wins: float, games: int, z: float = 1.96) -> tuple[float, float]:
    """The Wilson score interval of a proportion (95% for z = 1.96)."""
    if games == 0:
        return 0.0, 1.0
    p = wins / games
    centre = (p + z * z / (2 * games)) / (1 + z * z / games)
    half = z * math.sqrt(p * (1 - p) / games + z * z / (4 * games * games)) / (1 + z * z / games)
    return centre - half, centre + half


def play_game(name: str, seed: bytes, levels: tuple[str, str]) -> tuple[int, int]:
    """One hand with ``levels[s]`` at seat s: (winning seat or -1, seat 0's margin)."""
    game = get_game(name)
    state = game.new_game({"match_length": "hands:1"}, 2, seed)
    bots = [make_bot(name, level, seed + bytes([s])) for s, level in enumerate(levels)]
    for _ in range(MAX_ACTIONS):
        outcome = game.outcome(state)
        if outcome is not None:
            margin = outcome.scores[0] - outcome.scores[1]
            if name in LOWER_IS_BETTER:
                margin = -margin
            winner = outcome.winners()
            return (winner[0] if len(winner) == 1 else -1), margin
        seat = min(game.to_act(state))
        action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
    return 1, 0


def play_pairs(name: str, hero: str, rival: str, first: int, pairs: int) -> Tally:
    """``pairs`` seeds from ``first``, each played twice with the seats swapped."""
    tally = Tally()
    start = time.perf_counter()
    for n in range(first, first + pairs):
        seed = f"{name}-bench-{hero}-{rival}-{n}".encode()
        for hero_seat in (0, 1):
            levels = (hero, rival) if hero_seat == 0 else (rival, hero)
            winner, margin = play_game(name, seed, levels)
            tally.games += 1
            tally.wins += int(winner == hero_seat)
            tally.draws += int(winner == -1)
            tally.margins.append(margin if hero_seat == 0 else -margin)
    tally.seconds = time.perf_counter() - start
    return tally


def measure(name: str, hero: str, rival: str, games: int, jobs: int, chunk: int) -> Tally:
    """Play in chunks so that an interrupted run still has its completed games."""
    pairs = max(1, games // 2)
    tally = Tally()
    starts = list(range(0, pairs, chunk))
    args = [(name, hero, rival, a, min(chunk, pairs - a)) for a in starts]
    if jobs == 1:
        for a in args:
            tally.add(play_pairs(*a))
            progress(name, hero, rival, tally)
        return tally
    with ProcessPoolExecutor(jobs) as pool:
        for part in pool.map(play_pairs, *zip(*args, strict=True)):
            tally.add(part)
            progress(name, hero, rival, tally)
    return tally


def progress(name: str, hero: str, rival: str, tally: Tally) -> None:
    """A running figure per chunk, so a run stopped early still reports what it played."""
    score = tally.wins + tally.draws / 2
    low, high = wilson(score, tally.games)
    print(
        f"  ... {name} {hero} vs {rival}: {tally.games} games, wins {score / tally.games:.1%} "
        f"[{low:.1%}, {high:.1%}], margin {statistics.fmean(tally.margins):+.1f}",
        flush=True,
    )


def report(name: str, hero: str, rival: str, tally: Tally, wall: float) -> None:
    n = tally.games
    score = tally.wins + tally.draws / 2
    low, high = wilson(score, n)
    mean = statistics.fmean(tally.margins)
    spread = 1.96 * statistics.stdev(tally.margins) / math.sqrt(n) if n > 1 else float("inf")
    print(
        f"{name} {hero:>6} vs {rival:<6} {n:5d} games  wins {score / n:6.1%}  "
        f"95% CI [{low:.1%}, {high:.1%}]  margin {mean:+7.1f} ± {spread:5.1f} points/hand  "
        f"{n / wall:5.2f} games/s",
        flush=True,
    )


def selfplay_speed(name: str, seats: int, games: int) -> tuple[float, float]:
    """Random self-play: (games/s, actions/s) over ``games`` whole default matches."""
    seeds = [f"selfplay-{name}-{n}".encode() for n in range(games)]
    start = time.perf_counter()
    played, actions = random_games(get_game(name), seats, seeds, random.Random(7))
    wall = time.perf_counter() - start
    return played / wall, actions / wall


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--game", default="burraco", help="burraco or scala40")
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--chunk", type=int, default=50, help="seed pairs per progress line")
    parser.add_argument("--reference-games", type=int, default=200)
    parser.add_argument("--selfplay-games", type=int, default=20)
    parser.add_argument(
        "--pairings", default="hard:easy,hard:medium", help="hero:rival pairs, comma separated"
    )
    args = parser.parse_args()
    for name, seats in (("burraco", 2), ("scala40", 2), ("pika", 4)):
        gps, aps = selfplay_speed(name, seats, args.selfplay_games)
        print(
            f"random self-play {name:8} ({seats} seats, default match): "
            f"{gps:7.2f} games/s  {aps:9.0f} actions/s",
            flush=True,
        )
    pairings = [(*pair.split(":"), args.games) for pair in args.pairings.split(",") if pair]
    for hero, rival, games in [*pairings, ("medium", "medium", args.reference_games)]:
        start = time.perf_counter()
        tally = measure(args.game, hero, rival, games, args.jobs, args.chunk)
        report(args.game, hero, rival, tally, time.perf_counter() - start)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
