"""Uno: how strong its bots are, and how fast its rules play against Pika's.

Strength: two seats head to head over whole matches to 500 points (UNO-9). Games come in
pairs on the same seed with the seats swapped, so both bots get the same deals once each
and the luck of the cards mostly cancels out. The figure is the hero's share of matches
won, with a 95% Wilson interval; medium against itself is the reference that must come
out at 50%.

Speed: random self-play of single hands at four seats, Uno beside Pika in the same run
(both through :func:`tavolo.cardgames.selfplay.play_random`, interleaved in rounds).
Run it with ``PYTHONPATH=build/compiled`` to measure the compiled rules.

    .venv/bin/python bench/bench_uno.py [--games 2000] [--jobs 1] [--speed-games 300]
"""

from __future__ import annotations

import argparse
import random
import time
from concurrent.futures import ProcessPoolExecutor

from bench_spades_bots import Tally, wilson

from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.registry import get_game
from tavolo.cardgames.selfplay import play_random

TARGETS = {("hard", "easy"): 0.60, ("hard", "medium"): 0.52}


def play_match(seed: bytes, levels: tuple[str, str]) -> tuple[tuple[int, ...], int]:
    """One match with ``levels[s]`` at seat s: the places and the hands played."""
    game = get_game("uno")
    state = game.new_game(None, 2, seed)
    bots = [make_bot("uno", level, seed + bytes([s])) for s, level in enumerate(levels)]
    while (outcome := game.outcome(state)) is None:
        # Seats with an UNO window open answer first, as at a table; then the turn.
        for seat in [s for s, _ in state.windows] + sorted(game.to_act(state)):
            legal = game.legal_actions(state, seat)
            if legal:
                action = bots[seat].choose(game.view(state, seat), legal)
                state, _ = game.apply(state, seat, action)
                break
    return outcome.places, state.round


def play_pairs(hero: str, rival: str, first: int, pairs: int) -> Tally:
    tally = Tally()
    start = time.perf_counter()
    for n in range(first, first + pairs):
        seed = f"uno-bench-{hero}-{rival}-{n}".encode()
        for hero_seat in (0, 1):
            levels = (hero, rival) if hero_seat == 0 else (rival, hero)
            places, hands = play_match(seed, levels)
            won = places[hero_seat] == 1 and places[1 - hero_seat] != 1
            tally += Tally(1, int(won), hands)
    return tally + Tally(seconds=time.perf_counter() - start)


def measure(hero: str, rival: str, games: int, jobs: int) -> Tally:
    pairs = max(1, games // 2)
    if jobs == 1:
        return play_pairs(hero, rival, 0, pairs)
    chunks = [(i * pairs // jobs, (i + 1) * pairs // jobs) for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        args = [(hero, rival, a, b - a) for a, b in chunks]
        return sum(pool.map(play_pairs, *zip(*args, strict=True)), Tally())


def strength(games: int, jobs: int) -> bool:
    ok = True
    pairings = [("hard", "easy"), ("hard", "medium"), ("medium", "easy"), ("medium", "medium")]
    for hero, rival in pairings:
        start = time.perf_counter()
        tally = measure(hero, rival, games if hero != rival else games // 10, jobs)
        wall = time.perf_counter() - start
        rate = tally.wins / tally.games
        low, high = wilson(tally.wins, tally.games)
        target = TARGETS.get((hero, rival))
        verdict = ""
        if target is not None:
            ok &= low > 0.5
            verdict = f"  interval above 50%: {'yes' if low > 0.5 else 'NO'}"
        print(
            f"{hero:>6} vs {rival:<6} {tally.games:5d} matches  win rate {rate:6.1%}  "
            f"95% CI [{low:.1%}, {high:.1%}]  {tally.rounds / tally.games:4.1f} hands/match  "
            f"{tally.games / wall:6.1f} matches/s{verdict}"
        )
    return ok


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
    parser.add_argument("--games", type=int, default=2000, help="matches per pairing")
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    parser.add_argument("--speed-games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=5)
    args = parser.parse_args()
    speed(args.speed_games, args.rounds)
    return 0 if strength(args.games, args.jobs) else 1


if __name__ == "__main__":
    raise SystemExit(main())
