"""Skill ratings from finished tables (RATE-1): who is rated, as what, and by how much."""

from __future__ import annotations

import dataclasses
import datetime as dt
import itertools

import pytest
from hypothesis import given
from hypothesis import strategies as st
from openskill.models import PlackettLuce

from tavolo.cardgames.registry import all_games, get_game
from tavolo.leaderboard.bot_levels import BOT_LEVELS, CALIBRATIONS, MIN_STEP, RANDOM_ANCHOR
from tavolo.leaderboard.model import Mode
from tavolo.leaderboard.ratings import (
    MOST_SURE,
    PROVISIONAL_TABLES,
    BotRatings,
    Rating,
    calibrated_levels,
    rate_table,
    shown_rating,
)
from tavolo.leaderboard.sides import table_sides

from .tables import finished, seat

ratings = st.builds(
    Rating,
    st.floats(min_value=0, max_value=50),
    st.floats(min_value=0.5, max_value=9),
    st.integers(min_value=0, max_value=40),
)


@given(st.lists(st.integers(1, 4), min_size=2, max_size=4), st.sampled_from(list(Mode)))
def test_rate_1_only_online_and_stake_tables_change_ratings(places: list[int], mode: Mode) -> None:
    """RATE-1: versus-computer, friends and tournament tables rate nobody (a decision)."""
    table = finished([seat(f"p{i}", p) for i, p in enumerate(places)], mode=mode)
    changes = rate_table(table, {})
    if mode in (Mode.ONLINE, Mode.STAKE):
        assert sorted(c.player_id for c in changes) == [f"p{i}" for i in range(len(places))]
    else:
        assert changes == []


@given(st.permutations([1, 2, 3, 4]))
def test_rate_1_places_are_ranks_a_better_place_gains_more(places: list[int]) -> None:
    """RATE-1: from equal ratings, every better place ends higher, and each seat's
    tables count goes up by one."""
    table = finished([seat(f"p{i}", p) for i, p in enumerate(places)])
    after = {c.player_id: c.after for c in rate_table(table, {})}
    by_place = sorted((places[i], after[f"p{i}"].mu) for i in range(4))
    assert all(a[1] > b[1] for a, b in itertools.pairwise(by_place))
    assert all(r.tables == 1 for r in after.values())


@given(ratings, ratings)
def test_rate_1_shared_places_are_ties(first: Rating, second: Rating) -> None:
    """RATE-1: two players tied from the same rating stay equal; a winner gains, a loser
    loses, whatever the ratings before."""
    tie = finished([seat("a", 1), seat("b", 1)])
    same = rate_table(tie, {"a": first, "b": first})
    assert same[0].after.mu == same[1].after.mu
    won = {
        c.player_id: c
        for c in rate_table(finished([seat("a", 1), seat("b", 2)]), {"a": first, "b": second})
    }
    assert won["a"].after.mu > first.mu
    assert won["b"].after.mu < second.mu


def test_rate_1_partners_are_one_team() -> None:
    """RATE-1: at Scopone the partners (seats 0 and 2) share their side's place and, from
    equal ratings, move together; a Hearts table of four has no partners."""
    scopone = finished([seat("a", 1), seat("b", 2), seat("c", 1), seat("d", 2)], game="scopone")
    assert table_sides(scopone) == (frozenset({0, 2}), frozenset({1, 3}))
    after = {c.player_id: c.after.mu for c in rate_table(scopone, {}, table_sides)}
    assert after["a"] == after["c"] > after["b"] == after["d"]
    hearts = finished([seat("a", 1), seat("b", 2), seat("c", 3), seat("d", 4)], game="hearts")
    assert len(table_sides(hearts)) == 4


@given(st.sampled_from(sorted(all_games())), st.integers(1, 2), ratings)
def test_rate_1_bots_hold_a_fixed_rating_and_still_rate_their_people(
    game: str, place: int, before: Rating
) -> None:
    """RATE-1: a bot-filled table rates its one person against the bot's fixed rating;
    bots are never rated, and beating a stronger bot is worth more (losing to one costs
    less)."""
    moved = {}
    for level in ("easy", "hard"):
        table = finished([seat("ann", place), seat(None, 3 - place)], bot_filled=True, game=game)
        bot = dataclasses.replace(table.seats[1], bot_level=level)
        table = dataclasses.replace(table, seats=(table.seats[0], bot))
        (change,) = rate_table(table, {"ann": before})
        assert change.player_id == "ann"
        moved[level] = change.after.mu - before.mu
    assert moved["hard"] > moved["easy"]


RATED_GAMES = sorted(g for g in all_games() if max(get_game(g).seat_counts()) > 1)


def test_rate_1_the_calibration_covers_every_rated_game_and_level_in_order() -> None:
    """RATE-1: every game with two seats or more has a calibrated rating for the random
    player (at the anchor) and every bot level, with random < easy < medium < hard."""
    assert sorted(BOT_LEVELS) == RATED_GAMES
    for game in RATED_GAMES:
        levels = BOT_LEVELS[game]
        assert levels["random"] == RANDOM_ANCHOR
        assert levels["random"] < levels["easy"] < levels["medium"] < levels["hard"], game
        bots = BotRatings()
        assert [bots.of(game, lv).mu for lv in ("easy", "medium", "hard")] == [
            levels["easy"],
            levels["medium"],
            levels["hard"],
        ]


def test_rate_1_a_table_is_rated_with_the_calibration_in_force_when_it_finished(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """RATE-1: a recalibration is kept beside the one before it; a table that finished
    before it came into force meets the old levels, one after it the new, and the newest
    answers when no time is asked, so a rebuild rates old tables as they were rated."""
    first = {"random": 16.5, "easy": 20.0, "medium": 22.0, "hard": 24.0}
    second = {"random": 16.5, "easy": 21.0, "medium": 23.5, "hard": 27.0}
    change = dt.datetime(2025, 3, 10, 12, 0, tzinfo=dt.UTC)
    monkeypatch.setitem(
        CALIBRATIONS,
        "pika",
        [
            {"levels": first, "in_force_from": None},
            {"levels": second, "in_force_from": change.isoformat()},
        ],
    )
    second_ago = change - dt.timedelta(seconds=1)
    assert dict(calibrated_levels("pika", second_ago)) == first
    assert dict(calibrated_levels("pika", change)) == second
    assert dict(calibrated_levels("pika")) == second
    bots = BotRatings()
    assert bots.of("pika", "hard", second_ago).mu == 24.0
    assert bots.of("pika", "hard", change + dt.timedelta(days=9)).mu == 27.0
    before = finished([seat("ann", 1), seat(None, 2)], at=second_ago)
    after = dataclasses.replace(before, occurred_at=change)
    old, new = rate_table(before, {}), rate_table(after, {})
    assert old[0].after.mu != new[0].after.mu  # beat a weaker bot before, a stronger after


@pytest.mark.parametrize("game", RATED_GAMES)
def test_rate_1_each_step_of_the_ladder_predicts_back_the_share_the_league_measured(
    game: str,
) -> None:
    """RATE-1: for every step the league measured above even, the model's win
    probability between the two levels' fixed ratings (partners as one team) is the
    share the stronger level took; each step's gap is the difference of the levels."""
    entry = CALIBRATIONS[game][-1]
    levels, partners = entry["levels"], entry["partners"]
    model = PlackettLuce(mu=25, sigma=25 / 3)
    for step in entry["steps"]:
        weak, strong = step["step"].split("<")
        assert levels[strong] - levels[weak] == pytest.approx(step["gap"], abs=0.002)
        if step["share"] <= 0.5 or step["gap"] == MIN_STEP:
            continue  # not told apart by the bench: the least step keeps the order
        one = model.create_rating([levels[strong], BotRatings().sigma])
        other = model.create_rating([levels[weak], BotRatings().sigma])
        won = float(model.predict_win([[one] * partners, [other] * partners])[0])
        assert won == pytest.approx(min(step["share"], MOST_SURE), abs=0.002)


@given(
    st.floats(min_value=0, max_value=60), st.floats(min_value=0, max_value=20), st.integers(0, 30)
)
def test_rate_1_the_shown_rating_is_mu_minus_three_sigma_never_below_zero(
    mu: float, sigma: float, tables: int
) -> None:
    rating = Rating(mu, sigma, tables)
    assert rating.shown == shown_rating(mu, sigma) == max(0.0, mu - 3 * sigma)
    assert rating.provisional is (tables < PROVISIONAL_TABLES)


@given(
    st.lists(st.integers(1, 3), min_size=2, max_size=3),
    st.dictionaries(st.sampled_from(["p0", "p1", "p2"]), ratings),
)
def test_rate_1_the_same_table_on_the_same_ratings_gives_the_same_numbers(
    places: list[int], before: dict[str, Rating]
) -> None:
    """RATE-1: rating is a function of the table and the ratings before it, bit for bit."""
    table = finished([seat(f"p{i}", p) for i, p in enumerate(places)])
    assert rate_table(table, before) == rate_table(table, dict(before))


def test_rate_1_a_one_seat_game_rates_nobody() -> None:
    assert rate_table(finished([seat("ann", 1)], game="solitario"), {}) == []
