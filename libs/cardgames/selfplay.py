"""Random self-play: whole games of uniformly random legal moves, as fast as the rules go.

It drives a game only through the public contract (``to_act``, ``legal_actions``,
``apply``), exactly as a table does, so it measures and exercises the real rules: the
throughput figures of ``bench/bench_pika.py`` come from here, and tests that need many
finished games can use it. Compiled with the rules (``tools/compile_rules.py``) the loop
runs as C too, so what is measured is the rules and not the interpreter driving them.

Choices come from a ``random.Random`` owned by the caller; they are not the table's
randomness (that is the seed, through :mod:`tavolo.cardgames.rng`). An index is drawn as
``int(random() * float(n))``: uniform up to float rounding, which is plenty for random
players (the explicit ``float`` keeps the product a C double when compiled).
"""

from __future__ import annotations

import random
from collections.abc import Iterable, Mapping
from typing import Any, Final

from tavolo.cardgames.actions import Action
from tavolo.cardgames.contract import JSON, Game

MAX_ACTIONS: Final = 100_000
"""A game still running after this many actions is reported as a bug, not looped on."""


def play_random(
    game: Game[Any],
    state: Any,
    chooser: random.Random,
    moves: list[tuple[int, Action]] | None = None,
) -> tuple[Any, int]:
    """Play ``state`` to the end with random legal moves; the final state and the number
    of actions applied. Each move is appended to ``moves`` when it is given."""
    rand = chooser.random
    applied = 0
    while True:
        waiting = game.to_act(state)
        count = len(waiting)
        if count == 0:  # nobody is waited for once the game is over
            break
        if applied >= MAX_ACTIONS:
            raise RuntimeError(f"{game.name}: no end after {MAX_ACTIONS} random actions")
        if count == 1:
            (seat,) = waiting
        else:
            ordered = sorted(waiting)
            seat = ordered[int(rand() * float(len(ordered)))]
        legal = game.legal_actions(state, seat)
        action = legal[int(rand() * float(len(legal)))]
        state, _ = game.apply(state, seat, action)
        applied += 1
        if moves is not None:
            moves.append((seat, action))
    if game.outcome(state) is None:
        raise RuntimeError(f"{game.name}: nobody to act, yet the game is not over")
    return state, applied


def random_games(
    game: Game[Any],
    seats: int,
    seeds: Iterable[bytes],
    chooser: random.Random,
    options: Mapping[str, JSON] | None = None,
) -> tuple[int, int]:
    """Play one game per seed to its end; how many games and actions were played."""
    games = actions = 0
    for seed in seeds:
        _, applied = play_random(game, game.new_game(options, seats, seed), chooser)
        games += 1
        actions += applied
    return games, actions
