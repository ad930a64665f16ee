"""The event store on PostgreSQL (asyncpg), one schema per service.

How the global position stays safe to tail
------------------------------------------
A reader that tails ``position > last_seen`` must never be passed by an event that
commits late with a smaller position. With a plain sequence (or SERIAL) that happens:
transaction A takes position 7, B takes 8, B commits first, the reader sees 8 and moves
on, then A commits 7 behind it and 7 is never read. Three cures are known:

1. Lock the table for writes in each append (eventsourcing's ``_lock_table``): appends
   take positions and commit one at a time, so commit order is position order.
2. Filter by transaction id (``pg_current_xact_id()`` stored per row, read only below
   ``pg_snapshot_xmin(pg_current_snapshot())``): writers stay concurrent, but the order a
   reader can follow is (transaction id, position), not one integer; every long
   transaction anywhere in the database holds all readers back; and an id drawn before the
   snapshot a statement already holds makes the rule easy to get subtly wrong.
3. A high-water mark that waits for gaps to fill and gives up after a timeout: a writer
   slower than the timeout is skipped for ever, which guarantee 6 forbids.

We take cure 1 in the form of a counter row: each append runs ``UPDATE event_log_head SET
position = position + n`` in its own transaction. The row lock is held to commit, so a
second appender waits there, then reads the first one's committed value (READ
COMMITTED re-reads a row it waited for) and takes the next positions; PostgreSQL marks a
transaction visible before it releases its locks, so whenever position p is visible every
position below p is too. Compared with ``LOCK TABLE ... IN EXCLUSIVE MODE``, the row
leaves the events table free for autovacuum and index builds (which an EXCLUSIVE table
lock would queue behind every append), and it makes positions gapless: a rolled-back
append rolls the counter back, so a hole in the positions means a deleted row.

The price is that appends to one schema commit one at a time, from the counter update to
commit. Appends therefore take their positions as late as possible: the stale-version
check and hashing happen before, and a caller that appends inside its own transaction
should append last, just before commit (holding the counter while doing other work makes
every other appender wait, and locking rows after it invites deadlocks). Each service has
its own schema and so its own counter. bench/bench_eventlog.py prints what this costs.

Appending inside a caller's transaction
---------------------------------------
Pass ``conn`` (an asyncpg connection). If it is inside a transaction the append runs in
a savepoint, so a ConcurrencyError leaves the caller's transaction usable; the events
commit or roll back with the caller's own rows. Use READ COMMITTED (the default): under
REPEATABLE READ a concurrent append makes the counter update fail to serialise.
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Callable, Sequence
from datetime import UTC, datetime
from typing import Any

import asyncpg

from tavolo.eventlog import schema as _schema
from tavolo.eventlog._records import build_records, is_retry_of, validate_append, with_positions
from tavolo.eventlog.canonical import GENESIS_HASH, encode_json
from tavolo.eventlog.errors import ConcurrencyError, DuplicateEventError
from tavolo.eventlog.model import NewEvent, RecordedEvent, VerificationResult
from tavolo.eventlog.verification import verify_chain

_COLUMNS = (
    "position, stream_id, version, event_id, type, data, metadata, recorded_at, prev_hash, hash"
)


def utc_now() -> datetime:
    return datetime.now(UTC)


class PostgresEventStore:
    """Streams of events in ``<schema>.events``; see the module docstring for the design."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        schema: str,
        *,
        clock: Callable[[], datetime] = utc_now,
        new_id: Callable[[], uuid.UUID] = uuid.uuid4,
    ) -> None:
        s = _schema.quoted_schema(schema)
        self.pool = pool
        self.schema = schema
        self._clock = clock
        self._new_id = new_id
        self._sql_head = (
            f"SELECT version, hash FROM {s}.events WHERE stream_id = $1"
            " ORDER BY version DESC LIMIT 1"
        )
        # One statement: take n positions from the counter row (locking it until commit)
        # and insert the events with them.
        self._sql_append = f"""
            WITH head AS (
                UPDATE {s}.event_log_head SET position = position + $1
                RETURNING position - $1 AS base
            )
            INSERT INTO {s}.events ({_COLUMNS})
            SELECT head.base + e.ord, $2, e.version, e.event_id, e.type, e.data::json,
                   e.metadata::json, $3, e.prev_hash, e.hash
            FROM head, unnest($4::int[], $5::uuid[], $6::text[], $7::text[], $8::text[],
                              $9::bytea[], $10::bytea[])
                 WITH ORDINALITY AS e(version, event_id, type, data, metadata, prev_hash,
                                      hash, ord)
            RETURNING position
        """
        self._sql_stream = (
            f"SELECT {_COLUMNS} FROM {s}.events WHERE stream_id = $1 AND version >= $2"
            " ORDER BY version"
        )
        self._sql_stream_range = (
            f"SELECT {_COLUMNS} FROM {s}.events WHERE stream_id = $1 AND version > $2"
            " ORDER BY version LIMIT $3"
        )
        self._sql_all = (
            f"SELECT {_COLUMNS} FROM {s}.events WHERE position > $1 ORDER BY position LIMIT $2"
        )
        self._sql_by_id = (
            f"SELECT event_id, stream_id, version FROM {s}.events WHERE event_id = ANY($1)"
        )
        self._sql_head_position = f"SELECT position FROM {s}.event_log_head"

    async def install(self, conn: Any = None) -> None:
        """Create this store's schema, tables and triggers if missing."""
        async with self._connection(conn) as c:
            await _schema.install(c, self.schema)

    async def append_events(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        conn: Any = None,
    ) -> list[RecordedEvent]:
        """Append after ``expected_version``; see `EventStore.append_events`."""
        validate_append(stream_id, expected_version, events)
        if not events:
            return []
        async with self._connection(conn) as c:
            head = await c.fetchrow(self._sql_head, stream_id)
            current = head["version"] if head else 0
            if current != expected_version:
                return await self._stale(c, stream_id, expected_version, current, events)
            head_hash = bytes(head["hash"]) if head else GENESIS_HASH
            records = build_records(
                stream_id, expected_version, head_hash, events, self._clock(), self._new_id
            )
            try:
                async with _savepoint(c):
                    positions = await c.fetch(
                        self._sql_append,
                        len(records),
                        stream_id,
                        records[0].recorded_at,
                        [r.version for r in records],
                        [r.event_id for r in records],
                        [r.type for r in records],
                        [encode_json(r.data) for r in records],
                        [encode_json(r.metadata) for r in records],
                        [r.prev_hash for r in records],
                        [r.hash for r in records],
                    )
            except asyncpg.UniqueViolationError as exc:
                if exc.constraint_name == "events_event_id_key":
                    raise await self._duplicate(c, records) from None
                # Another writer took the same version between our read and our insert.
                current = await self.stream_version(stream_id, conn=c)
                return await self._stale(c, stream_id, expected_version, current, events)
            return with_positions(records, min(row["position"] for row in positions))

    async def read_stream(
        self, stream_id: str, from_version: int = 1, *, conn: Any = None
    ) -> list[RecordedEvent]:
        async with self._connection(conn) as c:
            rows = await c.fetch(self._sql_stream, stream_id, from_version)
        return [_record(row) for row in rows]

    async def stream_version(self, stream_id: str, *, conn: Any = None) -> int:
        async with self._connection(conn) as c:
            version = await c.fetchval(self._sql_head, stream_id)
        return int(version) if version is not None else 0

    async def read_all(
        self, after_position: int = 0, limit: int = 1000, *, conn: Any = None
    ) -> list[RecordedEvent]:
        if limit < 1:
            raise ValueError(f"limit must be 1 or more, not {limit}")
        async with self._connection(conn) as c:
            rows = await c.fetch(self._sql_all, after_position, limit)
        return [_record(row) for row in rows]

    async def head_position(self, *, conn: Any = None) -> int:
        async with self._connection(conn) as c:
            return int(await c.fetchval(self._sql_head_position))

    async def verify_stream(self, stream_id: str) -> VerificationResult:
        return verify_chain(stream_id, await self.read_stream(stream_id))

    async def _stale(
        self,
        c: Any,
        stream_id: str,
        expected_version: int,
        current: int,
        events: Sequence[NewEvent],
    ) -> list[RecordedEvent]:
        """A retry of an append that already committed succeeds; anything else conflicts."""
        if current > expected_version and all(e.event_id is not None for e in events):
            rows = await c.fetch(self._sql_stream_range, stream_id, expected_version, len(events))
            recorded = [_record(row) for row in rows]
            if is_retry_of(events, recorded):
                return recorded
        raise ConcurrencyError(stream_id, current, expected_version)

    async def _duplicate(self, c: Any, records: Sequence[RecordedEvent]) -> DuplicateEventError:
        rows = await c.fetch(self._sql_by_id, [r.event_id for r in records])
        taken = {row["event_id"]: (row["stream_id"], row["version"]) for row in rows}
        for record in records:
            if record.event_id in taken:
                return DuplicateEventError(record.event_id, *taken[record.event_id])
        raise RuntimeError("unique violation on event_id, yet no event holds these ids")

    @contextlib.asynccontextmanager
    async def _connection(self, conn: Any) -> AsyncIterator[Any]:
        if conn is not None:
            yield conn
        else:
            async with self.pool.acquire() as acquired:
                yield acquired


@contextlib.asynccontextmanager
async def _savepoint(conn: Any) -> AsyncIterator[None]:
    """A savepoint inside the caller's transaction; nothing extra on a bare connection."""
    if conn.is_in_transaction():
        async with conn.transaction():
            yield
    else:
        yield


def _record(row: Any) -> RecordedEvent:
    return RecordedEvent(
        stream_id=row["stream_id"],
        version=row["version"],
        position=row["position"],
        event_id=row["event_id"],
        type=row["type"],
        data=json.loads(row["data"]),
        metadata=json.loads(row["metadata"]),
        recorded_at=row["recorded_at"],
        prev_hash=bytes(row["prev_hash"]),
        hash=bytes(row["hash"]),
    )
