"""How much stronger the hard Hearts bot is than the easy and medium ones.

Hearts is every player for themselves, so a level is measured as two seats of it (0 and
2) against two of the other (1 and 3), on pairs of games with the same seed and the levels
swapped: both get the same deals once each. A game is won by the level whose seat has the
lowest total (a tie for lowest between the two levels counts half). The figure is the
hero's share with a 95% Wilson interval; medium against itself is the reference that must
come out at 50%. Both rule sets are measured (``rules = seed`` and ``standard``).

    .venv/bin/python bench/bench_hearts_bots.py [--games 2000] [--jobs 1]
"""

from __future__ import annotations

import argparse
import time
from concurrent.futures import ProcessPoolExecutor

from bench_spades_bots import wilson

from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.registry import get_game


def play_game(seed: bytes, levels: tuple[str, ...], rules: str) -> float:
    """One match; the share of the win that goes to the level at seats 0 and 2."""
    game = get_game("hearts")
    state = game.new_game({"rules": rules}, 4, seed)
    bots = [make_bot("hearts", level, seed + bytes([s])) for s, level in enumerate(levels)]
    while (outcome := game.outcome(state)) is None:
        seat = min(game.to_act(state))
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, bots[seat].choose(game.view(state, seat), legal))
    best = min(outcome.scores)
    hero = any(outcome.scores[s] == best for s in (0, 2))
    rival = any(outcome.scores[s] == best for s in (1, 3))
    return 0.5 if hero and rival else float(hero)


def play_pairs(hero: str, rival: str, rules: str, first: int, pairs: int) -> tuple[float, int]:
    wins, games = 0.0, 0
    for n in range(first, first + pairs):
        seed = f"hearts-bench-{hero}-{rival}-{rules}-{n}".encode()
        wins += play_game(seed, (hero, rival, hero, rival), rules)
        wins += 1.0 - play_game(seed, (rival, hero, rival, hero), rules)
        games += 2
    return wins, games


def measure(hero: str, rival: str, rules: str, games: int, jobs: int) -> tuple[float, int]:
    pairs = max(1, games // 2)
    if jobs == 1:
        return play_pairs(hero, rival, rules, 0, pairs)
    chunks = [(i * pairs // jobs, (i + 1) * pairs // jobs) for i in range(jobs)]
    with ProcessPoolExecutor(jobs) as pool:
        parts = list(
            pool.map(
                play_pairs, *zip(*[(hero, rival, rules, a, b - a) for a, b in chunks], strict=True)
            )
        )
    return sum(w for w, _ in parts), sum(g for _, g in parts)


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--games", type=int, default=2000, help="games per pairing")
    parser.add_argument("--jobs", type=int, default=1)
    args = parser.parse_args()
    ok = True
    for rules in ("seed", "standard"):
        for hero, rival in (("hard", "easy"), ("hard", "medium"), ("medium", "medium")):
            start = time.perf_counter()
            count = args.games if hero != rival else max(2, args.games // 10)
            wins, games = measure(hero, rival, rules, count, args.jobs)
            low, high = wilson(round(wins), games)
            if hero != rival:
                ok &= low > 0.5
            print(
                f"{rules:>8} {hero:>6} vs {rival:<6} {games:5d} games  "
                f"win share {wins / games:6.1%}  95% CI [{low:.1%}, {high:.1%}]  "
                f"{games / (time.perf_counter() - start):5.1f} games/s"
            )
    return 0 if ok else 1


if __name__ == "__main__":
    raise SystemExit(main())
