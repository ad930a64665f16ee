"""NATS with the events stream of a test-only namespace, and a service schema in PostgreSQL."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import asyncpg
import nats
import pytest

from tavolo.messaging import Topology, ensure_streams, install_processed_messages

SCHEMA = "wallet"


@pytest.fixture
def topology(namespace: str) -> Topology:
    return Topology(namespace)


@pytest.fixture
async def nc(nats_url: str, topology: Topology) -> AsyncIterator[Any]:
    client = await nats.connect(nats_url)
    await ensure_streams(client.jetstream(), topology)
    yield client
    if client.is_closed:
        client = await nats.connect(nats_url)
    await client.jetstream().delete_stream(topology.events_stream)
    await client.jetstream().delete_stream(topology.dead_letters_stream)
    await client.close()


@pytest.fixture
async def pool(database_url: str) -> AsyncIterator[asyncpg.Pool]:
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=6)
    async with pool.acquire() as conn:
        await install_processed_messages(conn, SCHEMA)
        await conn.execute(
            f"CREATE TABLE {SCHEMA}.balances (player text PRIMARY KEY, coins int NOT NULL)"
        )
        await conn.execute(f"INSERT INTO {SCHEMA}.balances VALUES ('ada', 0)")
    yield pool
    await pool.close()
