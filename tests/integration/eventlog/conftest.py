"""Event stores for the contract suite: the PostgreSQL one and its in-memory twin.

Each comes with a `Tamperer` that changes stored events behind the store's back, the way
an attacker with database access would, so verification can be tested on both.
"""

from __future__ import annotations

import dataclasses
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import pytest

from tavolo.eventlog import EventStore, InMemoryEventStore, PostgresEventStore
from tavolo.servicekit.connect import create_pool

SCHEMA = "engine"


class SteppingClock:
    """A clock that moves one millisecond (and a few microseconds) per reading."""

    def __init__(self) -> None:
        self.now = datetime(2025, 3, 1, 12, 0, 0, 123456, tzinfo=UTC)

    def __call__(self) -> datetime:
        self.now += timedelta(microseconds=1007)
        return self.now


@dataclass
class Tamperer:
    """Edits stored events directly: change fields, delete one, swap two."""

    change: Callable[..., Awaitable[None]]  # (stream_id, version, **columns)
    delete: Callable[[str, int], Awaitable[None]]
    swap: Callable[[str, int, int], Awaitable[None]]


@dataclass
class StoreUnderTest:
    kind: str
    store: EventStore
    tamper: Tamperer
    clock: SteppingClock


def memory_tamperer(store: InMemoryEventStore) -> Tamperer:
    streams: dict[str, list[Any]] = store._streams

    async def change(stream_id: str, version: int, **columns: Any) -> None:
        events = streams[stream_id]
        events[version - 1] = dataclasses.replace(events[version - 1], **columns)

    async def delete(stream_id: str, version: int) -> None:
        del streams[stream_id][version - 1]

    async def swap(stream_id: str, a: int, b: int) -> None:
        events = streams[stream_id]
        first, second = events[a - 1], events[b - 1]
        events[a - 1] = dataclasses.replace(second, version=a)
        events[b - 1] = dataclasses.replace(first, version=b)

    return Tamperer(change, delete, swap)


def postgres_tamperer(pool: asyncpg.Pool, schema: str) -> Tamperer:
    """SQL edits with the append-only trigger lifted for the one transaction (as documented)."""

    async def run(sql: str, *args: Any) -> None:
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute(f"ALTER TABLE {schema}.events DISABLE TRIGGER events_append_only")
            await conn.execute(sql, *args)
            await conn.execute(f"ALTER TABLE {schema}.events ENABLE TRIGGER events_append_only")

    async def change(stream_id: str, version: int, **columns: Any) -> None:
        sets, values = [], []
        for number, (column, value) in enumerate(columns.items(), start=3):
            if column in ("data", "metadata"):
                sets.append(f"{column} = ${number}::json")
                values.append(_json(value))
            else:
                sets.append(f"{column} = ${number}")
                values.append(value)
        await run(
            f"UPDATE {schema}.events SET {', '.join(sets)} WHERE stream_id = $1 AND version = $2",
            stream_id,
            version,
            *values,
        )

    async def delete(stream_id: str, version: int) -> None:
        await run(
            f"DELETE FROM {schema}.events WHERE stream_id = $1 AND version = $2",
            stream_id,
            version,
        )

    async def swap(stream_id: str, a: int, b: int) -> None:
        # Three steps: the primary key is checked row by row, so a swap needs a spare version.
        spare = 1_000_000_000
        move = f"UPDATE {schema}.events SET version = $3 WHERE stream_id = $1 AND version = $2"
        async with pool.acquire() as conn, conn.transaction():
            await conn.execute(f"ALTER TABLE {schema}.events DISABLE TRIGGER events_append_only")
            await conn.execute(move, stream_id, a, spare)
            await conn.execute(move, stream_id, b, a)
            await conn.execute(move, stream_id, spare, b)
            await conn.execute(f"ALTER TABLE {schema}.events ENABLE TRIGGER events_append_only")

    return Tamperer(change, delete, swap)


def _json(value: Any) -> str:
    return json.dumps(value)


@pytest.fixture
async def pg_pool(database_url: str) -> AsyncIterator[asyncpg.Pool]:
    # The services' own pool: connections come back without asyncpg's reset query.
    pool = await create_pool(database_url, min_size=1, max_size=12)
    yield pool
    await pool.close()


@pytest.fixture
async def postgres_subject(pg_pool: asyncpg.Pool) -> StoreUnderTest:
    clock = SteppingClock()
    store = PostgresEventStore(pg_pool, SCHEMA, clock=clock)
    await store.install()
    return StoreUnderTest("postgres", store, postgres_tamperer(pg_pool, SCHEMA), clock)


@pytest.fixture(
    params=["memory", pytest.param("postgres", marks=pytest.mark.integration)],
)
def subject(request: pytest.FixtureRequest) -> StoreUnderTest:
    """The store the contract runs against; ``memory`` needs no server."""
    if request.param == "postgres":
        postgres: StoreUnderTest = request.getfixturevalue("postgres_subject")
        return postgres
    clock = SteppingClock()
    memory = InMemoryEventStore(clock=clock)
    return StoreUnderTest("memory", memory, memory_tamperer(memory), clock)


@pytest.fixture
async def pg_store(pg_pool: asyncpg.Pool) -> PostgresEventStore:
    store = PostgresEventStore(pg_pool, SCHEMA)
    await store.install()
    return store
