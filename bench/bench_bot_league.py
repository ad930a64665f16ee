"""The bot league: every game's levels measured the same way (GAMES.md 8).

For each of the 17 games, at its default seat count and at 2 seats where it offers them,
each step up the ladder is one pairing: random against easy, easy against medium, medium
against hard (``random`` is a uniformly random legal player, the yardstick, not a level).
Each pairing plays ``--deals`` seeded deals, every deal once for each way of rotating the
levels through the seats (duplicate deals: the same cards with the seats swapped), so the
luck of the deal cancels. A deal is one hand where the game can be set to one (a
single-hand match length, a target of 1 point; Uno and Pika play a single round, which
places every seat by what it holds at the end rather than only the winner first);
Tresette and Ciapanò play 3 hands and Spades plays to 100 points, the shortest match they
offer; the fishing games play their default match (to 11 points, Cirulla to 51), since a
single hand of them is mostly drawn; the chip games (Bestia, Poker, Sette e mezzo) play
their whole default match, since stacks and Bestia's pot carry over from hand to hand
(their figure is per hand).

Seats: in partnership games the stronger level holds one side; elsewhere it holds one
seat against the weaker level in every other seat, rotated through all the seats. The
figure of a pairing, per deal (the rotations averaged, so a deal is one sample):

- places: the stronger seat's share of the weaker seats it finished ahead of (a tie ½);
  even is 0.5, and at two seats it is the win share;
- chips (Bestia, Poker, Sette e mezzo): the stronger seat's chips won per hand less the
  mean of the weaker seats'; even is 0;
- Solitario: both levels play every deal alone; the figure is the stronger level's win
  rate less the weaker's on the same deals (both rates printed); even is 0.

Each figure comes with a 95% confidence interval (normal approximation over the deals).
Every decision is timed in CPU time (the thread's, so the other processes of a shared
machine do not count); each level's p50 and p99 over the pairing are printed beside the
weaker level's, the random player's for the first step.

    .venv/bin/python bench/bench_bot_league.py [--deals 6] [--jobs 1]
        [--steps random<easy,easy<medium,medium<hard] [game ...]

The soak size is ``--deals 2000`` (``make soak``); the default is a quick look.
"""

from __future__ import annotations

import argparse
import math
import time
from collections.abc import Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from typing import Any

from tavolo.cardgames.bots.base import RandomBot, SeatedBot, seed_bytes
from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.contract import Outcome
from tavolo.cardgames.registry import all_games, get_game
from tavolo.cardgames.rng import SeededRandom

PAIRINGS = (("random", "easy"), ("easy", "medium"), ("medium", "hard"))
"""(weaker, stronger) for each step up the ladder."""

ONE_HAND = {"match_length": "hands:1"}
DEAL_OPTIONS: dict[str, dict[str, Any]] = {
    "pika": {"match_length": "single"},
    "uno": {"match_length": "single"},
    "scopa": {},
    "scopone": {},
    "asso": {},
    "cirulla": {},
    "burraco": ONE_HAND,
    "scala40": ONE_HAND,
    "briscola": {"match_length": "single"},
    "hearts": {"target": 1},
    "spades": {"target": 100},
    "bestia": {},
    "poker": {},
    "settemezzo": {},
    "tresette": {"match_length": "hands:3"},
    "ciapano": {"match_length": "hands:3"},
    "solitario": {},
}
"""Options that make one game of the league one deal (or as near as the game allows)."""

DEFAULT_SEATS = {
    "briscola": 2,
    "scopa": 2,
    "asso": 2,
    "cirulla": 2,
    "burraco": 4,
    "scala40": 4,
    "solitario": 1,
}
"""Seat counts for games with no ``players`` option (else that option's default)."""

CHIP_GAMES = frozenset({"bestia", "poker", "settemezzo"})
MAX_ACTIONS = 3000
"""A deal still running after this many actions is scored as it stands (Solitario: lost)."""


def default_seats(name: str) -> int:
    game = get_game(name)
    players = {s.name: s.default for s in game.option_specs}.get("players")
    if isinstance(players, int):
        return players
    counts = game.seat_counts()
    return DEFAULT_SEATS.get(name, counts[0] if len(counts) == 1 else counts[-1])


def tables(names: Sequence[str]) -> list[tuple[str, int]]:
    """(game, seats): the default count, and 2 where offered."""
    found = []
    for name in names:
        seats = default_seats(name)
        found.append((name, seats))
        if seats not in (1, 2) and 2 in get_game(name).seat_counts():
            found.append((name, 2))
    return found


def seat_bot(name: str, level: str, seed: bytes) -> SeatedBot:
    if level == "random":
        return SeatedBot(name, level, RandomBot(), SeededRandom(seed_bytes(seed)))
    return make_bot(name, level, seed)


@dataclass
class Tally:
    """One pairing's results: a figure per deal, and decision times per level."""

    figures: list[float] = field(default_factory=list)
    extra: list[tuple[float, float]] = field(default_factory=list)  # solitario win rates
    times: dict[str, list[float]] = field(default_factory=dict)

    def add(self, other: Tally) -> None:
        self.figures += other.figures
        self.extra += other.extra
        for level, times in other.times.items():
            self.times.setdefault(level, []).extend(times)


def play(name: str, seats: int, levels: Sequence[str], seed: bytes, tally: Tally) -> Outcome:
    """One deal with ``levels[s]`` at seat s, every decision timed."""
    game = get_game(name)
    state = game.new_game(DEAL_OPTIONS[name], seats, seed)
    bots = [seat_bot(name, level, seed + bytes([s])) for s, level in enumerate(levels)]
    for _ in range(MAX_ACTIONS):
        outcome = game.outcome(state)
        if outcome is not None:
            return outcome
        seat = min(game.to_act(state))
        view, legal = game.view(state, seat), game.legal_actions(state, seat)
        start = time.thread_time()
        action = bots[seat].choose(view, legal)
        tally.times.setdefault(levels[seat], []).append(time.thread_time() - start)
        state, _ = game.apply(state, seat, action)
    return Outcome(places=tuple([seats] * seats), scores=tuple([0] * seats))


def rotations(name: str, seats: int) -> list[tuple[int, ...]]:
    """The stronger level's seats, one tuple per rotation of the levels."""
    game = get_game(name)
    state = game.new_game(DEAL_OPTIONS[name], seats, b"sides")
    sides = {tuple(sorted(game.partners(state, s) | {s})) for s in range(seats)}
    if all(len(side) == 1 for side in sides):
        return [(s,) for s in range(seats)]
    return sorted(sides)


def figure(name: str, outcome: Outcome, strong: tuple[int, ...]) -> float:
    seats = len(outcome.places)
    weak = [s for s in range(seats) if s not in strong]
    if name in CHIP_GAMES:
        won = outcome.detail["chips_won"]
        assert isinstance(won, list)
        hands = outcome.detail.get("hands", 1)
        per = max(1, int(hands)) if isinstance(hands, int) else 1
        mean_strong = sum(int(won[s]) for s in strong) / len(strong)
        mean_weak = sum(int(won[s]) for s in weak) / len(weak)
        return (mean_strong - mean_weak) / per
    place = outcome.places[strong[0]]
    ahead = [
        1.0 if place < outcome.places[w] else 0.5 if place == outcome.places[w] else 0.0
        for w in weak
    ]
    return sum(ahead) / len(ahead)


def solitario_won(outcome: Outcome) -> float:
    results = outcome.detail.get("results")
    return 1.0 if isinstance(results, list) and results[0] == "won" else 0.0


def play_deals(name: str, seats: int, weak: str, strong: str, first: int, count: int) -> Tally:
    tally = Tally()
    for n in range(first, first + count):
        seed = f"league-{name}-{seats}-{n}".encode()
        if name == "solitario":
            rates = [solitario_won(play(name, 1, [lv], seed, tally)) for lv in (strong, weak)]
            tally.extra.append((rates[0], rates[1]))
            tally.figures.append(rates[0] - rates[1])
            continue
        results = []
        for side in rotations(name, seats):
            levels = [strong if s in side else weak for s in range(seats)]
            results.append(figure(name, play(name, seats, levels, seed, tally), side))
        tally.figures.append(sum(results) / len(results))
    return tally


def measure(name: str, seats: int, weak: str, strong: str, deals: int, jobs: int) -> Tally:
    if jobs == 1:
        return play_deals(name, seats, weak, strong, 0, deals)
    bounds = [(i * deals // jobs, (i + 1) * deals // jobs) for i in range(jobs)]
    total = Tally()
    with ProcessPoolExecutor(jobs) as pool:
        futures = [pool.submit(play_deals, name, seats, weak, strong, a, b - a) for a, b in bounds]
        for future in futures:
            total.add(future.result())
    return total


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% confidence interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    half = 1.96 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0


def unit(name: str) -> tuple[str, float]:
    if name == "solitario":
        return "win rate, stronger less weaker", 0.0
    if name in CHIP_GAMES:
        return "chips a hand, stronger seat less weaker", 0.0
    return "share of weaker seats beaten", 0.5


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("games", nargs="*", help="games to bench (default: all 17)")
    parser.add_argument("--deals", type=int, default=6, help="deals per pairing (soak: 2000)")
    parser.add_argument("--jobs", type=int, default=1, help="processes")
    parser.add_argument(
        "--steps", default="", help="only these pairings, e.g. medium<hard (comma-separated)"
    )
    args = parser.parse_args()
    names = args.games or sorted(all_games())
    print(f"Bot league: {args.deals} deals per pairing, every deal seat-rotated; 95% CI")
    print(
        f"{'game':<11}{'seats':>5}  {'pairing':<15}{'figure':>8}  {'95% CI':<18} "
        "decision ms p50/p99 (weaker, stronger)  unit"
    )
    below = 0
    for name, seats in tables(names):
        for weak, strong in PAIRINGS:
            if args.steps and f"{weak}<{strong}" not in args.steps.split(","):
                continue
            start = time.perf_counter()
            tally = measure(name, seats, weak, strong, args.deals, args.jobs)
            mean, low, high = interval(tally.figures)
            what, even = unit(name)
            below += low <= even
            times = "  ".join(
                f"{percentile(tally.times.get(lv, []), 0.5) * 1e3:5.2f}/"
                f"{percentile(tally.times.get(lv, []), 0.99) * 1e3:6.2f}"
                for lv in (weak, strong)
            )
            rates = ""
            if tally.extra:
                rates = (
                    f" ({strong} {sum(s for s, _ in tally.extra) / len(tally.extra):.0%},"
                    f" {weak} {sum(w for _, w in tally.extra) / len(tally.extra):.0%})"
                )
            print(
                f"{name:<11}{seats:>5}  {weak + '<' + strong:<15}{mean:+8.3f}  "
                f"[{low:+.3f}, {high:+.3f}]  {times}  {what}{rates}"
                f"  ({time.perf_counter() - start:.0f}s)",
                flush=True,
            )
    print(f"pairings whose interval does not lie above even: {below}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
