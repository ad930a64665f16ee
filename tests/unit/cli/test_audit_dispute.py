"""`tavolo audit dispute`: what a seat saw, could do and did at a disputed event (AUDIT-4)."""

from __future__ import annotations

import json

import pytest

from tavolo.cli.audit.dispute import dispute_lines
from tavolo.tablelog.replay import AuditError
from tavolo.tablelog.table import ACTION
from tests.unit.engine.play import pika_setup, play_random


async def test_a_dispute_shows_the_seats_hand_its_legal_actions_and_the_action_it_took() -> None:
    store, _ = await play_random(pika_setup())
    events = await store.read_stream("table-t1")
    mine = next(e for e in events[1:] if e.type == ACTION and e.data["seat"] == 0)
    lines = dispute_lines(events, 0, mine.version)
    action = json.dumps(dict(mine.data["action"]), sort_keys=True)
    assert lines[0] == f"table t1, seat 0, just before event {mine.version}:"
    assert action in lines[3]  # among what it could do
    assert lines[4].startswith(f"  did: {action} at event {mine.version}, by player")
    assert lines[5] == "  that action was among the legal ones"
    card = mine.data["action"].get("card")
    if card:
        assert card in lines[1]  # the card it played was in the hand it saw


async def test_a_dispute_at_another_seats_event_names_the_seats_next_action() -> None:
    store, _ = await play_random(pika_setup())
    events = await store.read_stream("table-t1")
    other = next(e for e in events[1:] if e.type == ACTION and e.data["seat"] != 0)
    lines = dispute_lines(events, 0, other.version)
    assert f"did not act at event {other.version} (action); next did" in lines[4]


async def test_a_dispute_needs_an_ended_table_and_an_event_and_seat_it_has() -> None:
    store, _ = await play_random(pika_setup())
    events = await store.read_stream("table-t1")
    with pytest.raises(AuditError, match="there is no event 1"):
        dispute_lines(events, 0, 1)
    with pytest.raises(AuditError, match="seats 0 to 3"):
        dispute_lines(events, 9, 2)
    store, _ = await play_random(pika_setup(), stop_after=3)
    with pytest.raises(AuditError, match="still in play"):
        dispute_lines(await store.read_stream("table-t1"), 0, 2)
