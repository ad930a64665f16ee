"""The contract on random games, for every registered game (see ``conformance.py``).

Three layers: hypothesis explores seeds, seat counts, options and bot levels with the deep
checks (every legal action of every seat applied at every step); seeded games probed at
every action; then up to a thousand seeded games per game for volume, with the views and
refusals probed at random steps. Games are replayed (every one, then one in ten).
"""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavolo.cardgames.registry import all_games
from tavolo.cardgames.rng import SeededRandom
from tests.scale import scaled
from tests.unit.cardgames.conformance import (
    check_replay,
    levels_for,
    option_sets,
    play_random_game,
)

GAMES = sorted(all_games())

# Sized so that `make test` checks every game in minutes: the interpreted pass runs all
# three layers, the compiled pass (`-m "not load"`) the seeded games probed at every
# action; `make soak` (TAVOLO_SOAK=full) plays the large runs.
DEEP_EXAMPLES = scaled(6, 100)
PROBED_ACTIONS = scaled(4_000, 50_000)
VOLUME_ACTIONS = scaled(16_000, 1_200_000)


@pytest.mark.load
@pytest.mark.parametrize("name", GAMES)
@settings(
    max_examples=DEEP_EXAMPLES,
    deadline=None,
    derandomize=True,
    suppress_health_check=[HealthCheck.too_slow],
)
@given(data=st.data())
def test_random_games_honour_the_contract(name: str, data: st.DataObject) -> None:
    game = all_games()[name]
    seats = data.draw(st.sampled_from(game.seat_counts()), label="seats")
    options = data.draw(st.sampled_from(option_sets(game)), label="options")
    seed = data.draw(st.binary(min_size=1, max_size=12), label="seed")
    chooser = data.draw(st.binary(min_size=1, max_size=8), label="chooser")
    levels = levels_for(game, SeededRandom(chooser), seats)
    record = play_random_game(game, seats, options, seed, chooser, levels, deep=True)
    check_replay(game, record)


def seeded_games(name: str, actions: int, max_games: int, probe_every: int) -> tuple[int, int]:
    """Play seeded games until ``actions`` actions or ``max_games`` games; replay one in
    ten. Returns (games, actions) played."""
    game = all_games()[name]
    sets = option_sets(game)
    spread = SeededRandom(f"volume {name} {probe_every}".encode())
    played = games = 0
    while played < actions and games < max_games:
        counts = game.seat_counts()
        seats = counts[spread.randbelow(len(counts))]
        options = sets[spread.randbelow(len(sets))]
        chooser = f"chooser {probe_every} {games}".encode()
        levels = levels_for(game, SeededRandom(chooser), seats)
        seed = f"game {probe_every} {games}".encode()
        record = play_random_game(
            game, seats, options, seed, chooser, levels, deep=False, probe_every=probe_every
        )
        if games % 10 == 0:
            check_replay(game, record)
        played += len(record.moves)
        games += 1
    print(f"{name}: {games} seeded games, {played} actions, probes 1 step in {probe_every}")
    return games, played


@pytest.mark.parametrize("name", GAMES)
def test_seeded_games_probed_at_every_action(name: str) -> None:
    games, _ = seeded_games(name, actions=PROBED_ACTIONS, max_games=1000, probe_every=1)
    assert games >= 3


@pytest.mark.load
@pytest.mark.parametrize("name", GAMES)
def test_a_thousand_seeded_games(name: str) -> None:
    """Volume: every action is still checked for conservation, acceptance, an untouched
    input and its events; views and refusals are probed at one step in eight. A thousand
    games and more under `make soak`; in `make test`, as many as VOLUME_ACTIONS allow."""
    games, _ = seeded_games(
        name, actions=VOLUME_ACTIONS, max_games=scaled(1000, 10_000), probe_every=8
    )
    assert games >= 10


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
