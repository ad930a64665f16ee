"""The engine's tables beside its event log: seeds, stream heads, deadlines, request ids.

Every command on a table runs in one transaction that first locks the table's row
(`lock_table`), so the deadlines, the request ids and the stream move together, and the
locks are always taken in the same order (table row, deadline rows, then the event log's
position counter, last) — no deadlocks between commands and the timer loop.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg

from tavolo.eventlog import PostgresEventStore, RecordedEvent
from tavolo.eventlog.integrity import IndexColumns
from tavolo.eventlog.schema import quoted_schema
from tavolo.servicekit.migrations import apply_migrations

MIGRATIONS = Path(__file__).parent / "migrations"


def stream_id(table_id: str) -> str:
    """A table's stream in the engine's event log."""
    return f"table-{table_id}"


def refused_stream_id(table_id: str) -> str:
    """Where the abort of a match that never became a table is recorded."""
    return f"refused-{table_id}"


def table_id_of(stream: str) -> str:
    """The table whose stream is ``stream`` (the inverse of `stream_id`)."""
    return stream.removeprefix("table-")


@dataclass(frozen=True, slots=True)
class DeadlineRow:
    """A stored timer: a rule timer (turn, call) or a bot's next move (kind ``bot``)."""

    table_id: str
    key: str
    seat: int
    kind: str
    due: datetime


@dataclass(frozen=True, slots=True)
class LockedTable:
    """A table's row as read under its lock, with its stored deadlines."""

    version: int
    status: str
    deadlines: dict[str, DeadlineRow]
    now: datetime  # the database's clock: every replica decides and times by this one


@dataclass(frozen=True, slots=True)
class HeadChange:
    """What one command writes beside its events: timers stopped and started, the head."""

    table_id: str
    version: int
    status: str
    stop: Sequence[str]
    start: Sequence[DeadlineRow]


@dataclass(frozen=True, slots=True)
class FiredCommand:
    """A fired timer's command, decided on the cached table at version ``expected``:
    the head it moves to (``version`` None: it decided nothing, the timer is dropped) and
    every timer the table wants running after it (the fired one restarts)."""

    table_id: str
    expected: int
    timer: str
    version: int | None
    status: str
    deadlines: Sequence[DeadlineRow]


class DatabaseClock:
    """The database's clock as last read, run on by this process's monotonic clock: what
    the timer loop decides fired timers by without a round trip to read ``now()``. Every
    replica still times tables by the database's clock (the due query reads it, and the
    commit checks each timer against the real ``now()``)."""

    def __init__(self) -> None:
        self._read: datetime | None = None
        self._at = 0.0

    def saw(self, now: datetime) -> None:
        self._read, self._at = now, time.monotonic()

    def now(self) -> datetime:
        if self._read is None:
            raise RuntimeError("the database's clock has not been read yet")
        return self._read + timedelta(seconds=time.monotonic() - self._at)


class TableStore:
    """SQL for the engine's own tables in schema ``schema`` (default ``engine``)."""

    def __init__(self, pool: asyncpg.Pool, schema: str = "engine") -> None:
        s = quoted_schema(schema)
        self.pool = pool
        self.schema = schema
        self.events = PostgresEventStore(pool, schema)
        self.channel = f"{schema}_tables"
        self.clock = DatabaseClock()
        # One round trip: lock the table's row and read its deadlines.
        self._lock = (
            "SELECT t.version, t.status, d.timer_key, d.seat, d.kind, d.due_at, now() AS db_now"
            f" FROM {s}.tables t LEFT JOIN {s}.deadlines d ON d.table_id = t.table_id"
            " WHERE t.table_id = $1 FOR UPDATE OF t"
        )
        self._lock_skip = self._lock + " SKIP LOCKED"
        self._seed = f"SELECT seed FROM {s}.tables WHERE table_id = $1"
        self._version = f"SELECT version FROM {s}.tables WHERE table_id = $1"
        self._head = f"SELECT version, status FROM {s}.tables WHERE table_id = $1"
        self._index = (
            "SELECT coalesce(array_agg(position ORDER BY position), '{}'),"
            " coalesce(array_agg(stream_id ORDER BY position), '{}'),"
            " coalesce(array_agg(version ORDER BY position), '{}'),"
            " coalesce(string_agg(hash, ''::bytea ORDER BY position), ''::bytea) FROM ("
            f"SELECT p.position, p.stream_id, p.version, e.hash FROM {s}.event_positions AS p"
            f" JOIN {s}.events AS e ON e.stream_id = p.stream_id AND e.version = p.version"
            " WHERE p.position > $1 ORDER BY p.position LIMIT $2) AS page"
        )
        self._log_head = f"SELECT position FROM {s}.event_log_head"
        self._event_hash = f"SELECT hash FROM {s}.events WHERE stream_id = $1 AND version = $2"
        self._insert_table = (
            f"INSERT INTO {s}.tables (table_id, game, mode, seed, seed_commitment, version)"
            " VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT (table_id) DO NOTHING RETURNING table_id"
        )
        # One round trip: stop timers, start (or restart) timers, move the head.
        # No row is both deleted and upserted: the caller keeps the two key sets apart.
        self._write_head = f"""
            WITH stopped AS (
                DELETE FROM {s}.deadlines WHERE table_id = $1 AND timer_key = ANY($2::text[])
            ), started AS (
                INSERT INTO {s}.deadlines (table_id, timer_key, seat, kind, due_at)
                SELECT $1, k, st, kd, d FROM unnest($3::text[], $4::int[], $5::text[],
                                                    $6::timestamptz[]) AS x(k, st, kd, d)
                ON CONFLICT (table_id, timer_key) DO UPDATE
                    SET seat = excluded.seat, kind = excluded.kind, due_at = excluded.due_at
            ), head AS (
                UPDATE {s}.tables SET version = $7, status = $8,
                    closed_at = CASE WHEN $8 = 'playing' THEN NULL ELSE now() END
                WHERE table_id = $1
            )
            SELECT 1
        """
        self._commit_fired = (
            f"SELECT table_id, outcome FROM {s}.commit_fired($1, $2, $3, $4, $5, $6, $7, $8,"
            " $9, $10, $11, $12, $13, $14, $15, $16, $17, $18, $19, $20, $21, $22)"
        )
        self._delete_deadline = f"DELETE FROM {s}.deadlines WHERE table_id = $1 AND timer_key = $2"
        self._due = (
            "SELECT table_id, timer_key, seat, kind, due_at,"
            " extract(epoch FROM now() - due_at)::float8 AS waited, now() AS db_now"
            f" FROM {s}.deadlines"
            " WHERE due_at <= now() ORDER BY due_at LIMIT $1"
        )
        self._next_due = f"SELECT min(due_at) - now() FROM {s}.deadlines"
        self._find_request = (
            f"SELECT version FROM {s}.requests"
            " WHERE table_id = $1 AND player_id = $2 AND request_id = $3"
        )
        self._save_request = (
            f"INSERT INTO {s}.requests (table_id, player_id, request_id, version)"
            " VALUES ($1, $2, $3, $4)"
        )

    async def install(self) -> None:
        """The event log's tables, then the engine's migrations (idempotent)."""
        await self.events.install()
        await apply_migrations(self.pool, self.schema, MIGRATIONS)

    # -- inside a command's transaction -------------------------------------------------

    async def lock_table(
        self, conn: Any, table_id: str, *, skip_locked: bool = False
    ) -> LockedTable | None:
        """Lock the table's row (or skip it if another transaction holds it)."""
        rows = await conn.fetch(self._lock_skip if skip_locked else self._lock, table_id)
        return _locked(table_id, rows) if rows else None

    async def create_table(
        self, conn: Any, table_id: str, game: str, mode: str, seed: bytes, commitment: str
    ) -> bool:
        """Insert the table's row; False when a table with this id exists already."""
        inserted = await conn.fetchval(self._insert_table, table_id, game, mode, seed, commitment)
        return inserted is not None

    async def write_head(self, conn: Any, change: HeadChange) -> None:
        """Stop the timers ``change.stop``, start (or restart) ``change.start``, move the
        head (the caller announces it to other replicas after the commit)."""
        await conn.execute(
            self._write_head,
            change.table_id,
            list(change.stop),
            [d.key for d in change.start],
            [d.seat for d in change.start],
            [d.kind for d in change.start],
            [d.due for d in change.start],
            change.version,
            change.status,
        )

    async def commit_fired(
        self, fired: Sequence[FiredCommand], events: tuple[list[Any], ...]
    ) -> dict[str, str]:
        """Commit the commands of fired timers of many tables in one statement (see
        ``002_commit_fired.sql``): each table's outcome, ``'written'`` or why not.
        ``events`` are ``append_group``'s columns for their events."""
        wanted = [(c.table_id, d, d.key == c.timer) for c in fired for d in c.deadlines]
        tables_of_events = [table_id_of(stream) for stream in events[0]]
        async with self.pool.acquire() as conn:
            rows = await conn.fetch(
                self._commit_fired,
                [c.table_id for c in fired],
                [c.expected for c in fired],
                [c.timer for c in fired],
                [c.version for c in fired],
                [c.status for c in fired],
                [t for t, _, _ in wanted],
                [d.key for _, d, _ in wanted],
                [d.seat for _, d, _ in wanted],
                [d.kind for _, d, _ in wanted],
                [d.due for _, d, _ in wanted],
                [restart for _, _, restart in wanted],
                tables_of_events,
                *events,
            )
        return {r["table_id"]: r["outcome"] for r in rows}

    async def drop_deadline(self, conn: Any, table_id: str, key: str) -> None:
        await conn.execute(self._delete_deadline, table_id, key)

    async def find_request(
        self, conn: Any, table_id: str, player_id: str, request_id: str
    ) -> int | None:
        version = await conn.fetchval(self._find_request, table_id, player_id, request_id)
        return int(version) if version is not None else None

    async def save_request(
        self, conn: Any, table_id: str, player_id: str, request_id: str, version: int
    ) -> None:
        await conn.execute(self._save_request, table_id, player_id, request_id, version)

    # -- reads ------------------------------------------------------------------------

    async def seed(self, table_id: str, conn: Any = None) -> bytes | None:
        async with self._connection(conn) as c:
            seed = await c.fetchval(self._seed, table_id)
        return bytes(seed) if seed is not None else None

    async def version(self, table_id: str) -> int | None:
        async with self.pool.acquire() as conn:
            version = await conn.fetchval(self._version, table_id)
        return int(version) if version is not None else None

    async def log_and_head(
        self, table_id: str
    ) -> tuple[list[RecordedEvent], tuple[int, str] | None]:
        """The table's log and its row's version and status, from one snapshot."""
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read"):
            events = await self.read_events(table_id, conn=conn)
            row = await conn.fetchrow(self._head, table_id)
        return events, (int(row["version"]), str(row["status"])) if row is not None else None

    async def log_index(self, after_position: int, limit: int) -> tuple[IndexColumns, int]:
        """A page of the whole log's index, and the last position handed out.

        The page comes back as four aggregates, one row: decoding arrays costs the
        client a fraction of decoding one record per event.
        """
        async with self.pool.acquire() as conn, conn.transaction(isolation="repeatable_read"):
            positions, streams, versions, hashes = await conn.fetchrow(
                self._index, after_position, limit
            )
            head = await conn.fetchval(self._log_head)
        return IndexColumns(positions, streams, versions, bytes(hashes)), int(head or 0)

    async def event_hash(self, table_id: str, version: int) -> bytes | None:
        """The hash of the table's event ``version``, if stored."""
        async with self.pool.acquire() as conn:
            found = await conn.fetchval(self._event_hash, stream_id(table_id), version)
        return bytes(found) if found is not None else None

    async def read_events(
        self, table_id: str, from_version: int = 1, conn: Any = None
    ) -> list[RecordedEvent]:
        return await self.events.read_stream(stream_id(table_id), from_version, conn=conn)

    async def now(self) -> datetime:
        """The database's clock, the one every replica times tables by."""
        async with self.pool.acquire() as conn:
            now: datetime = await conn.fetchval("SELECT now()")
        return now

    async def due(self, limit: int) -> tuple[list[DeadlineRow], float]:
        """Deadlines due by the database's clock (replicas' clocks may disagree), and how
        many seconds the oldest of them has waited (0 when none is due)."""
        found = await self.due_waits(limit)
        return [row for row, _ in found], max((waited for _, waited in found), default=0.0)

    async def due_waits(self, limit: int) -> list[tuple[DeadlineRow, float]]:
        """Deadlines due by the database's clock, each with the seconds it has waited."""
        async with self.pool.acquire() as conn:
            rows = await conn.fetch(self._due, limit)
        if rows:
            self.clock.saw(rows[0]["db_now"])
        return [(_deadline(r), float(r["waited"])) for r in rows]

    async def next_due(self) -> timedelta | None:
        """How long until the next deadline by the database's clock; None if none."""
        async with self.pool.acquire() as conn:
            wait: timedelta | None = await conn.fetchval(self._next_due)
        return wait

    def _connection(self, conn: Any) -> Any:
        return _Borrowed(conn) if conn is not None else self.pool.acquire()


class _Borrowed:
    """An async context manager that hands back a connection the caller already holds."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def __aenter__(self) -> Any:
        return self._conn

    async def __aexit__(self, *exc: object) -> None:
        return None


def _locked(table_id: str, rows: Sequence[Any]) -> LockedTable:
    """A table's row and its deadlines, from the lock statement's rows (one per deadline)."""
    deadlines = {
        r["timer_key"]: DeadlineRow(table_id, r["timer_key"], r["seat"], r["kind"], r["due_at"])
        for r in rows
        if r["timer_key"] is not None
    }
    return LockedTable(rows[0]["version"], rows[0]["status"], deadlines, rows[0]["db_now"])


def _deadline(row: Any) -> DeadlineRow:
    return DeadlineRow(row["table_id"], row["timer_key"], row["seat"], row["kind"], row["due_at"])
