"""Solitario (Klondike): the bots' win rates on seeded deals, and self-play speed beside
OpenSpiel's ``solitaire`` in the same run (GAMES 8, 11).

    .venv/bin/python bench/bench_solitario.py [--deals 2000] [--levels easy,medium,hard]
        [--draws 1,3] [--jobs 2] [--max-actions 2000] [--deal-seconds 20]
        [--speed-games 300] [--no-strength]

*Strength.* Every level plays the same ``--deals`` seeded deals alone, standard scoring,
draw 1 and draw 3, on ``--jobs`` processes (default 2). Each level's win rate comes with a
95% Wilson interval; hard against easy and hard against medium are compared deal by deal
(the paired difference of wins, with a 95% normal interval), so the luck of the deal
cancels out. Each deal has a budget, ``--max-actions`` moves and draws and
``--deal-seconds`` of play: a deal that runs out counts as lost and the count of such deals
is printed, so a run always finishes (10,000 deals: ``make soak-solitario``).

*Published greedy solvers,* printed beside the hard level's win rate (draw 3; we know of
no published greedy figure for draw 1):

- Yan, Diaconis, Rusmevichientong, Van Roy, "Solitaire: Man Versus Machine", NIPS 17
  (2004): their greedy heuristic policy wins about 13% (13.05%) of draw-3 games of
  *thoughtful* Klondike, in which every card is face up to the player, an easier game than
  ours, whose bots see only their view; an expert human won 36.6% of ordinary draw-3 games.
- dacracot/Klondike3-Simulator (GitHub, ``winningPercentage.txt`` at 1ab77cc): a greedy
  player in a fixed move order, with a "rescue" that takes foundation cards back to the
  columns when stuck (its ``gamePlay.md``), wins 17.81% of 80 million draw-3 deals.

*Speed.* Random self-play through the contract (``legal_actions`` and ``apply``, which
re-checks legality and copies the state), uniformly among the moves and draws (never
``stop``), to the end or 150 actions, the depth limit OpenSpiel's ``solitaire`` uses by
default. The Python rules and, when ``build/compiled`` exists (``make bench`` builds
it), the compiled ones in a child process. OpenSpiel (``pip install open-spiel``, an
optional bench dependency) is measured with random actions at its player nodes and its
chance nodes (the cards it turns up) sampled; both counts are printed.
"""

from __future__ import annotations

import argparse
import json
import math
import os
import random
import subprocess
import sys
import time
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from tavolo.cardgames.actions import ActionKind
from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.registry import get_game

DEPTH_LIMIT = 150
COMPILED = Path(__file__).resolve().parent.parent / "build" / "compiled"


# -- strength -------------------------------------------------------------------------


MAX_ACTIONS = 2000
"""Moves and draws per deal: the hard bot's longest wins take a few hundred."""
DEAL_SECONDS = 20.0
PUBLISHED = {
    3: (
        ("Yan et al. 2004, greedy, all cards face up", 0.1305),
        ("Klondike3-Simulator, greedy, 80M deals", 0.1781),
    ),
}
"""Published greedy solvers' draw-3 win rates (see the module docstring)."""


@dataclass(frozen=True)
class Budget:
    """What one deal may take before it counts as lost."""

    actions: int = MAX_ACTIONS
    seconds: float = DEAL_SECONDS


def play_deal(level: str, draw: int, n: int, budget: Budget) -> tuple[int, bool]:
    """(1 if ``level`` wins deal ``n`` at ``draw`` else 0, whether the budget ran out)."""
    game = get_game("solitario")
    state = game.new_game({"draw": draw}, 1, f"solitario-deal-{n}".encode())
    bot = make_bot("solitario", level, f"solitario-bot-{n}")
    deadline = time.perf_counter() + budget.seconds
    for _ in range(budget.actions):
        if game.outcome(state) is not None:
            return int(state.seats[0].finished == "won"), False
        if time.perf_counter() > deadline:
            break
        action = bot.choose(game.view(state, 0), game.legal_actions(state, 0))
        state, _ = game.apply(state, 0, action)
    if game.outcome(state) is not None:
        return int(state.seats[0].finished == "won"), False
    return 0, True


def play_deals(
    level: str, draw: int, first: int, count: int, budget: Budget
) -> list[tuple[int, bool]]:
    return [play_deal(level, draw, n, budget) for n in range(first, first + count)]


def wins_of(level: str, draw: int, deals: int, jobs: int, budget: Budget) -> tuple[list[int], int]:
    """Wins deal by deal, and how many deals ran out of budget."""
    if jobs == 1:
        found = play_deals(level, draw, 0, deals, budget)
    else:
        # Small chunks, so a slow stretch of deals does not leave one process alone at the end.
        chunk = max(1, min(100, deals // (jobs * 4)))
        starts = list(range(0, deals, chunk))
        with ProcessPoolExecutor(jobs) as pool:
            parts = pool.map(
                play_deals,
                [level] * len(starts),
                [draw] * len(starts),
                starts,
                [min(chunk, deals - a) for a in starts],
                [budget] * len(starts),
            )
            found = [r for part in parts for r in part]
    return [won for won, _ in found], sum(1 for _, out in found if out)


def wilson(wins: int, n: int, z: float = 1.96) -> tuple[float, float]:
    p = wins / n
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return centre - half, centre + half


def paired(hero: list[int], rival: list[int], z: float = 1.96) -> tuple[float, float, float]:
    """Mean difference of wins deal by deal, and its 95% normal interval."""
    diffs = [a - b for a, b in zip(hero, rival, strict=True)]
    n = len(diffs)
    mean = sum(diffs) / n
    var = sum((d - mean) ** 2 for d in diffs) / (n - 1)
    half = z * math.sqrt(var / n)
    return mean, mean - half, mean + half


def strength(deals: int, levels: list[str], draws: list[int], jobs: int, budget: Budget) -> bool:
    ok = True
    for draw in draws:
        print(
            f"-- draw {draw}, {deals} seeded deals, standard scoring, {jobs} process(es), "
            f"budget {budget.actions} actions / {budget.seconds:g} s a deal"
        )
        results: dict[str, list[int]] = {}
        for level in levels:
            start = time.perf_counter()
            results[level], out_of_budget = wins_of(level, draw, deals, jobs, budget)
            seconds = time.perf_counter() - start
            wins = sum(results[level])
            low, high = wilson(wins, deals)
            print(
                f"  {level:>6}: won {wins:5d} ({wins / deals:6.2%})  95% CI "
                f"[{low:.2%}, {high:.2%}]  {deals / seconds:6.1f} deals/s"
                f"  ({out_of_budget} out of budget, counted lost)",
                flush=True,
            )
            if level == "hard":
                for source, rate in PUBLISHED.get(draw, ()):
                    verdict = (
                        "at least as often"
                        if low >= rate
                        else ("interval includes it" if high >= rate else "less often")
                    )
                    print(f"          published: {source}: {rate:.2%} ({verdict})")
        for rival in ("easy", "medium"):
            if "hard" in results and rival in results:
                mean, low, high = paired(results["hard"], results[rival])
                verdict = "excludes even" if low > 0 else "does NOT exclude even"
                ok &= low > 0
                print(
                    f"  hard - {rival}: {mean:+.2%} of deals  95% CI [{low:+.2%}, {high:+.2%}]"
                    f"  ({verdict})"
                )
    return ok


# -- speed ----------------------------------------------------------------------------


def our_random_play(games: int) -> dict[str, float]:
    """Random self-play on whichever rules this process imports."""
    import tavolo.cardgames.games.solitario.solitario as rules

    game = get_game("solitario")
    rand = random.Random(7).random
    actions = 0
    start = time.perf_counter()
    for n in range(games):
        state = game.new_game({}, 1, n.to_bytes(8, "big"))
        for _ in range(DEPTH_LIMIT):
            legal = [a for a in game.legal_actions(state, 0) if a.kind is not ActionKind.STOP]
            if not legal:
                break
            state, _ = game.apply(state, 0, legal[int(rand() * len(legal))])
            actions += 1
    seconds = time.perf_counter() - start
    kind = "interpreted" if str(rules.__file__).endswith(".py") else "compiled"
    return {"rules": kind, "games/s": games / seconds, "actions/s": actions / seconds}  # type: ignore[dict-item]


def compiled_random_play(games: int) -> dict[str, Any] | None:
    if not COMPILED.is_dir():
        return None
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(COMPILED), *sys.path[1:]])}
    out = subprocess.run(
        [sys.executable, __file__, "--speed-json", str(games)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )
    figures: dict[str, Any] = json.loads(out.stdout)
    return figures


def openspiel_random_play(games: int) -> dict[str, float] | None:
    try:
        import pyspiel
    except ImportError:
        return None
    game = pyspiel.load_game("solitaire")
    rng = random.Random(7)
    player_actions = chance_actions = 0
    start = time.perf_counter()
    for _ in range(games):
        state = game.new_initial_state()
        while not state.is_terminal():
            if state.is_chance_node():
                outcomes = state.chance_outcomes()
                state.apply_action(outcomes[rng.randrange(len(outcomes))][0])
                chance_actions += 1
            else:
                legal = state.legal_actions()
                state.apply_action(legal[rng.randrange(len(legal))])
                player_actions += 1
    seconds = time.perf_counter() - start
    return {
        "games/s": games / seconds,
        "actions/s": player_actions / seconds,
        "chance/s": chance_actions / seconds,
    }


def speed(games: int) -> None:
    print(f"-- random self-play, {games} games, up to {DEPTH_LIMIT} actions each")
    rows = [our_random_play(games)]
    compiled = compiled_random_play(games)
    if compiled is not None:
        rows.append(compiled)
    for row in rows:
        print(
            f"  Tavolo ({row['rules']:>11}): {row['games/s']:8.1f} games/s "
            f"{row['actions/s']:9.0f} actions/s"
        )
    spiel = openspiel_random_play(games)
    if spiel is None:
        print("  OpenSpiel solitaire: not installed (pip install open-spiel)")
        return
    print(
        f"  OpenSpiel solitaire (C++): {spiel['games/s']:8.1f} games/s "
        f"{spiel['actions/s']:9.0f} actions/s (+{spiel['chance/s']:.0f} chance/s)"
    )
    best = max(row["actions/s"] for row in rows)
    print(f"  best Tavolo / OpenSpiel, player actions: {best / spiel['actions/s']:.2f}")


def main() -> int:
    parser = argparse.ArgumentParser(description=(__doc__ or "").split("\n")[0])
    parser.add_argument("--deals", type=int, default=2000)
    parser.add_argument("--levels", default="easy,medium,hard")
    parser.add_argument("--draws", default="1,3")
    parser.add_argument("--jobs", type=int, default=2)
    parser.add_argument("--max-actions", type=int, default=MAX_ACTIONS)
    parser.add_argument("--deal-seconds", type=float, default=DEAL_SECONDS)
    parser.add_argument("--speed-games", type=int, default=300)
    parser.add_argument("--no-strength", action="store_true")
    parser.add_argument("--speed-json", type=int, help=argparse.SUPPRESS)
    parser.add_argument("--strength-only", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.speed_json is not None:
        print(json.dumps(our_random_play(args.speed_json)))
        return 0
    if not args.strength_only:
        speed(args.speed_games)
    if args.no_strength:
        return 0
    if COMPILED.is_dir() and not args.strength_only:
        # The bots' look-ahead is compiled with the rules: measure strength there.
        env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(COMPILED), *sys.path[1:]])}
        command = [sys.executable, __file__, "--strength-only", *sys.argv[1:]]
        print("-- strength on the compiled rules and look-ahead", flush=True)
        return subprocess.run(command, env=env, check=False).returncode
    levels = args.levels.split(",")
    draws = [int(d) for d in args.draws.split(",")]
    budget = Budget(args.max_actions, args.deal_seconds)
    return 0 if strength(args.deals, levels, draws, args.jobs, budget) else 1


if __name__ == "__main__":
    raise SystemExit(main())
