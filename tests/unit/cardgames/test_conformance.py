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

from tavolo.cardgames.errors import InvalidOptions
from tavolo.cardgames.registry import all_games
from tavolo.cardgames.rng import SeededRandom
from tests.scale import FULL, scaled
from tests.unit.cardgames.conformance import (
    SHORT_MATCH,
    Tally,
    check_replay,
    levels_for,
    option_domains,
    option_sets,
    pairwise_rows,
    play_forced_tie,
    play_random_game,
    wrong_values,
)

GAMES = sorted(all_games())

# Sized so that `make test` checks every game in minutes: the interpreted pass runs all
# three layers, the pairwise option sets and the forced ties, the compiled pass
# (`-m "not load"`) the seeded games probed at every action; `make soak`
# (TAVOLO_SOAK=full) runs every one of them at ten times that size or more. Each test
# prints what it covered. In `make test`: 6 deep examples a game; 4,000 actions probed
# at every step (5 to 73 games a game); 16,000 volume actions (31 to 300 games); every
# option pair once, 160 to 2,119 positions a game (351 games, 12,514 positions); 3 to 24
# forced-tie matches a knock-out game. Under `make soak`: 100 deep examples; 50,000
# probed actions; 1,200,000 volume actions or 10,000 games; every option pair with ten
# seeds for up to 100 actions each (ten times the games, 10x-25x the positions); ten
# times the forced-tie matches (30 to 240 a game).
DEEP_EXAMPLES = scaled(6, 100)
PAIRWISE_STEPS = scaled(40, 100)
"""Actions each pairwise option set is played for, probed at every one."""
PAIRWISE_GAMES = scaled(1, 10)
"""Games (seeds) each pairwise option set and seat count is played with: ten times as
many under soak, so the positions grow tenfold even in games shorter than the steps."""
FORCED_TIES = scaled(1, 10)
"""Matches per seat count and tie size whose end is forced level."""
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


SOAKED = [pytest.mark.load] if FULL else []
"""`make test` runs the probed games in both passes (not `load`); `make soak` selects
only `load` and `fault` tests, so at its size they are marked `load` to be run there."""


@pytest.mark.parametrize("name", [pytest.param(n, marks=SOAKED) for n in GAMES])
def test_seeded_games_probed_at_every_action(name: str) -> None:
    games, _ = seeded_games(
        name, actions=PROBED_ACTIONS, max_games=scaled(1000, 10_000), probe_every=1
    )
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


@pytest.mark.load
@pytest.mark.parametrize("name", GAMES)
def test_every_pair_of_option_values_at_every_seat_count(name: str) -> None:
    """GAMES.md 6: at every seat count, option sets in which every pair of two options'
    values occurs, each played with bots of random levels and uniform choices, probed at
    every action: a seat waited for always has a legal action, no action is listed twice,
    every running timer's expiry is accepted and moves the game on, and a freshly made
    bot of each level (and bots asked out of turn, who never produced the position) can
    take any seat it is handed and choose a legal action."""
    game = all_games()[name]
    tally = Tally()
    rows = 0
    for seats in game.seat_counts():
        for index, options in enumerate(pairwise_rows(game, seats)):
            for repeat in range(PAIRWISE_GAMES):
                chooser = f"pairwise {seats} {index} {repeat}".encode()
                levels = levels_for(game, SeededRandom(chooser), seats)
                seed = f"pairwise game {seats} {index} {repeat}".encode()
                play_random_game(
                    game,
                    seats,
                    options,
                    seed,
                    chooser,
                    levels,
                    deep=False,
                    stop_after=PAIRWISE_STEPS,
                    tally=tally,
                    takeover_every=4,
                )
                rows += 1
    print(
        f"{name}: {rows} pairwise games, {tally.positions} positions, "
        f"{tally.takeovers} fresh-bot takeovers"
    )
    assert tally.positions >= rows


@pytest.mark.parametrize("name", GAMES)
def test_options_refuse_look_alikes_and_keep_canonical_values(name: str) -> None:
    """GAMES.md 3, PCG-6: a value of another type (``1`` or ``1.0`` for ``true``, ``"3"``
    for 3) or a non-canonical spelling (``"hands:07"``) is refused naming the option and
    its values; every value the option takes is kept exactly as given, type and all."""
    game = all_games()[name]
    for option, value in wrong_values(game):
        with pytest.raises(InvalidOptions, match=option):
            game.options({option: value})
    for option, values in option_domains(game).items():
        for value in values:
            kept = game.options({option: value})[option]
            assert kept == value and type(kept) is type(value), (option, value, kept)


KO_GAMES = sorted(n for n, g in all_games().items() if g.offers_knock_out and not g.own_tie_breaks)


@pytest.mark.load
@pytest.mark.parametrize("name", KO_GAMES)
def test_forced_two_three_and_four_way_ties_are_placed_by_rules_0_12_to_0_14(name: str) -> None:
    """PCG-7, RULES §0.12-14: a match ending with 2, 3 or 4 sides level at the top goes
    through knock-out tie-break hands; the places match the rules worked out here by
    splitting the tied group hand by hand (a later hand ordering only what an earlier
    left level, the last capture losing after three, other seats keeping their place)."""
    assert set(SHORT_MATCH) == set(KO_GAMES)
    game = all_games()[name]
    matches = positions = 0
    for seats in game.seat_counts():
        for size in (2, 3, 4):
            if size > seats:
                continue
            for repeat in range(FORCED_TIES):
                start = (repeat * 7 + size) % (seats - size + 1)
                tied = tuple(range(start, start + size))
                seed = f"forced tie {seats} {size} {repeat}".encode()
                positions += play_forced_tie(game, seats, tied, seed)
                matches += 1
    print(f"{name}: {matches} matches with forced ties, {positions} positions")
