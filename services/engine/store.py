"""The engine's tables beside its event log: seeds, stream heads, deadlines, request ids.

Every command on a table is committed by one statement, ``commit_commands``
(``migrations/003_commit_commands.sql``): it locks the table's row, checks the decision
still holds and writes the events, the deadlines, the request id and the head together,
so they always move together and no row lock lives across a round trip.
"""

from __future__ import annotations

import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta
from pathlib import Path
from typing import Any

import asyncpg

from tavolo.engine.pooled import one_statement
from tavolo.eventlog import PostgresEventStore, RecordedEvent
from tavolo.eventlog.integrity import IndexColumns
from tavolo.eventlog.postgres import PreparedGroup
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
class Request:
    """A caller's request id, scoped to the caller: a retry gets the first answer."""

    player_id: str
    request_id: str


@dataclass(frozen=True, slots=True)
class Command:
    """A command decided on the cached table at version ``expected``, for
    ``commit_commands``: the head it moves to (``version`` None: a fired timer decided
    nothing and is dropped), every timer the table wants running after it, the timer it
    fires (which restarts) and the caller's request id, if any."""

    table_id: str
    expected: int
    version: int | None
    status: str
    deadlines: Sequence[DeadlineRow]
    timer: str | None = None
    request: Request | None = None


@dataclass(frozen=True, slots=True)
class Committed:
    """How a command ended (see ``003_commit_commands.sql``): ``written``, ``busy``,
    ``retried``, ``moved``, ``gone`` or ``stale``; and the version: the one a retried
    request produced, else the table's row version now."""

    outcome: str
    version: int | None


class DatabaseClock:
    """The database's clock as last read, run on by this process's monotonic clock: what
    the timer loop decides fired timers by without a round trip to read ``now()``. Every
    replica still times tables by the database's clock (the due query reads it, and the
    commit checks each timer against the real ``now()``)."""

    def __init__(self) -> None:
        self._read: datetime | None = None
        self._at = 0.0

    @property
    def known(self) -> bool:
        return self._read is not None

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
        self._seed = f"SELECT seed FROM {s}.tables WHERE table_id = $1"
        self._version = f"SELECT version FROM {s}.tables WHERE table_id = $1"
        self._head = f"SELECT version, status FROM {s}.tables WHERE table_id = $1"
        self._index = (
            "SELECT coalesce(array_agg(position ORDER BY position), '{}'),"
            " coalesce(array_agg(stream_id ORDER BY position), '{}'),"
            " coalesce(array_agg(version ORDER BY position), '{}'),"
            " coalesce(string_agg(hash, ''::bytea ORDER BY position), ''::bytea) FROM ("
            # An event deleted from ``events`` keeps its place in ``event_positions``: it
            # comes out with the zero hash (DELETED_HASH), so the index names its owner.
            "SELECT p.position, p.stream_id, p.version,"
            " coalesce(e.hash, decode(repeat('00', 32), 'hex')) AS hash"
            f" FROM {s}.event_positions AS p LEFT JOIN {s}.events AS e"
            " ON e.stream_id = p.stream_id AND e.version = p.version"
            " WHERE p.position > $1 ORDER BY p.position LIMIT $2) AS page"
        )
        self._log_head = f"SELECT position FROM {s}.event_log_head"
        self._event_hash = f"SELECT hash FROM {s}.events WHERE stream_id = $1 AND version = $2"
        self._insert_table = (
            f"INSERT INTO {s}.tables (table_id, game, mode, seed, seed_commitment, version)"
            " VALUES ($1, $2, $3, $4, $5, 0) ON CONFLICT (table_id) DO NOTHING RETURNING table_id"
        )
        self._commit = (
            f"SELECT table_id, outcome, version, db_now FROM {s}.commit_commands("
            + ", ".join(f"${n}" for n in range(1, 24))
            + ")"
        )
        self._commit_one = (
            f"SELECT outcome, version, db_now FROM {s}.commit_command("
            + ", ".join(f"${n}" for n in range(1, 22))
            + ")"
        )
        self._head_and_request = (
            f"SELECT (SELECT max(e.version) FROM {s}.events AS e WHERE e.stream_id = $1),"
            f" (SELECT q.version FROM {s}.requests AS q WHERE q.table_id = $2"
            " AND q.player_id = $3 AND q.request_id = $4)"
        )
        self._due = (
            "SELECT table_id, timer_key, seat, kind, due_at,"
            " extract(epoch FROM now() - due_at)::float8 AS waited, now() AS db_now"
            f" FROM {s}.deadlines"
            " WHERE due_at <= now() ORDER BY due_at LIMIT $1"
        )
        self._next_due = f"SELECT min(due_at) - now() FROM {s}.deadlines"

    async def install(self) -> None:
        """The event log's tables, then the engine's migrations (idempotent)."""
        await self.events.install()
        await apply_migrations(self.pool, self.schema, MIGRATIONS)

    # -- writing ----------------------------------------------------------------------

    async def create_table(
        self, conn: Any, table_id: str, game: str, mode: str, seed: bytes, commitment: str
    ) -> bool:
        """Insert the table's row; False when a table with this id exists already."""
        inserted = await conn.fetchval(self._insert_table, table_id, game, mode, seed, commitment)
        return inserted is not None

    async def commit_commands(
        self,
        commands: Sequence[Command],
        events: PreparedGroup,
        *,
        wait: bool,
        conn: Any = None,
    ) -> dict[str, Committed]:
        """Commit commands of distinct tables in one statement (see
        ``003_commit_commands.sql``): how each ended. ``events`` are their events,
        prepared in the commands' order; ``wait`` waits for a table another transaction
        holds (a player's command) where the timer loop skips it."""
        columns = events.event_columns()
        wanted = [d for c in commands for d in c.deadlines]
        per_command = (
            [c.table_id for c in commands],
            [stream_id(c.table_id) for c in commands],
            [c.expected for c in commands],
            [c.timer for c in commands],
            [c.version for c in commands],
            [c.status for c in commands],
            [c.request.player_id if c.request else None for c in commands],
            [c.request.request_id if c.request else None for c in commands],
        )
        deadlines = (
            [d.key for d in wanted],
            [d.seat for d in wanted],
            [d.kind for d in wanted],
            [d.due for d in wanted],
        )
        async with self._connection(conn) as c:
            if len(commands) == 1:  # the common case, without the batch's loop
                one = [column[0] for column in per_command]
                row = await c.fetchrow(self._commit_one, wait, *one, *deadlines, *columns)
                outcomes = [(commands[0].table_id, row)]
            else:
                counts = events.counts()
                rows = await c.fetch(
                    self._commit,
                    wait,
                    *per_command,
                    [len(c.deadlines) for c in commands],
                    *deadlines,
                    [counts.get(stream, 0) for stream in per_command[1]],
                    *columns,
                )
                outcomes = [(r["table_id"], r) for r in rows]
        if outcomes:
            self.clock.saw(outcomes[0][1]["db_now"])
        return {t: Committed(r["outcome"], r["version"]) for t, r in outcomes}

    async def head_and_request(
        self, table_id: str, request: Request | None
    ) -> tuple[int, int | None]:
        """The version of the table's stream (the truth, which the row follows) and the
        version ``request`` produced if it was answered before, in one read."""
        player, request_id = (request.player_id, request.request_id) if request else ("", "")
        async with self._one() as conn:
            head, answered = await conn.fetchrow(
                self._head_and_request, stream_id(table_id), table_id, player, request_id
            )
        return int(head or 0), answered

    # -- reads ------------------------------------------------------------------------

    async def seed(self, table_id: str, conn: Any = None) -> bytes | None:
        async with self._connection(conn) as c:
            seed = await c.fetchval(self._seed, table_id)
        return bytes(seed) if seed is not None else None

    async def version(self, table_id: str) -> int | None:
        async with self._one() as conn:
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
        async with self._one() as conn:
            found = await conn.fetchval(self._event_hash, stream_id(table_id), version)
        return bytes(found) if found is not None else None

    async def read_events(
        self, table_id: str, from_version: int = 1, conn: Any = None
    ) -> list[RecordedEvent]:
        return await self.events.read_stream(stream_id(table_id), from_version, conn=conn)

    async def now(self) -> datetime:
        """The database's clock, the one every replica times tables by."""
        async with self._one() as conn:
            now: datetime = await conn.fetchval("SELECT now()")
        self.clock.saw(now)
        return now

    async def due(self, limit: int) -> tuple[list[DeadlineRow], float]:
        """Deadlines due by the database's clock (replicas' clocks may disagree), and how
        many seconds the oldest of them has waited (0 when none is due)."""
        found = await self.due_waits(limit)
        return [row for row, _ in found], max((waited for _, waited in found), default=0.0)

    async def due_waits(self, limit: int) -> list[tuple[DeadlineRow, float]]:
        """Deadlines due by the database's clock, each with the seconds it has waited."""
        async with self._one() as conn:
            rows = await conn.fetch(self._due, limit)
        if rows:
            self.clock.saw(rows[0]["db_now"])
        return [(_deadline(r), float(r["waited"])) for r in rows]

    async def next_due(self) -> timedelta | None:
        """How long until the next deadline by the database's clock; None if none."""
        async with self._one() as conn:
            wait: timedelta | None = await conn.fetchval(self._next_due)
        return wait

    def _connection(self, conn: Any) -> Any:
        return _Borrowed(conn) if conn is not None else self._one()

    def _one(self) -> Any:
        """A connection for one statement, given back without holding the caller up."""
        return one_statement(self.pool)


class _Borrowed:
    """An async context manager that hands back a connection the caller already holds."""

    def __init__(self, conn: Any) -> None:
        self._conn = conn

    async def __aenter__(self) -> Any:
        return self._conn

    async def __aexit__(self, *exc: object) -> None:
        return None


def _deadline(row: Any) -> DeadlineRow:
    return DeadlineRow(row["table_id"], row["timer_key"], row["seat"], row["kind"], row["due_at"])
