"""A database that ends its connections under an idle pool (a restart, an operator's
``pg_terminate_backend``) makes the next calls fail as an outage (UNAVAILABLE, retry),
never as a bug (INTERNAL): `tavolo simulate --chaos` once saw an ``Act`` answered
INTERNAL this way."""

from __future__ import annotations

import asyncio
from collections import Counter

import asyncpg
import grpc

from tavolo.servicekit.interceptors import status_for
from tavolo.servicekit.outages import is_outage

POOL = 6
ROUNDS = 15


async def test_every_failure_of_a_pool_whose_connections_were_terminated_is_an_outage(
    database_url: str,
) -> None:
    failures: Counter[str] = Counter()
    unclassified: list[BaseException] = []
    pool = await asyncpg.create_pool(database_url, min_size=POOL, max_size=POOL)
    admin = await asyncpg.connect(database_url)
    try:
        for _ in range(ROUNDS):
            await pool.fetchval("SELECT 1")  # every connection made and idle again
            await admin.execute(
                "SELECT pg_terminate_backend(pid) FROM pg_stat_activity"
                " WHERE datname = current_database() AND pid <> pg_backend_pid()"
            )

            async def use() -> None:
                try:
                    async with pool.acquire() as conn:
                        await conn.fetchval("SELECT $1::int", 1)
                except Exception as exc:
                    failures[type(exc).__name__] += 1
                    if not is_outage(exc) or status_for(exc, {}) is not grpc.StatusCode.UNAVAILABLE:
                        unclassified.append(exc)

            await asyncio.gather(*(use() for _ in range(POOL)))
        assert await pool.fetchval("SELECT 2") == 2  # the pool made new connections
    finally:
        await admin.close()
        await pool.close()
    assert failures, "no connection failed: the test did not terminate the pool's connections"
    assert not unclassified, f"failures seen: {dict(failures)}; not an outage: {unclassified[:3]}"
