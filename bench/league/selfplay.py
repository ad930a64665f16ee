"""Random self-play speed of each game beside Pika's, measured in the same run (GAMES.md
11): whole default matches of uniformly random legal moves through the contract
(:func:`tavolo.cardgames.selfplay.random_games`), the rules interpreted in this process
and, where ``tools/compile_rules.py`` has built ``build/compiled`` (``make bench`` does),
compiled in a child process. OpenSpiel's games are the reference where OpenSpiel has the
game (``bench_openspiel.py``, ``bench_solitario.py``); here Pika is every game's."""

from __future__ import annotations

import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path

from league.tables import default_seats
from tavolo.cardgames.registry import get_game
from tavolo.cardgames.selfplay import random_games

COMPILED = Path(__file__).resolve().parents[2] / "build" / "compiled"
SECONDS = 10.0
"""A game stops early after this long (a random Burraco match can run for minutes)."""


def measure(names: list[str], games: int) -> dict[str, tuple[float, float]]:
    """(games/s, actions/s) of each game and of Pika, on whichever rules are imported."""
    figures: dict[str, tuple[float, float]] = {}
    order = ["pika", *[n for n in names if n != "pika"], "pika"]
    for name in order:
        game, seats = get_game(name), default_seats(name)
        played = actions = 0
        start = time.perf_counter()
        for n in range(games):
            seed = f"selfplay-{name}-{n}".encode()
            done, applied = random_games(game, seats, [seed], random.Random(n))
            played, actions = played + done, actions + applied
            if time.perf_counter() - start > SECONDS:
                break
        wall = time.perf_counter() - start
        rate = (played / wall, actions / wall)
        if name in figures:  # Pika timed first and last: a drifting machine shows
            rate = tuple((a + b) / 2 for a, b in zip(figures[name], rate, strict=True))  # type: ignore[assignment]
        figures[name] = rate
    return figures


def report(names: list[str], games: int, script: str) -> None:
    """Print each game's actions/s and its ratio to Pika's (timed before and after the
    others, the mean of both), for each build of the rules."""
    builds = [("interpreted", measure(names, games))]
    if any((COMPILED / "tavolo" / "cardgames").glob("*.so")):
        env = {**os.environ, "PYTHONPATH": str(COMPILED)}
        command = [sys.executable, script, "--selfplay-json", "--selfplay", str(games), *names]
        out = subprocess.run(command, env=env, capture_output=True, text=True, check=True)
        builds.append(("compiled", json.loads(out.stdout.strip().splitlines()[-1])))
    print(f"Random self-play, default matches, up to {games} a game, beside Pika in the same run")
    for build, figures in builds:
        pika = figures["pika"][1]
        print(f"  rules {build}:")
        for name, (gps, aps) in figures.items():
            print(
                f"    {name:<11}{aps:10,.0f} actions/s {gps:8.1f} games/s  {aps / pika:5.2f}x Pika"
            )
