"""What only the PostgreSQL store can show: transactions, locks, triggers, schemas."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from tavolo.eventlog import ConcurrencyError, NewEvent, PostgresEventStore

pytestmark = pytest.mark.integration


async def wait_until_blocked(pool: asyncpg.Pool, pid: int) -> None:
    """Return once backend ``pid`` waits on a lock (the race is then set up, not hoped for)."""
    async with pool.acquire() as conn:
        for _ in range(500):
            waiting = await conn.fetchval(
                "SELECT wait_event_type FROM pg_stat_activity WHERE pid = $1", pid
            )
            if waiting == "Lock":
                return
            await asyncio.sleep(0.01)
    raise AssertionError(f"backend {pid} never waited on a lock")


async def test_events_commit_with_the_callers_own_rows(
    pg_store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    async with pg_pool.acquire() as conn:
        await conn.execute("CREATE TABLE seats (table_id text, seat int)")
        async with conn.transaction():
            await conn.execute("INSERT INTO seats VALUES ('t1', 0)")
            await pg_store.append_events("t1", 0, [NewEvent("Seated", {"seat": 0})], conn=conn)
        assert await conn.fetchval("SELECT count(*) FROM seats") == 1
    assert await pg_store.stream_version("t1") == 1


async def test_a_rolled_back_transaction_takes_its_events_and_positions_with_it(
    pg_store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    async with pg_pool.acquire() as conn:
        tx = conn.transaction()
        await tx.start()
        await pg_store.append_events("t1", 0, [NewEvent("Seated", {})], conn=conn)
        await tx.rollback()

    assert await pg_store.stream_version("t1") == 0
    again = await pg_store.append_events("t2", 0, [NewEvent("Seated", {})])
    assert again[0].position == 1


async def test_a_conflict_inside_a_transaction_leaves_it_usable(
    pg_store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    await pg_store.append_events("t1", 0, [NewEvent("A", {})])
    async with pg_pool.acquire() as conn:
        await conn.execute("CREATE TABLE notes (text text)")
        async with conn.transaction():
            with pytest.raises(ConcurrencyError):
                await pg_store.append_events("t1", 0, [NewEvent("B", {})], conn=conn)
            await conn.execute("INSERT INTO notes VALUES ('still fine')")
            await pg_store.append_events("t1", 1, [NewEvent("B", {})], conn=conn)
        assert await conn.fetchval("SELECT text FROM notes") == "still fine"
    assert [e.type for e in await pg_store.read_stream("t1")] == ["A", "B"]


async def test_the_writer_that_commits_second_loses_the_race(
    pg_store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    async with pg_pool.acquire() as first, pg_pool.acquire() as second:
        tx = first.transaction()
        await tx.start()
        await pg_store.append_events("t1", 0, [NewEvent("First", {})], conn=first)
        # The second writer read version 0 too; its append now waits for the first.
        racing = asyncio.create_task(
            pg_store.append_events("t1", 0, [NewEvent("Second", {})], conn=second)
        )
        await wait_until_blocked(pg_pool, second.get_server_pid())
        await tx.commit()

        with pytest.raises(ConcurrencyError, match="stream t1 is at version 1, not 0"):
            await racing
    assert [e.type for e in await pg_store.read_stream("t1")] == ["First"]


async def test_a_reader_never_passes_an_event_that_commits_late(
    pg_store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    """The situation a plain sequence gets wrong, set up step by step."""
    async with pg_pool.acquire() as slow:
        tx = slow.transaction()
        await tx.start()
        await pg_store.append_events("slow", 0, [NewEvent("Slow", {})], conn=slow)
        quick = asyncio.create_task(pg_store.append_events("fast", 0, [NewEvent("Fast", {})]))
        # With a sequence, "fast" would commit position 2 now, ahead of the open position 1.
        await wait_until_blocked(pg_pool, await _busy_pid(pg_pool, exclude=slow.get_server_pid()))
        assert await pg_store.read_all(0) == []
        await tx.commit()
        await quick
    assert [(e.position, e.type) for e in await pg_store.read_all(0)] == [(1, "Slow"), (2, "Fast")]


async def _busy_pid(pool: asyncpg.Pool, exclude: int) -> int:
    """The backend (other than ``exclude``) that is running an append."""
    async with pool.acquire() as conn:
        for _ in range(500):
            pid = await conn.fetchval(
                "SELECT pid FROM pg_stat_activity WHERE datname = current_database()"
                " AND pid NOT IN ($1, pg_backend_pid()) AND query LIKE '%event_log_head%'"
                " AND state = 'active'",
                exclude,
            )
            if pid is not None:
                return int(pid)
            await asyncio.sleep(0.01)
    raise AssertionError("no append in progress")


@pytest.mark.parametrize(
    "statement",
    [
        "UPDATE engine.events SET type = 'Other'",
        "DELETE FROM engine.events",
        "TRUNCATE engine.events",
    ],
)
async def test_the_log_refuses_updates_deletes_and_truncation(
    pg_store: PostgresEventStore, pg_pool: asyncpg.Pool, statement: str
) -> None:
    await pg_store.append_events("t1", 0, [NewEvent("A", {})])
    async with pg_pool.acquire() as conn:
        with pytest.raises(asyncpg.RestrictViolationError, match="append-only"):
            await conn.execute(statement)
    assert [e.type for e in await pg_store.read_stream("t1")] == ["A"]


async def test_install_is_idempotent_even_when_replicas_start_together(
    pg_pool: asyncpg.Pool,
) -> None:
    store = PostgresEventStore(pg_pool, "wallet")
    await asyncio.gather(*(store.install() for _ in range(4)))
    await store.append_events("w", 0, [NewEvent("Opened", {})])
    await store.install()
    assert await store.head_position() == 1


async def test_each_schema_is_its_own_log(pg_pool: asyncpg.Pool) -> None:
    engine = PostgresEventStore(pg_pool, "engine")
    wallet = PostgresEventStore(pg_pool, "wallet")
    await engine.install()
    await wallet.install()
    await engine.append_events("x", 0, [NewEvent("E", {})])
    await wallet.append_events("x", 0, [NewEvent("W", {})])
    assert [e.type for e in await engine.read_all()] == ["E"]
    assert [e.type for e in await wallet.read_all()] == ["W"]
    assert (await wallet.read_all())[0].position == 1


async def test_schema_names_are_plain_identifiers(pg_pool: asyncpg.Pool) -> None:
    with pytest.raises(ValueError, match="schema name"):
        PostgresEventStore(pg_pool, 'engine"; DROP TABLE x; --')
