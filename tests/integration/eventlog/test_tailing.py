"""Guarantee 6, first half: a reader tailing the global position sees every event once.

Ten writers append a thousand events each while a reader follows ``read_all``. Some
appends run inside a transaction that lingers before committing, so commits often land
out of the order in which writers started; a log whose positions could be overtaken by a
late commit would make the reader skip events, and the final comparison would show it.
"""

from __future__ import annotations

import asyncio
import random
import uuid

import asyncpg
import pytest

from tavolo.eventlog import NewEvent, PostgresEventStore
from tests.scale import scaled

from .tailing import tail

pytestmark = [pytest.mark.integration, pytest.mark.load]

WRITERS = 10
APPENDS_PER_WRITER = scaled(1000, 10_000)


async def write(store: PostgresEventStore, pool: asyncpg.Pool, writer: int) -> list[uuid.UUID]:
    rng = random.Random(writer)
    ids: list[uuid.UUID] = []
    stream = f"table-{writer}"
    for version in range(APPENDS_PER_WRITER):
        event = NewEvent("Moved", {"writer": writer, "n": version}, event_id=uuid.uuid4())
        if rng.random() < 0.1:
            async with pool.acquire() as conn, conn.transaction():
                await store.append_events(stream, version, [event], conn=conn)
                await asyncio.sleep(rng.random() / 500)  # commit late, holding the position
        else:
            await store.append_events(stream, version, [event])
        assert event.event_id is not None
        ids.append(event.event_id)
    return ids


async def test_ten_writers_and_a_tailing_reader_every_event_exactly_once(
    database_url: str,
) -> None:
    pool = await asyncpg.create_pool(database_url, min_size=WRITERS + 2, max_size=WRITERS + 2)
    try:
        store = PostgresEventStore(pool, "engine")
        await store.install()
        done = asyncio.Event()
        reader = asyncio.create_task(tail(store, done))
        written = await asyncio.gather(*(write(store, pool, w) for w in range(WRITERS)))
        done.set()
        seen = await reader
    finally:
        await pool.close()

    appended = [event_id for ids in written for event_id in ids]
    seen_ids = [event.event_id for event in seen]
    assert len(appended) == WRITERS * APPENDS_PER_WRITER
    assert len(seen_ids) == len(set(seen_ids)), "an event was seen twice"
    assert set(seen_ids) == set(appended), "an event was never seen"
    for writer in range(WRITERS):
        versions = [e.version for e in seen if e.stream_id == f"table-{writer}"]
        assert versions == list(range(1, APPENDS_PER_WRITER + 1))
