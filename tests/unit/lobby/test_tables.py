"""Requested tables are checked against the rules engines' own contract before queuing."""

from __future__ import annotations

import pytest

from tavolo.lobby.play.tables import check_stake, table_spec
from tavolo.servicekit.errors import InvalidArgument


def test_options_are_merged_with_defaults_so_equal_tables_share_a_pool() -> None:
    plain = table_spec("pika", 4, {})
    explicit = table_spec("Pika", 4, {"pika_window": 3.0, "players": 4.0})
    assert plain == explicit
    assert plain.pool(0) == explicit.pool(0)
    assert plain.pool(0) != plain.pool(100)
    assert plain.pool(0) != table_spec("pika", 3, {}).pool(0)


def test_whole_numbers_from_protobuf_come_back_as_ints() -> None:
    spec = table_spec("pika", 2, {"pika_window": 5.0})
    assert spec.options["pika_window"] == 5
    assert isinstance(spec.options["pika_window"], int)


@pytest.mark.parametrize(
    ("game", "players", "options", "reason"),
    [
        ("", 4, {}, "choose a game"),
        ("chess", 2, {}, "unknown game"),
        ("pika", 5, {}, "2 to 4 players"),
        ("pika", 4, {"players": 3}, "option 'players' is 3"),
        ("pika", 4, {"colour_blind": True}, "no option colour_blind"),
    ],
)
def test_a_bad_table_is_refused_with_the_games_reason(
    game: str, players: int, options: dict[str, object], reason: str
) -> None:
    with pytest.raises(InvalidArgument, match=reason):
        table_spec(game, players, options)


def test_mode_4_stakes_are_the_four_levels_or_none() -> None:
    for stake in (0, 100, 250, 500, 1000):
        assert check_stake(stake) == stake
    with pytest.raises(InvalidArgument, match="100, 250, 500, 1000"):
        check_stake(300)
