"""Solitario (Klondike): random self-play speed beside OpenSpiel's ``solitaire`` in the
same run (GAMES 11).

    .venv/bin/python bench/bench_solitario.py [--speed-games 300] [--rounds 1]

Random self-play through the contract (``legal_actions`` and ``apply``, which re-checks
legality and copies the state), uniformly among the moves and draws (never ``stop``), to
the end or 150 actions, the depth limit OpenSpiel's ``solitaire`` uses by default. The
Python rules and, when ``build/compiled`` exists (``make bench`` builds it), the compiled
ones in a child process. OpenSpiel (``pip install open-spiel``, an optional bench
dependency) is measured with random actions at its player nodes and its chance nodes
(the cards it turns up) sampled; both counts are printed. Rates are in CPU time of the
process (``time.process_time``): on a shared machine wall-clock rates swing with the
load. ``--rounds`` repeats the three measurements in turn, each round with its ratio.

The bots' win rates at draw 1 and draw 3, deal by deal against each other and beside the
published greedy solvers' draw-3 rates, are the league's: ``bench/bench_bot_league.py
solitario --steps easy<hard,medium<hard --detail`` (``make soak-solitario``: 10,000
deals).
"""

from __future__ import annotations

import argparse
import json
import os
import random
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

from tavolo.cardgames.actions import ActionKind
from tavolo.cardgames.registry import get_game

DEPTH_LIMIT = 150
COMPILED = Path(__file__).resolve().parent.parent / "build" / "compiled"


# -- speed ----------------------------------------------------------------------------


def our_random_play(games: int) -> dict[str, float]:
    """Random self-play on whichever rules this process imports."""
    import tavolo.cardgames.games.solitario.solitario as rules

    game = get_game("solitario")
    rand = random.Random(7).random
    actions = 0
    start = time.process_time()
    for n in range(games):
        state = game.new_game({}, 1, n.to_bytes(8, "big"))
        for _ in range(DEPTH_LIMIT):
            legal = [a for a in game.legal_actions(state, 0) if a.kind is not ActionKind.STOP]
            if not legal:
                break
            state, _ = game.apply(state, 0, legal[int(rand() * len(legal))])
            actions += 1
    seconds = time.process_time() - start
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
    start = time.process_time()
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
    seconds = time.process_time() - start
    return {
        "games/s": games / seconds,
        "actions/s": player_actions / seconds,
        "chance/s": chance_actions / seconds,
    }


def speed(games: int) -> None:
    print(
        f"-- random self-play, {games} games, up to {DEPTH_LIMIT} actions each "
        f"(CPU time; load average {os.getloadavg()[0]:.1f})"
    )
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
    parser.add_argument("--speed-games", type=int, default=300)
    parser.add_argument("--rounds", type=int, default=1, help="measure this many times in turn")
    parser.add_argument("--speed-json", type=int, help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.speed_json is not None:
        print(json.dumps(our_random_play(args.speed_json)))
        return 0
    for _ in range(args.rounds):
        speed(args.speed_games)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
