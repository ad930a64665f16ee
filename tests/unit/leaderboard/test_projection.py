"""Projection deltas: what a batch of finished tables adds to each table key."""

from __future__ import annotations

from zoneinfo import ZoneInfo

from tavolo.leaderboard.model import Mode
from tavolo.leaderboard.projection import ALL_GAMES, aggregate
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
