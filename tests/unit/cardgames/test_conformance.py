"""The contract on random games, for every registered game (see ``conformance.py``).

Two layers: hypothesis explores seeds, seat counts, options and bot levels with the deep
checks (every legal action of every seat applied at every step); a seeded loop then plays
games by the hundred with the per-action checks, for volume. Both replay every game.
"""

from __future__ import annotations

import itertools

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavolo.cardgames.registry import all_games
from tavolo.cardgames.rng import SeededRandom
from tests.unit.cardgames.conformance import (
    check_replay,
    levels_for,
    option_sets,
    play_random_game,
)

GAMES = sorted(all_games())
VOLUME_ACTIONS = 50_000
"""Actions per registered game in the volume loop: short games come by the hundred."""


@pytest.mark.parametrize("name", GAMES)
@settings(
    max_examples=25,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_games_honour_the_contract(name: str, data: st.DataObject) -> None:
    game = all_games()[name]
    seats = data.draw(st.integers(game.min_players, game.max_players), label="seats")
    options = data.draw(st.sampled_from(option_sets(game)), label="options")
    seed = data.draw(st.binary(min_size=1, max_size=12), label="seed")
    chooser = data.draw(st.binary(min_size=1, max_size=8), label="chooser")
    levels = levels_for(game, SeededRandom(chooser), seats)
    record = play_random_game(game, seats, options, seed, chooser, levels, deep=True)
    check_replay(game, record)


@pytest.mark.parametrize("name", GAMES)
def test_many_seeded_games_honour_the_contract(name: str) -> None:
    game = all_games()[name]
    sets = option_sets(game)
    spread = SeededRandom(b"volume " + name.encode())
    played = games = 0
    for n in itertools.count():
        if played >= VOLUME_ACTIONS:
            break
        seats = game.min_players + spread.randbelow(game.max_players - game.min_players + 1)
        options = sets[spread.randbelow(len(sets))]
        chooser = f"chooser {n}".encode()
        levels = levels_for(game, SeededRandom(chooser), seats)
        record = play_random_game(
            game, seats, options, f"game {n}".encode(), chooser, levels, deep=False
        )
        if n % 10 == 0:
            check_replay(game, record)
        played += len(record.moves)
        games = n + 1
    assert games >= 20, "the volume loop should play many games"


@pytest.mark.parametrize("name", GAMES)
def test_the_same_seed_deals_the_same_game(name: str) -> None:
    game = all_games()[name]
    first = game.new_game({}, game.max_players, b"same seed")
    again = game.new_game({}, game.max_players, b"same seed")
    other = game.new_game({}, game.max_players, b"other seed")
    assert first == again
    views = [game.view(first, s).to_dict() for s in range(game.max_players)]
    assert views == [game.view(again, s).to_dict() for s in range(game.max_players)]
    assert views != [game.view(other, s).to_dict() for s in range(game.max_players)]
