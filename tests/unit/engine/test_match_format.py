"""A table's match format (PCG-6): checked by the rules, whole in the opening event and in
every seat's view."""

from __future__ import annotations

import pytest

from tavolo.servicekit.errors import InvalidArgument
from tavolo.tablelog import table as T
from tavolo.tablelog.convert import view_to_proto
from tavolo.tablelog.setup import SeatInfo, build_setup
from tavolo.tablelog.views import seat_view
from tests.unit.engine.play import NOW, SEED

SEATS = [SeatInfo(0, "a"), SeatInfo(1, "b")]


def test_pcg_6_the_opening_event_names_the_whole_format_defaults_included() -> None:
    setup = build_setup(
        table_id="t1",
        game="pika",
        options={"match_length": "hands:3"},
        seats=SEATS,
        mode="versus_friends",
    )
    opened = T.open_table(setup, SEED, NOW)
    assert opened.events[0].type == T.OPENED
    assert opened.events[0].data["options"] == {
        "match_length": "hands:3",
        "pika_window": 3,
        "players": 2,
    }
    for seat in (0, 1, None):
        view = view_to_proto(seat_view(opened.table, seat))
        assert dict(view.options) == {"match_length": "hands:3", "pika_window": 3, "players": 2}


@pytest.mark.parametrize(
    ("options", "words"),
    [
        ({"match_length": "hands:0"}, ["match_length", "'hands:N'", "'points:T'"]),
        ({"challenge": "maybe"}, ["challenge", "'on', 'off'"]),
        ({"colour": "red"}, ["no option colour", "match_length"]),
    ],
)
def test_pcg_6_the_engine_refuses_a_bad_option_naming_it_and_the_values(
    options: dict[str, object], words: list[str]
) -> None:
    with pytest.raises(InvalidArgument) as refused:
        build_setup(table_id="t1", game="uno", options=options, seats=SEATS, mode="versus_friends")
    for word in words:
        assert word in str(refused.value)


def test_pcg_6_a_players_option_follows_the_seats() -> None:
    setup = build_setup(table_id="t1", game="uno", options={}, seats=SEATS, mode="versus_friends")
    assert setup.options["players"] == 2
