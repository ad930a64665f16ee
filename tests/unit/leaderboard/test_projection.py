"""Projection deltas: sums per table key, and the points histogram's moves."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from tavolo.leaderboard.model import Mode
from tavolo.leaderboard.projection import ALL_GAMES, LeagueTotal, aggregate, histogram_changes
from tavolo.leaderboard.rules import RewardRules, effects_of

from .tables import finished, seat

UTC = ZoneInfo("UTC")


def test_a_batch_sums_per_player_game_and_week_with_an_all_games_row() -> None:
    rules = RewardRules()
    tables = [
        finished([seat("ann", 1), seat("bob", 2)], game="pika"),
        finished([seat("ann", 2), seat("bob", 1)], game="spades"),
        finished([seat("ann", 1), seat(None, 2)], mode=Mode.VERSUS_COMPUTER),
    ]
    delta = aggregate(effects_of(t, rules, UTC) for t in tables)
    assert delta.xp == {"ann": 150, "bob": 150}
    assert delta.places[("ann", "pika", 1)] == 2  # the versus-computer table counts in stats
    assert delta.league[(202511, "pika", "ann")] == [6, 1]
    assert delta.league[(202511, "spades", "ann")] == [2, 1]
    assert delta.league[(202511, ALL_GAMES, "ann")] == [8, 2]
    assert delta.alltime[("pika", "ann")] == [1, 1]  # the computer win is not ranked
    assert ("pika", "ann") in delta.alltime and len(delta.alltime) == 4


def test_histogram_moves_an_existing_player_and_adds_a_new_one() -> None:
    league = {(1, "", "ann"): [4, 1], (1, "", "bob"): [6, 2]}
    totals = [LeagueTotal(1, "", "ann", 10, 3), LeagueTotal(1, "", "bob", 6, 2)]
    # ann went from 6 to 10 (leaves bucket 6); bob is new with 6 (enters bucket 6).
    assert histogram_changes(league, totals) == {(1, "", 10): 1}
    league = {(1, "", "ann"): [4, 1]}
    assert histogram_changes(league, [LeagueTotal(1, "", "ann", 10, 3)]) == {
        (1, "", 6): -1,
        (1, "", 10): 1,
    }


def test_histogram_ignores_a_player_whose_points_did_not_change() -> None:
    league = {(1, "", "ann"): [0, 1]}
    assert histogram_changes(league, [LeagueTotal(1, "", "ann", 8, 4)]) == {}
