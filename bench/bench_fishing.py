"""Fishing-game self-play speed beside Pika's, measured in the same run (GAMES.md 11).

    .venv/bin/python bench/bench_fishing.py [--rounds R] [--games N]

Random self-play through the public contract (:func:`tavolo.cardgames.selfplay.random_games`:
``to_act``, ``legal_actions``, ``apply`` with its legality check and state copy), whole
matches with each game's default options: Scopa, Asso Pigliatutto and Cirulla at 2 seats,
Scopone at 4, and Pika, the reference (OpenSpiel has none of these games), at 4. Each
runs on the Python sources (``interpreted``) and, when ``tools/compile_rules.py`` has built
``build/compiled`` (``make bench`` does), on the rules compiled by mypyc, in a child
process. Rates are in CPU time of the process (``time.process_time``: on a shared machine
wall-clock rates swing with the load), and a shared machine still drifts, so ``--rounds``
interleaved rounds each time every game once; each figure is its best round, with the
median and range, and each game's ratio to Pika is taken within a round (median).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import statistics
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tavolo.cardgames.registry import get_game
from tavolo.cardgames.selfplay import random_games

SEATS = {"pika": 4, "scopa": 2, "scopone": 4, "asso": 2, "cirulla": 2}
REFERENCE = "pika"
COMPILED = Path(__file__).resolve().parent.parent / "build" / "compiled"


def measure(games: int) -> dict[str, Any]:
    """Matches/s and actions/s of every game on whichever rules this process imports."""
    import tavolo.cardgames.games.fishing.core as fishing

    figures: dict[str, Any] = {
        "rules": "interpreted" if str(fishing.__file__).endswith(".py") else "compiled"
    }
    for name, seats in SEATS.items():
        game = get_game(name)
        random_games(game, seats, [b"warm-up"], random.Random(0))
        seeds = [f"{name}-{n}".encode() for n in range(games)]
        start = time.process_time()
        played, actions = random_games(game, seats, seeds, random.Random(1))
        seconds = time.process_time() - start
        figures[name] = {
            "games/s": played / seconds,
            "actions/s": actions / seconds,
            "actions/game": actions / played,
        }
    return figures


def compiled_figures(games: int) -> dict[str, Any] | None:
    if not COMPILED.is_dir():
        return None
    env = {**os.environ, "PYTHONPATH": os.pathsep.join([str(COMPILED), *sys.path[1:]])}
    out = subprocess.run(
        [sys.executable, __file__, "--games", str(games), "--json"],
        env=env,
        check=True,
        capture_output=True,
        text=True,
    )
    figures: dict[str, Any] = json.loads(out.stdout)
    return figures if figures["rules"] == "compiled" else None


def summary(values: list[float]) -> str:
    text = f"{max(values):,.0f}"
    if len(values) > 1:
        text += f" (median {statistics.median(values):,.0f}, {min(values):,.0f}-{max(values):,.0f})"
    return text


def report(rounds: list[dict[str, dict[str, Any]]], games: int) -> None:
    builds = [b for b in ("interpreted", "compiled") if b in rounds[0]]
    print(
        f"Random self-play, {len(rounds)} rounds of {games} matches per game: best round "
        "(median, range); ratio to Pika's actions/s per round (median)"
    )
    for build in builds:
        for name, seats in SEATS.items():
            matches = [r[build][name]["games/s"] for r in rounds]
            actions = [r[build][name]["actions/s"] for r in rounds]
            ratio = [r[build][name]["actions/s"] / r[build][REFERENCE]["actions/s"] for r in rounds]
            per_game = rounds[0][build][name]["actions/game"]
            print(
                f"  {build:11} {name:8} {seats} seats  {summary(matches)} matches/s;"
                f"  {summary(actions)} actions/s ({per_game:.0f}/match);"
                f"  {statistics.median(ratio):.2f}x Pika"
            )
    if "compiled" not in rounds[0]:
        print("  No compiled rules (python tools/compile_rules.py): measured interpreted only.")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=5, help="interleaved rounds")
    parser.add_argument("--games", type=int, default=200, help="matches per game and round")
    parser.add_argument("--json", action="store_true", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.json:
        print(json.dumps(measure(args.games)))
        return
    rounds = []
    for _ in range(args.rounds):
        here = measure(args.games)  # compiled too when PYTHONPATH already names the build
        row = {here["rules"]: here}
        compiled = compiled_figures(args.games) if here["rules"] == "interpreted" else None
        if compiled is not None:
            row["compiled"] = compiled
        rounds.append(row)
    report(rounds, args.games)


if __name__ == "__main__":
    main()
