"""An appender in its own process, for the test where several processes append at once.

Run as ``python -m tests.integration.eventlog.appender_process DATABASE_URL NAME COUNT``.
Appends COUNT events to its own stream ``NAME`` (some inside a transaction that lingers
before committing) and COUNT more to the shared stream ``shared``, reloading and retrying
on every conflict; prints one line of JSON: the ids it appended, in order, per stream.
"""

from __future__ import annotations

import asyncio
import json
import random
import sys
import uuid

import asyncpg

from tavolo.eventlog import ConcurrencyError, NewEvent, PostgresEventStore

SCHEMA = "engine"
SHARED = "shared"


async def own_stream(
    store: PostgresEventStore, pool: asyncpg.Pool, name: str, count: int
) -> list[str]:
    rng = random.Random(name)
    ids: list[str] = []
    for version in range(count):
        event = NewEvent("Moved", {"by": name, "n": version}, event_id=uuid.uuid4())
        if rng.random() < 0.1:
            async with pool.acquire() as conn, conn.transaction():
                await store.append_events(name, version, [event], conn=conn)
                await asyncio.sleep(rng.random() / 200)  # commit late
        else:
            await store.append_events(name, version, [event])
        ids.append(str(event.event_id))
    return ids


async def shared_stream(store: PostgresEventStore, name: str, count: int) -> list[str]:
    ids: list[str] = []
    for n in range(count):
        event = NewEvent("Bid", {"by": name, "n": n}, event_id=uuid.uuid4())
        while True:
            version = await store.stream_version(SHARED)
            try:
                await store.append_events(SHARED, version, [event])
                break
            except ConcurrencyError:
                await asyncio.sleep(0)
        ids.append(str(event.event_id))
    return ids


async def main(database_url: str, name: str, count: int) -> None:
    pool = await asyncpg.create_pool(database_url, min_size=4, max_size=4)
    try:
        store = PostgresEventStore(pool, SCHEMA)
        own, shared = await asyncio.gather(
            own_stream(store, pool, name, count), shared_stream(store, name, count // 10)
        )
    finally:
        await pool.close()
    print(json.dumps({"own": own, "shared": shared}))


if __name__ == "__main__":
    asyncio.run(main(sys.argv[1], sys.argv[2], int(sys.argv[3])))
