"""Every game's bots are found in its family's package, at the three levels (GAMES.md 8)."""

from __future__ import annotations

from tavolo.cardgames.bots.base import LEVELS
from tavolo.cardgames.bots.registry import FAMILIES, bot_levels
from tavolo.cardgames.registry import all_games


def test_every_game_names_its_family_and_offers_every_level() -> None:
    games = all_games()
    assert set(FAMILIES) == set(games)
    for name in games:
        assert bot_levels(name) == tuple(LEVELS), name


def test_a_game_without_bots_offers_no_level() -> None:
    assert bot_levels("chess") == ()
    assert bot_levels("../pika") == ()
