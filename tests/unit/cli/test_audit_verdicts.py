"""A table's verdict depends only on its own chain and on the positions the engine's log
gives its own events (AUDIT-1): over every way of deleting up to three events from a log
shared by three finished tables, each table fails exactly when one of its own events is
gone, naming it, and every other deletion is reported once beside the verdict, as the
platform's finding, naming the event the log placed there."""

from __future__ import annotations

import asyncio
import dataclasses
import itertools

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavolo.cli.audit.checks import EngineFacts, check_table
from tavolo.eventlog import RecordedEvent
from tavolo.eventlog.integrity import DELETED_HASH, IndexEntry
from tests.unit.engine.play import pika_setup, play_random, recorded

TABLES = ("t-a", "t-b", "t-c")


def _logs() -> dict[str, list[RecordedEvent]]:
    async def play() -> dict[str, list[RecordedEvent]]:
        logs = {}
        for n, table_id in enumerate(TABLES):
            store, table = await play_random(pika_setup(3, table_id=table_id), rng_seed=n)
            assert not table.playing
            logs[table_id] = await recorded(store, table_id)
        return logs

    return asyncio.run(play())


LOGS = _logs()
# The engine's log interleaves the tables' events, as tables played side by side do.
ORDER = [e for group in itertools.zip_longest(*LOGS.values()) for e in group if e is not None]
INDEX = [IndexEntry(p, e.stream_id, e.version, e.hash) for p, e in enumerate(ORDER, start=1)]


@settings(max_examples=60, deadline=None)
@given(st.sets(st.integers(1, len(INDEX)), max_size=3))
def test_a_verdict_fails_only_for_the_table_whose_event_was_deleted(gone: set[int]) -> None:
    index = [e._replace(hash=DELETED_HASH) if e.position in gone else e for e in INDEX]
    deleted = {(INDEX[p - 1].stream_id, INDEX[p - 1].version) for p in gone}
    for table_id, log in LOGS.items():
        stream = f"table-{table_id}"
        events = [e for e in log if (stream, e.version) not in deleted]
        facts = EngineFacts(log[-1].version, "finished", index, len(INDEX))
        verdict = check_table(table_id, events, facts)
        mine = sorted(v for s, v in deleted if s == stream)
        others = sorted((s, v) for s, v in deleted if s != stream)
        assert verdict.ok == (not mine), verdict.lines()
        for version in mine:
            assert any(
                f.startswith(f"table {table_id} event {version}: deleted") for f in verdict.findings
            ), verdict.lines()
        assert len(verdict.platform) == len(others)
        for s, v in others:
            assert any(f"the log places {s} event {v} there" in p for p in verdict.platform)


@pytest.mark.parametrize("status", ["playing", "finished"])
def test_a_table_row_said_to_be_in_play_under_a_closed_log_is_a_finding(status: str) -> None:
    log = LOGS["t-a"]
    facts = EngineFacts(log[-1].version, status, INDEX, len(INDEX))
    verdict = check_table("t-a", log, facts)
    assert verdict.ok == (status == "finished"), verdict.lines()
    if status == "playing":
        assert f"table t-a event {log[-1].version}: the log ends with" in verdict.findings[0]


def test_an_event_moved_from_another_table_is_named() -> None:
    """Event 6 of one table, moved to the end of another: its hash holds only there."""
    source, target = LOGS["t-a"], LOGS["t-b"]
    moved = dataclasses.replace(
        source[5], stream_id=target[0].stream_id, version=target[-1].version + 1
    )
    index = [
        e._replace(hash=DELETED_HASH) if (e.stream_id, e.version) == ("table-t-a", 6) else e
        for e in INDEX
    ]
    facts = EngineFacts(target[-1].version, "finished", index, len(INDEX))
    verdict = check_table("t-b", [*target, moved], facts)
    assert any(
        f"event {moved.version}: moved here: it is table-t-a event 6" in f for f in verdict.findings
    ), verdict.lines()
