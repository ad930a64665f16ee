"""What only the PostgreSQL store can show: transactions, locks, triggers, schemas."""

from __future__ import annotations

import asyncio
import uuid
from datetime import UTC, datetime
from typing import Any

import asyncpg
import pytest

from tavolo.eventlog import (
    GENESIS_HASH,
    ConcurrencyError,
    DuplicateEventError,
    NewEvent,
    PostgresEventStore,
    StreamAppend,
)
from tavolo.eventlog import schema as _schema
from tavolo.eventlog._records import draft_records
from tavolo.eventlog.canonical import encode_json
from tavolo.eventlog.integrity import IndexEntry, missing_positions
from tests.integration.eventlog.conftest import SCHEMA

pytestmark = pytest.mark.integration


def stored_columns(r: Any) -> tuple[Any, ...]:
    """A drafted record as its row of ``events`` holds it, stream id to hash."""
    return (
        r.stream_id,
        r.version,
        r.event_id,
        r.type,
        encode_json(r.data),
        encode_json(r.metadata),
        r.recorded_at,
        r.prev_hash,
        r.hash,
    )


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
    await pg_store.append_events("t2", 0, [NewEvent("Seated", {})])
    assert [(e.stream_id, e.position) for e in await pg_store.read_all(0)] == [("t2", 1)]


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


async def test_a_taken_event_id_inside_a_transaction_writes_nothing_and_leaves_it_usable(
    pg_store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    taken = uuid.uuid4()
    await pg_store.append_events("t1", 0, [NewEvent("A", {}, event_id=taken)])
    async with pg_pool.acquire() as conn, conn.transaction():
        with pytest.raises(DuplicateEventError, match="version 1 of stream t1"):
            # The second event is refused: the first, already inserted, goes too.
            await pg_store.append_events(
                "t2", 0, [NewEvent("B", {}), NewEvent("C", {}, event_id=taken)], conn=conn
            )
        await pg_store.append_events("t2", 0, [NewEvent("D", {})], conn=conn)
    assert [e.type for e in await pg_store.read_stream("t2")] == ["D"]
    assert [(e.stream_id, e.version) for e in await pg_store.read_all(0)] == [
        ("t1", 1),
        ("t2", 1),
    ]


async def test_appends_prepared_for_a_callers_own_statement_are_written_by_append_group(
    pg_store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    """A caller whose own SQL writes events beside its rows (the engine's timers) drafts
    them here and calls ``append_group`` itself: one round trip for the whole command."""
    await pg_store.append_events("t1", 0, [NewEvent("A", {})])
    await pg_store.append_events("t2", 0, [NewEvent("A", {})])
    prepared, unknown = pg_store.prepare_group(
        [
            StreamAppend("t1", 1, [NewEvent("B", {}), NewEvent("C", {})]),
            StreamAppend("t2", 0, [NewEvent("X", {})]),  # stale: t2 is at version 1
            StreamAppend("t3", 0, [NewEvent("A", {})]),
            StreamAppend("t9", 4, [NewEvent("A", {})]),  # a head this store never saw
        ]
    )
    assert [a.stream_id for a in unknown] == ["t9"]
    async with pg_pool.acquire() as conn:
        written = {
            row[0]
            for row in await conn.fetch(
                f"SELECT * FROM {SCHEMA}.append_group($1, $2, $3, $4, $5, $6, $7, $8, $9, $10)",
                *prepared.columns(),
            )
        }
    assert written == {"t1", "t3"}
    recorded = pg_store.settle_group(prepared, written)
    assert {s: [e.version for e in r] for s, r in recorded.items()} == {"t1": [2, 3], "t3": [1]}
    for stream in ("t1", "t2", "t3"):
        assert (await pg_store.verify_stream(stream)).ok
    assert [e.type for e in await pg_store.read_stream("t2")] == ["A"]
    # the remembered heads follow what was written: t1 appends on without a read
    again, unknown = pg_store.prepare_group([StreamAppend("t1", 3, [NewEvent("D", {})])])
    assert (len(again.planned), unknown) == (1, [])
    with pytest.raises(ValueError, match="distinct streams"):
        pg_store.prepare_group([StreamAppend("t3", 1, [NewEvent("B", {})])] * 2)


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
    """The situation a plain sequence gets wrong, set up step by step: a late commit
    takes the next position after what readers saw, never one behind them."""
    async with pg_pool.acquire() as slow:
        tx = slow.transaction()
        await tx.start()
        await pg_store.append_events("slow", 0, [NewEvent("Slow", {})], conn=slow)
        # The open transaction holds nothing another stream's append needs.
        await asyncio.wait_for(pg_store.append_events("fast", 0, [NewEvent("Fast", {})]), 10)
        assert [(e.position, e.type) for e in await pg_store.read_all(0)] == [(1, "Fast")]
        await tx.commit()
    assert [(e.position, e.type) for e in await pg_store.read_all(1)] == [(2, "Slow")]
    assert await pg_store.head_position() == 2


async def test_sequencing_never_waits_for_an_open_append(
    pg_store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    async with pg_pool.acquire() as slow:
        tx = slow.transaction()
        await tx.start()
        await pg_store.append_events("slow", 0, [NewEvent("Slow", {})], conn=slow)
        assert await asyncio.wait_for(pg_store.head_position(), 10) == 0
        await tx.rollback()
    assert await pg_store.read_all(0) == []


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


async def test_an_append_of_several_events_stores_exactly_the_drafted_rows(
    pg_store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    """Several events go to the database packed (versions and previous hashes follow from
    their places, data and metadata as one JSON array each): each stored row must still
    be exactly the event drafted, its documents the canonical texts byte for byte."""
    awkward = {
        "s": 'a "quoted" \\ back\nslash\t\u0001 è 😀 \u2028 [1, {"x": 2}]',
        "nested": {"z": [1, -2, None, True, False, "x", []], "a": {}},
        "big": 2**53 - 1,
    }
    batches = [
        [NewEvent("A", awkward, metadata={"k": " spaced  text "}), NewEvent("B", {})],
        [NewEvent('a "quoted"\ntype', {"n": i}, metadata={"i": [i]}) for i in range(5)]
        + [NewEvent("è", awkward)],
    ]
    recorded = []
    for batch in batches:
        recorded += await pg_store.append_events("tävolo-1", len(recorded), batch)
    async with pg_pool.acquire() as conn:
        rows = await conn.fetch(
            "SELECT stream_id, version, event_id, type, data::text, metadata::text,"
            f" recorded_at, prev_hash, hash FROM {SCHEMA}.events ORDER BY version"
        )
    assert [tuple(row) for row in rows] == [stored_columns(r) for r in recorded]
    assert [r.version for r in recorded] == list(range(1, 9))
    assert recorded[2].prev_hash == recorded[1].hash
    assert (await pg_store.verify_stream("tävolo-1")).ok


async def test_an_append_of_several_events_is_one_marker_sequenced_whole_and_in_order(
    pg_store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    """An append of several events leaves one marker reaching over its versions; the
    sequencer hands them out one after the other, never splits an append between two
    calls, and takes at most ``max_events`` events unless the first marker holds more.
    Markers of one event each (an append in a caller's transaction) mix in unchanged."""
    appends = [("a", 3), ("b", 1), ("a", 2), ("c", 5), ("b", 2), ("a", 1)]
    versions: dict[str, int] = {}
    for stream, count in appends:
        events = [NewEvent("E", {"n": n}) for n in range(count)]
        at = versions.get(stream, 0)
        if stream == "b":  # one marker per event
            async with pg_pool.acquire() as conn, conn.transaction():
                await pg_store.append_events(stream, at, events, conn=conn)
        else:
            await pg_store.append_events(stream, at, events)
        versions[stream] = at + count
    async with pg_pool.acquire() as conn:
        markers = await conn.fetch(
            f"SELECT stream_id, version, last_version FROM {SCHEMA}.events_unsequenced ORDER BY id"
        )
        assert [tuple(m) for m in markers] == [
            ("a", 1, 3),
            ("b", 1, None),
            ("a", 4, 5),
            ("c", 1, 5),
            ("b", 2, None),
            ("b", 3, None),
            ("a", 6, 6),
        ]
        heads = [await conn.fetchval(f"SELECT {SCHEMA}.sequence_events(4)") for _ in range(5)]
    # 3 (+1 would be 4: "b" fits) | 2 (a 4-5, then c's 5 would pass 4) | 5 (c alone, first)
    # | 3 (b, b, a) | nothing left
    assert heads == [4, 6, 11, 14, 14]
    logged = await pg_store.read_all(0)
    assert [e.position for e in logged] == list(range(1, 15))
    assert [(e.stream_id, e.version) for e in logged] == [
        ("a", 1), ("a", 2), ("a", 3), ("b", 1),
        ("a", 4), ("a", 5),
        ("c", 1), ("c", 2), ("c", 3), ("c", 4), ("c", 5),
        ("b", 2), ("b", 3), ("a", 6),
    ]  # fmt: skip


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


async def test_a_log_written_before_sequenced_positions_keeps_its_order_and_chains(
    pg_pool: asyncpg.Pool,
) -> None:
    """A log of the first shape (positions in the events table, taken in the append) is
    migrated in place: its positions, chains and gap check stay as they were."""
    old = [
        d.record
        for d in draft_records(
            "old",
            0,
            GENESIS_HASH,
            [NewEvent("A", {}), NewEvent("B", {})],
            datetime(2025, 1, 1, tzinfo=UTC),
            uuid.uuid4,
        )
    ]
    other = [
        d.record
        for d in draft_records(
            "other",
            0,
            GENESIS_HASH,
            [NewEvent("C", {})],
            datetime(2025, 1, 2, tzinfo=UTC),
            uuid.uuid4,
        )
    ]
    async with pg_pool.acquire() as conn:
        await conn.execute(_schema._DDL.format(s='"legacy"'))
        for position, r in enumerate([old[0], other[0], old[1]], start=1):
            await conn.execute(
                "INSERT INTO legacy.events (position, stream_id, version, event_id, type, data,"
                " metadata, recorded_at, prev_hash, hash)"
                " VALUES ($1, $2, $3, $4, $5, $6::json, $7::json, $8, $9, $10)",
                position,
                *stored_columns(r),
            )
        await conn.execute("UPDATE legacy.event_log_head SET position = 3")

    store = PostgresEventStore(pg_pool, "legacy")
    await store.install()
    await store.append_events("old", 2, [NewEvent("D", {})])

    logged = await store.read_all(0)
    assert [(e.position, e.stream_id, e.version) for e in logged] == [
        (1, "old", 1),
        (2, "other", 1),
        (3, "old", 2),
        (4, "old", 3),
    ]
    assert [e.hash for e in logged[:3]] == [old[0].hash, other[0].hash, old[1].hash]
    assert (await store.verify_stream("old")).ok and (await store.verify_stream("other")).ok
    index = [IndexEntry(e.position, e.stream_id, e.version, e.hash) for e in logged]
    assert missing_positions(index, await store.head_position()) == []


async def test_appends_arriving_while_one_commits_share_the_next_commit(
    pg_store: PostgresEventStore, pg_pool: asyncpg.Pool
) -> None:
    await pg_store.append_events("a", 0, [NewEvent("A", {})])
    await asyncio.gather(
        # Nothing is in flight: this one commits at once, on its own...
        pg_store.append_events("first", 0, [NewEvent("F", {})]),
        # ...and these arrive while it does, so they share the next commit.
        pg_store.append_events("a", 1, [NewEvent("A2", {})]),
        pg_store.append_events("b", 0, [NewEvent("B", {}), NewEvent("B2", {})]),
        pg_store.append_events("c", 0, [NewEvent("C", {})]),
    )
    async with pg_pool.acquire() as conn:
        shared = await conn.fetchval(
            "SELECT count(DISTINCT xmin::text) FROM engine.events"
            " WHERE stream_id IN ('b', 'c') OR (stream_id = 'a' AND version = 2)"
        )
        alone = await conn.fetchval(
            "SELECT count(*) FROM engine.events WHERE xmin::text ="
            " (SELECT xmin::text FROM engine.events WHERE stream_id = 'first')"
        )
    assert (shared, alone) == (1, 1)
    assert [e.type for e in await pg_store.read_stream("b")] == ["B", "B2"]


async def test_in_a_shared_commit_a_conflict_fails_only_its_own_append(
    pg_store: PostgresEventStore,
) -> None:
    taken = uuid.uuid4()
    await pg_store.append_events("a", 0, [NewEvent("A", {})])
    await pg_store.append_events("x", 0, [NewEvent("X", {}, event_id=taken)])

    _, stale, fine, duplicate, also_fine = await asyncio.gather(
        pg_store.append_events("z", 0, [NewEvent("Z", {})]),  # commits alone; the rest share
        pg_store.append_events("a", 0, [NewEvent("late", {})]),
        pg_store.append_events("b", 0, [NewEvent("B", {})]),
        pg_store.append_events("c", 0, [NewEvent("C", {}, event_id=taken)]),
        pg_store.append_events("d", 0, [NewEvent("D", {}), NewEvent("D2", {})]),
        return_exceptions=True,
    )

    assert isinstance(stale, ConcurrencyError)
    assert isinstance(duplicate, DuplicateEventError)
    assert not isinstance(fine, BaseException) and [e.type for e in fine] == ["B"]
    assert not isinstance(also_fine, BaseException) and len(also_fine) == 2
    assert [await pg_store.stream_version(s) for s in "abcd"] == [1, 1, 0, 2]
    assert [e.stream_id for e in await pg_store.read_all(0)] == ["a", "x", "z", "b", "d", "d"]
