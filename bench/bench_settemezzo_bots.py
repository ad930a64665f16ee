"""How much stronger Sette e mezzo's hard bot is than its easy and medium ones, as chip
expectation per hand, and how fast the game's random self-play runs beside Pika's,
measured in the same run.

Strength: two hard seats (0 and 2, or 1 and 3) play 4-player matches of the default
8 hands against two seats of the other level. Matches come in pairs on the same seed
with the seats swapped, so both sides get the same deals and the same banks once each.
A match's figure is the chips a hero seat won less those a rival seat won, divided by
the hands played: the chip expectation per hand of a hard seat over a rival one. Each
figure comes with a 95% confidence interval (normal approximation over the matches); an
interval above 0 means hard beats that level. Medium against itself is the reference
and must come out at exactly 0, because every seed is played from both sides.

    .venv/bin/python bench/bench_settemezzo_bots.py [--games 2000] [--jobs 1]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from bench_trick_bots import interval, speed

from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.registry import get_game

GAME = "settemezzo"
SEATS = 4


def play_match(seed: bytes, hero: str, rival: str, swap: int) -> float:
    game = get_game(GAME)
    heroes = (swap, swap + 2)
    state = game.new_game({}, SEATS, seed)
    bots = [make_bot(GAME, hero if s in heroes else rival, seed + bytes([s])) for s in range(SEATS)]
    while (outcome := game.outcome(state)) is None:
        seat = min(game.to_act(state))
        action = bots[seat].choose(game.view(state, seat), game.legal_actions(state, seat))
        state, _ = game.apply(state, seat, action)
    won = outcome.detail["chips_won"]
    rivals = [s for s in range(SEATS) if s not in heroes]
    per_seat = sum(won[s] for s in heroes) / 2 - sum(won[s] for s in rivals) / 2
    return float(per_seat / int(outcome.detail["hands"]))


def play_pairs(hero: str, rival: str, first: int, pairs: int) -> list[float]:
    results = []
    for n in range(first, first + pairs):
        seed = f"{GAME}-bench-{hero}-{rival}-{n}".encode()
        results.extend(play_match(seed, hero, rival, swap) for swap in (0, 1))
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


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="matches per pairing")
    parser.add_argument("--reference-games", type=int, default=200)
    parser.add_argument("--jobs", type=int, default=1, help="worker processes")
    args = parser.parse_args()
    print("Bot strength (a hard seat's chips per hand over a rival seat's; even is 0):")
    ok = True
    pairings = [
        ("hard", "easy", args.games),
        ("hard", "medium", args.games),
        ("medium", "easy", args.reference_games),
        ("medium", "medium", args.reference_games),
    ]
    for hero, rival, count in pairings:
        start = time.perf_counter()
        results = measure(hero, rival, count, args.jobs)
        wall = time.perf_counter() - start
        mean, low, high = interval(results)
        verdict = ""
        if hero == "hard":
            beats = low > 0.0
            ok &= beats
            verdict = f"  {'beats' if beats else 'does NOT beat'} {rival}"
        print(
            f"  {hero:>6} vs {rival:<6} {len(results):5d} matches  "
            f"{mean:+7.3f} chips/hand  95% CI [{low:+.3f}, {high:+.3f}]  "
            f"{len(results) / wall:6.1f} matches/s{verdict}"
        )
    speed([GAME], min(args.games, 300))
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
