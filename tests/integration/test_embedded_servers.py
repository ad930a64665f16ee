"""The test servers answer: PostgreSQL runs queries, NATS has JetStream (PLAT-6)."""

from __future__ import annotations

import asyncio
from pathlib import Path

import asyncpg
import nats
import pytest

from tavolo.messaging import Topology, ensure_streams
from tavolo.servicekit.embedded import EmbeddedPostgres
from tests.conftest import delete_streams


async def test_database_is_fresh_and_writable(database_url: str) -> None:
    conn = await asyncpg.connect(database_url)
    try:
        tables = await conn.fetchval(
            "SELECT count(*) FROM information_schema.tables WHERE table_schema = 'public'"
        )
        assert tables == 0
        await conn.execute("CREATE TABLE probe (x int)")
        await conn.execute("INSERT INTO probe VALUES (41)")
        assert await conn.fetchval("SELECT x + 1 FROM probe") == 42
    finally:
        await conn.close()


async def test_nats_has_jetstream(nats_url: str, namespace: str) -> None:
    nc = await nats.connect(nats_url)
    try:
        js = nc.jetstream()
        await js.add_stream(name=f"{namespace}_PROBE", subjects=[f"{namespace}.probe"])
        ack = await js.publish(f"{namespace}.probe", b"hello")
        assert ack.seq == 1
        await js.delete_stream(f"{namespace}_PROBE")
    finally:
        await nc.close()


async def test_a_namespaces_streams_go_with_it(nats_url: str, namespace: str) -> None:
    """What the ``namespace`` fixture does after each test on the session's NATS server:
    the namespace's streams and their consumers are deleted, so they do not pile up in
    one server for the rest of the session; a namespace that made none is no error."""
    topology = Topology(namespace)
    nc = await nats.connect(nats_url)
    try:
        js = nc.jetstream()
        await ensure_streams(js, topology)
        await js.add_consumer(topology.events_stream, durable_name="probe")
        await asyncio.to_thread(delete_streams, nats_url, topology)
        names = {info.config.name for info in await js.streams_info()}
        assert not {topology.events_stream, topology.dead_letters_stream} & names
        await asyncio.to_thread(delete_streams, nats_url, topology)
    finally:
        await nc.close()


async def test_an_embedded_postgres_restarts_on_its_data_and_stops_for_good(
    tmp_path: Path,
) -> None:
    """Chaos restarts the server under running services (`tavolo simulate --chaos`): the
    same URL reaches it again with its data, and stop() ends the restarted process."""
    postgres = EmbeddedPostgres(tmp_path / "pg")
    url = await asyncio.to_thread(postgres.start, fast_unsafe=True)
    try:
        conn = await asyncpg.connect(url)
        await conn.execute("CREATE TABLE kept (x int); INSERT INTO kept VALUES (7)")
        await asyncio.to_thread(postgres.restart, 0.5)
        with pytest.raises((asyncpg.InterfaceError, asyncpg.PostgresConnectionError)):
            await conn.fetchval("SELECT 1")  # the restart ended the open session
        again = await asyncpg.connect(url)
        assert await again.fetchval("SELECT x FROM kept") == 7
        await again.close()
    finally:
        await asyncio.to_thread(postgres.stop)
    assert not (tmp_path / "pg" / "postmaster.pid").exists()
