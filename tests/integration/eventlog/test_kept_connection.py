"""The group commit's connection: kept across commits that follow at once, back in the
pool when none follows, never kept when it failed or holds a transaction."""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from types import SimpleNamespace

import asyncpg
import pytest

from tavolo.eventlog import NewEvent, PostgresEventStore
from tavolo.eventlog.group_commit import PendingAppend
from tavolo.eventlog.kept_connection import KEEP_TURNS, KeptConnection

pytestmark = pytest.mark.integration


def free(pool: asyncpg.Pool) -> int:
    return pool.get_idle_size()


async def turns(count: int) -> None:
    for _ in range(count):
        await asyncio.sleep(0)


async def test_commits_that_follow_at_once_share_one_connection(pg_pool: asyncpg.Pool) -> None:
    kept = KeptConnection(pg_pool)
    async with kept.connection() as first:
        backend = await first.fetchval("SELECT pg_backend_pid()")
    async with kept.connection() as second:
        assert await second.fetchval("SELECT pg_backend_pid()") == backend


async def test_the_connection_goes_back_when_no_commit_follows(pg_pool: asyncpg.Pool) -> None:
    await pg_pool.expire_connections()
    idle_before = free(pg_pool)
    kept = KeptConnection(pg_pool)
    async with kept.connection() as conn:
        await conn.execute("SELECT 1")
    await turns(KEEP_TURNS + 2)  # the give-back, then the pool's own release task
    assert free(pg_pool) == idle_before
    await asyncio.wait_for(pg_pool.close(), 5)  # nothing held: the pool closes at once


async def test_a_connection_in_a_transaction_is_not_kept(pg_pool: asyncpg.Pool) -> None:
    kept = KeptConnection(pg_pool)
    async with kept.connection() as conn:
        await conn.execute("BEGIN")
    assert kept._kept is None, "straight back to the pool, which rolls it back"
    async with kept.connection() as conn:
        assert not conn.is_in_transaction()


async def test_a_failed_use_is_not_kept(pg_pool: asyncpg.Pool) -> None:
    kept = KeptConnection(pg_pool)
    with pytest.raises(asyncpg.UndefinedTableError):
        async with kept.connection() as conn:
            await conn.execute("SELECT * FROM no_such_table")
    assert kept._kept is None


class CountingPool:
    """The pool, counting the connections taken from it."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool
        self.acquired = 0

    async def acquire(self) -> object:
        self.acquired += 1
        return await self.pool.acquire()

    async def release(self, conn: object) -> None:
        await self.pool.release(conn)


async def test_a_steady_writer_appends_on_one_connection(pg_store: PostgresEventStore) -> None:
    """The event log's lone appends, back to back: one connection for all of them."""
    counting = CountingPool(pg_store.pool)
    pg_store._writer = KeptConnection(counting)
    for version in range(40):
        await pg_store.append_events("steady", version, [NewEvent("E", {"n": version})])
    assert counting.acquired == 1
    assert await pg_store.stream_version("steady") == 40
    await turns(KEEP_TURNS + 2)
    assert pg_store._writer._kept is None, "given back once the writer stopped"


async def test_concurrent_writers_commit_on_one_connection(pg_store: PostgresEventStore) -> None:
    """16 writers, each appending again as soon as its last append returned: their group
    commits follow one another, and the connection is kept from one to the next."""
    counting = CountingPool(pg_store.pool)
    pg_store._writer = KeptConnection(counting)

    async def writer(n: int) -> None:
        for version in range(10):
            await pg_store.append_events(f"w{n}", version, [NewEvent("E", {"n": version})])

    commits: list[int] = []
    commit_group = pg_store.commit_group

    async def counted(batch: Sequence[PendingAppend]) -> None:
        commits.append(len(batch))
        await commit_group(batch)

    pg_store._group._writer = SimpleNamespace(commit_group=counted)
    await asyncio.gather(*(writer(n) for n in range(16)))
    assert counting.acquired == 1
    # The first append goes alone and the others share the next commit; from then on each
    # round's 16 appends share one, where the first writer answered used to go alone
    # again ahead of the other 15: [1, 16, 1, 16, ...], 20 commits.
    assert len(commits) <= 12, commits
    for n in range(16):
        assert await pg_store.stream_version(f"w{n}") == 10
