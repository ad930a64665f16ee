"""The test servers answer: PostgreSQL runs queries, NATS has JetStream (PLAT-6)."""

from __future__ import annotations

import asyncpg
import nats


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
