"""TableFinished payloads in and out of the domain."""

from __future__ import annotations

import pytest

from tavolo.leaderboard.model import Mode
from tavolo.leaderboard.wire import (
    MalformedEvent,
    parse_table_finished,
    table_finished_to_proto,
)

from .tables import finished, payload, seat


def test_a_table_survives_the_round_trip() -> None:
    table = finished(
        [seat("ann", 2, booster=True), seat(None, 1), seat("bob", 2, vip=True)],
        mode=Mode.STAKE,
        bot_filled=True,
    )
    assert parse_table_finished(payload(table)) == table


def test_garbage_is_malformed() -> None:
    with pytest.raises(MalformedEvent, match="not a TableFinished"):
        parse_table_finished(b"\xff\xff\xff")


@pytest.mark.parametrize(
    ("spoil", "message"),
    [
        ("mode", "no known mode"),
        ("places", "2 seats but 1 places"),
        ("place_zero", "no valid place"),
        ("table_id", "lacks"),
        ("occurred_at", "occurred_at"),
    ],
)
def test_an_event_the_rules_cannot_use_is_malformed(spoil: str, message: str) -> None:
    event = table_finished_to_proto(finished([seat("ann", 1), seat("bob", 2)]))
    if spoil == "mode":
        event.mode = 0
    elif spoil == "places":
        del event.outcome.places[1]
    elif spoil == "place_zero":
        event.outcome.places[1] = 0
    elif spoil == "table_id":
        event.table_id = ""
    else:
        event.header.ClearField("occurred_at")
    with pytest.raises(MalformedEvent, match=message):
        parse_table_finished(event.SerializeToString())
