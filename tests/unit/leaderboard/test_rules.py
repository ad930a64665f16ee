"""XP by mode, boosters, league points and levels (MODE-1..3, MODE-5)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from tavolo.leaderboard.model import Mode
from tavolo.leaderboard.rules import (
    LevelCurve,
    PlacementTable,
    RewardRules,
    effects_of,
)
from tavolo.leaderboard.weeks import IsoWeek

from .tables import MONDAY, finished, seat

UTC = ZoneInfo("UTC")
RULES = RewardRules()


def by_player(table_effects: object) -> dict[str, tuple[int, int, int]]:
    """player → (place, xp, league points x2)."""
    return {
        p.player_id: (p.place, p.xp, p.league_points_x2)
        for p in table_effects.players  # type: ignore[attr-defined]
    }


def test_mode1_versus_computer_pays_no_xp_and_no_league() -> None:
    table = finished([seat("ann", 1), seat(None, 2)], mode=Mode.VERSUS_COMPUTER)
    effects = effects_of(table, RULES, UTC)
    assert by_player(effects) == {"ann": (1, 0, 0)}
    assert effects.week is None
    assert not effects.players[0].ranked


def test_mode2_versus_friends_pays_only_the_winner_at_half_the_online_rate() -> None:
    seats = [seat("ann", 1), seat("bob", 2), seat("cyd", 3), seat("dan", 4)]
    friends = effects_of(finished(seats, mode=Mode.VERSUS_FRIENDS), RULES, UTC)
    online = effects_of(finished(seats, mode=Mode.ONLINE), RULES, UTC)
    assert by_player(friends) == {
        "ann": (1, 50, 0),
        "bob": (2, 0, 0),
        "cyd": (3, 0, 0),
        "dan": (4, 0, 0),
    }
    assert by_player(online)["ann"][1] == 2 * by_player(friends)["ann"][1]
    assert friends.week is None


def test_mode3_online_pays_every_place_by_placement() -> None:
    seats = [seat("ann", 3), seat("bob", 1), seat("cyd", 4), seat("dan", 2)]
    effects = effects_of(finished(seats), RULES, UTC)
    assert by_player(effects) == {
        "bob": (1, 100, 14),
        "dan": (2, 75, 10),
        "ann": (3, 50, 6),
        "cyd": (4, 25, 2),
    }
    assert effects.week == IsoWeek(2025, 11)


def test_mode3_two_seat_table_pays_first_and_second() -> None:
    effects = effects_of(finished([seat("ann", 2), seat("bob", 1)]), RULES, UTC)
    assert by_player(effects) == {"bob": (1, 100, 6), "ann": (2, 50, 2)}


def test_mode4_stake_tables_are_online_tables_for_xp_and_league() -> None:
    seats = [seat("ann", 1), seat("bob", 2)]
    stake = effects_of(finished(seats, mode=Mode.STAKE), RULES, UTC)
    online = effects_of(finished(seats, mode=Mode.ONLINE), RULES, UTC)
    assert by_player(stake) == by_player(online)


@pytest.mark.parametrize(
    ("booster", "vip", "xp"),
    [(False, False, 75), (True, False, 150), (False, True, 112), (True, True, 225)],
)
def test_mode5_booster_and_vip_multiply_xp(booster: bool, vip: bool, xp: int) -> None:
    seats = [
        seat("ann", 1),
        seat("bob", 2, booster=booster, vip=vip),
        seat("cyd", 3),
        seat("dan", 4),
    ]
    effects = effects_of(finished(seats), RULES, UTC)
    assert by_player(effects)["bob"][1] == xp
    assert by_player(effects)["ann"][1] == 100  # the others are untouched


def test_mode5_boosters_multiply_the_friends_reward_but_never_league_points() -> None:
    seats = [seat("ann", 1, booster=True, vip=True), seat("bob", 2)]
    friends = effects_of(finished(seats, mode=Mode.VERSUS_FRIENDS), RULES, UTC)
    assert by_player(friends)["ann"][1] == 150  # 50 x 2 x 1.5
    online = effects_of(finished(seats), RULES, UTC)
    plain = effects_of(finished([seat("ann", 1), seat("bob", 2)]), RULES, UTC)
    assert by_player(online)["ann"][2] == by_player(plain)["ann"][2] == 6


def test_mode3_a_bot_filled_table_counts_half_in_the_league_but_full_in_xp() -> None:
    seats = [seat("ann", 1), seat(None, 2), seat("bob", 3), seat(None, 4)]
    full = effects_of(finished(seats), RULES, UTC)
    half = effects_of(finished(seats, bot_filled=True), RULES, UTC)
    assert by_player(full) == {"ann": (1, 100, 14), "bob": (3, 50, 6)}
    assert by_player(half) == {"ann": (1, 100, 7), "bob": (3, 50, 3)}


def test_bots_earn_nothing_and_do_not_appear() -> None:
    effects = effects_of(finished([seat(None, 1), seat("ann", 2)]), RULES, UTC)
    assert [p.player_id for p in effects.players] == ["ann"]


def test_tied_players_share_a_place_and_earn_the_same() -> None:
    seats = [seat("ann", 1), seat("bob", 2), seat("cyd", 2), seat("dan", 4)]
    effects = by_player(effects_of(finished(seats), RULES, UTC))
    assert effects["bob"] == effects["cyd"] == (2, 75, 10)
    assert effects["dan"] == (4, 25, 2)


def test_partners_sharing_first_place_both_win_versus_friends() -> None:
    seats = [seat("ann", 1), seat("bob", 2), seat("cyd", 1), seat("dan", 2)]
    effects = effects_of(finished(seats, mode=Mode.VERSUS_FRIENDS, game="spades"), RULES, UTC)
    assert {p.player_id for p in effects.players if p.won} == {"ann", "cyd"}
    assert by_player(effects)["cyd"][1] == 50


def test_the_week_follows_the_configured_time_zone() -> None:
    sunday_late = dt.datetime(2025, 3, 16, 23, 30, tzinfo=dt.UTC)  # Monday 00:30 in Rome
    table = finished([seat("ann", 1), seat("bob", 2)], at=sunday_late)
    assert effects_of(table, RULES, UTC).week == IsoWeek(2025, 11)
    assert effects_of(table, RULES, ZoneInfo("Europe/Rome")).week == IsoWeek(2025, 12)


def test_configured_tables_replace_the_defaults() -> None:
    rules = RewardRules(
        online_xp=PlacementTable({2: (40, 10)}),
        league_points=PlacementTable({2: (5, 0)}, "league"),
        booster_percent=300,
    )
    seats = [seat("ann", 1, booster=True), seat("bob", 2)]
    assert by_player(effects_of(finished(seats), rules, UTC)) == {
        "ann": (1, 120, 10),
        "bob": (2, 10, 0),
    }
    # A size the table does not list falls back to the documented scale.
    three = [seat("ann", 1), seat("bob", 2), seat("cyd", 3)]
    assert by_player(effects_of(finished(three), rules, UTC))["bob"] == (2, 67, 6)


@pytest.mark.parametrize(
    "by_seats",
    [{2: (10,)}, {2: (5, 10)}, {2: (10, -1)}],
    ids=["wrong length", "growing", "negative"],
)
def test_placement_tables_refuse_nonsense(by_seats: dict[int, tuple[int, ...]]) -> None:
    with pytest.raises(ValueError):
        PlacementTable(by_seats)


def test_mode3_the_league_never_counts_private_modes() -> None:
    with pytest.raises(ValueError, match="MODE-3"):
        RewardRules(league_modes=frozenset({Mode.ONLINE, Mode.VERSUS_FRIENDS}))


@pytest.mark.parametrize(
    ("xp", "level", "to_next"),
    [(0, 1, 100), (99, 1, 1), (100, 2, 200), (299, 2, 1), (300, 3, 300), (600, 4, 400)],
)
def test_levels_follow_the_default_curve(xp: int, level: int, to_next: int) -> None:
    curve = LevelCurve()
    assert curve.level(xp) == level
    assert curve.xp_to_next_level(xp) == to_next


def test_level_curve_handles_huge_xp_and_a_flat_curve() -> None:
    curve = LevelCurve(first=100, growth=100)
    level = curve.level(10**15)
    assert curve.xp_for_level(level) <= 10**15 < curve.xp_for_level(level + 1)
    flat = LevelCurve(first=250, growth=0)
    assert flat.level(1000) == 5
    assert flat.xp_to_next_level(1000) == 250


def test_the_league_key_orders_like_the_week() -> None:
    assert MONDAY.isocalendar()[:2] == (2025, 11)
    assert IsoWeek(2025, 11).key == 202511
    assert IsoWeek.from_key(202511) == IsoWeek(2025, 11)
