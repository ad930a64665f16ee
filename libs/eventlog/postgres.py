"""The event store on PostgreSQL (asyncpg), one schema per service.

How the global position stays safe to tail, without serialising appends
-----------------------------------------------------------------------
A reader that tails ``position > last_seen`` must never be passed by an event that
commits late with a smaller position. With a plain sequence (or SERIAL) that happens:
transaction A takes position 7, B takes 8, B commits first, the reader sees 8 and moves
on, then A commits 7 behind it and 7 is never read. The known cures are a lock that makes
commit order position order (eventsourcing's ``_lock_table``), filtering by transaction
id (``pg_snapshot_xmin``: the order becomes (xid, position), and any long transaction in
the database holds every reader back), or a high-water mark that gives up on a gap after
a timeout (a slow writer is then skipped for ever, which guarantee 6 forbids).

This log used to take the lock in each append, as a counter row updated in the append's
transaction and held to its commit. That made every append of a service -- every action
of every table on every engine replica -- commit one after the other: the row, not the
work, set the platform's throughput.

So positions are now handed out *after* the append, by a sequencer:

1. An append inserts its events (``position`` NULL) and a marker row in
   ``events_unsequenced`` (one for the append's versions, or one per event from the
   functions for callers' statements), in one statement. It touches no row another
   append of another stream needs, so appends commit side by side and PostgreSQL
   flushes them together.
2. ``sequence_events(n)`` (a function in the schema, one round trip) locks the counter row
   ``event_log_head``, takes the waiting markers in the order they were inserted, writes
   ``event_positions`` rows with the next positions, moves the counter and commits. The
   counter row is held to commit as before, so whenever position p is visible every
   position below it is too: tailing ``event_positions`` is exactly as safe as tailing the
   old column, and positions stay gapless (a hole means a deleted row). The lock is now
   taken once per batch of up to thousands of events, by whoever tails, instead of once
   per append by every writer.
3. `read_all` and `head_position` sequence first (on a connection outside a transaction),
   so any tailer -- the outbox relay, a checkpoint signer, a test -- moves positions on.

Why not partitions, each with its own counter? A fixed number of partitions, each tailed
on its own, also frees appends from one lock, but it takes away the one total order that
signed checkpoints fold their digest over (``tavolo.eventlog.checkpoint``), that
``GetLogIndex`` and ``tavolo audit verify`` check for gaps, and that the relay publishes
in: every one of them would have to learn vectors of positions, and an idle partition
would hold a checkpoint back. The sequencer keeps that order and every reader of it
as it was, and the price is a short delay before an event has a position (an appended
event's ``position`` is 0 until then; `read_stream` shows it once handed out) and one
small extra row written and deleted per append (per event in a caller's statement).

Order within a stream is kept: a stream's version v+1 can only be inserted after version
v committed (the version check below sees v), so its marker always draws a larger id.

One round trip per append
-------------------------
The stale-version check needs the hash of the stream's head to chain onto. The store
remembers the last version and hash it wrote or read per stream, and the insert proves
the link itself: it writes nothing unless version ``expected`` exists with that hash
(or ``expected`` is 0), and ``PRIMARY KEY (stream_id, version)`` refuses a second writer.
A remembered head that turns out wrong (another replica moved the stream, or the
caller's transaction rolled back) costs one re-read, never a wrong chain.

Group commit
------------
Appends made without ``conn`` go through `tavolo.eventlog.group_commit`: those arriving
while a commit is in flight share the next transaction: one call of ``append_group`` (a
function in the schema) for all of them, one round trip. Each append's link and version
are checked on their own, and a stale one is simply not written (``ON CONFLICT DO
NOTHING`` on the primary key), then settled alone: a retry
of a committed append is recognised, anything else fails with ConcurrencyError for that
caller only. A duplicate event id fails the whole statement, as does a race that would
leave an append partly written; the batch is then re-run one append at a time, so the
error reaches only the append that caused it. The connection of a commit is kept for
the next one if it follows at once (`tavolo.eventlog.kept_connection`): a steady writer
and the group's batches take no connection from the pool per commit.

Appends written by a caller's own statement
-------------------------------------------
`prepare_group` drafts appends (links, hashes, ids) for a caller whose own SQL function
calls ``append_group`` or ``append_one`` beside its other writes, so a whole command is
one round trip (every engine command is committed so). It drafts only appends to streams whose
head this store remembers (`read_stream` and `learn_heads` teach it heads);
`settle_group` then records which streams were written.

Appending inside a caller's transaction
---------------------------------------
Pass ``conn`` (an asyncpg connection). If it is inside a transaction the append runs in
``append_one``, a function whose exception block is a savepoint: a ConcurrencyError
leaves the caller's transaction usable, in one round trip where a client-side savepoint
took three (SAVEPOINT, the insert, RELEASE). The events commit or roll back with the
caller's own rows. Nothing is locked beyond the new rows, so the append may come
anywhere in the caller's transaction.
"""

from __future__ import annotations

import contextlib
import json
import uuid
from collections.abc import AsyncIterator, Callable, Collection, Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from typing import Any

import asyncpg

from tavolo.eventlog import schema as _schema
from tavolo.eventlog._records import (
    Draft,
    draft_records,
    is_retry_of,
    stamped,
    validate_append,
)
from tavolo.eventlog.canonical import GENESIS_HASH
from tavolo.eventlog.errors import ConcurrencyError, DuplicateEventError
from tavolo.eventlog.group_commit import GroupCommit, PendingAppend
from tavolo.eventlog.integrity import IndexEntry
from tavolo.eventlog.kept_connection import KeptConnection
from tavolo.eventlog.model import NewEvent, RecordedEvent, StreamAppend, VerificationResult
from tavolo.eventlog.verification import verify_chain

#: Events given positions per call of ``sequence_events``.
SEQUENCE_BATCH = 10_000
#: Stream heads remembered for one-round-trip appends (about 150 bytes each).
REMEMBERED_HEADS = 50_000
#: How one append ended (`PostgresEventStore._insert_one`).
_WRITTEN, _STALE, _EVENT_ID_TAKEN = "written", "stale", "events_event_id_key"

_EVENT_COLUMNS = (
    "e.stream_id, e.version, e.event_id, e.type, e.data, e.metadata, e.recorded_at,"
    " e.prev_hash, e.hash"
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
        self._heads: dict[str, tuple[int, bytes]] = {}
        self._group = GroupCommit(self)
        self._writer = KeptConnection(pool)
        self._sql_head = (
            f"SELECT version, hash FROM {s}.events WHERE stream_id = $1"
            " ORDER BY version DESC LIMIT 1"
        )
        self._sql_heads = (
            "SELECT s.id AS stream_id, h.version, h.hash FROM unnest($1::text[]) AS s(id)"
            " CROSS JOIN LATERAL (SELECT version, hash FROM"
            f" {s}.events WHERE stream_id = s.id ORDER BY version DESC LIMIT 1) AS h"
        )
        # One append to one stream (see eventlog_004_append_one.sql, its twin for use
        # inside a caller's transaction): the link is one scalar check, which PostgreSQL
        # plans in a fraction of the general batch statement's time. A single event, the
        # commonest append, comes as scalars: no one-element arrays to encode and unnest.
        # Several come packed (`_packed`): what the batch's position says (version, the
        # previous hash) is not sent, and data and metadata come as one JSON array each.
        self._sql_insert_one = _append_statement(
            s,
            "cardinality($4::uuid[])",
            "$2::int + b.ord::int, b.event_id, b.type, b.data, b.metadata, $8::timestamptz,"
            " CASE WHEN b.ord = 1 THEN $3::bytea"
            " ELSE substring($9::bytea FROM b.ord::int * 32 - 63 FOR 32) END,"
            " substring($9::bytea FROM b.ord::int * 32 - 31 FOR 32)",
            "FROM ROWS FROM (unnest($4::uuid[]), unnest($5::text[]), json_array_elements($6::json),"
            " json_array_elements($7::json)) WITH ORDINALITY"
            " AS b(event_id, type, data, metadata, ord)",
        )
        self._sql_insert_single = _append_statement(
            s, "1", "$4, $5, $6, $7::json, $8::json, $9, $10, $11"
        )
        self._sql_append_one = (
            f"SELECT {s}.append_one($1, $2, $3, $4, $5, $6, $7, $8, $9, $10, $11)"
        )
        self._sql_insert_group = (
            f"SELECT s AS stream_id FROM {s}.append_group($1, $2, $3, $4, $5, $6, $7, $8, $9,"
            " $10) AS s"
        )
        joined = (
            f"SELECT coalesce(p.position, 0) AS position, {_EVENT_COLUMNS} FROM {s}.events AS e"
            f" LEFT JOIN {s}.event_positions AS p"
            " ON p.stream_id = e.stream_id AND p.version = e.version"
        )
        self._sql_stream = f"{joined} WHERE e.stream_id = $1 AND e.version >= $2 ORDER BY e.version"
        self._sql_stream_range = (
            f"{joined} WHERE e.stream_id = $1 AND e.version > $2 ORDER BY e.version LIMIT $3"
        )
        self._sql_all = (
            f"SELECT p.position, {_EVENT_COLUMNS} FROM {s}.event_positions AS p"
            f" JOIN {s}.events AS e ON e.stream_id = p.stream_id AND e.version = p.version"
            " WHERE p.position > $1 ORDER BY p.position LIMIT $2"
        )
        self._sql_index = (
            f"SELECT p.position, p.stream_id, p.version, e.hash FROM {s}.event_positions AS p"
            f" JOIN {s}.events AS e ON e.stream_id = p.stream_id AND e.version = p.version"
            " WHERE p.position > $1 ORDER BY p.position LIMIT $2"
        )
        self._sql_by_id = (
            f"SELECT event_id, stream_id, version FROM {s}.events WHERE event_id = ANY($1)"
        )
        self._sql_head_position = f"SELECT position FROM {s}.event_log_head"
        self._sql_sequence = f"SELECT {s}.sequence_events($1)"

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
        """Append after ``expected_version``; see `EventStore.append_events`.

        The recorded events come back with position 0: positions are handed out when the
        log is next tailed (see the module docstring).
        """
        validate_append(stream_id, expected_version, events)
        if not events:
            return []
        events = stamped(events)
        if conn is not None:
            return await self._append_on(conn, stream_id, expected_version, events)
        return await self._group.submit(PendingAppend(stream_id, expected_version, events))

    def prepare_group(
        self, appends: Sequence[StreamAppend]
    ) -> tuple[PreparedGroup, list[StreamAppend]]:
        """Records for appends that a caller's own statement writes through
        ``append_group`` or ``append_one`` (one round trip for a command that writes more
        than events: the engine's commands). Only appends to streams whose head this store
        remembers are prepared (no read); the others come back apart, for the ordinary
        path. After the statement, `settle_group` with the streams it wrote."""
        planned: list[tuple[str, list[Draft]]] = []
        unknown: list[StreamAppend] = []
        now = self._clock()
        for append in appends:
            validate_append(append.stream_id, append.expected_version, append.events)
            prev = self._hint(append.stream_id, append.expected_version)
            if prev is None or not append.events:
                unknown.append(append)
                continue
            drafts = draft_records(
                append.stream_id,
                append.expected_version,
                prev,
                stamped(append.events),
                now,
                self._new_id,
            )
            planned.append((append.stream_id, drafts))
        if len({stream for stream, _ in planned}) != len(planned):
            raise ValueError("appends prepared together go to distinct streams")
        return PreparedGroup(planned), unknown

    def settle_group(
        self, prepared: PreparedGroup, written: Collection[str]
    ) -> dict[str, list[RecordedEvent]]:
        """The recorded events of the streams written; the heads of the others are
        forgotten (their next append reads the stream's head)."""
        recorded: dict[str, list[RecordedEvent]] = {}
        for stream, drafts in prepared.planned:
            if stream in written:
                self._remember(drafts[-1].record)
                recorded[stream] = [d.record for d in drafts]
            else:
                self._heads.pop(stream, None)
        return recorded

    async def commit_group(self, batch: Sequence[PendingAppend]) -> None:
        """One transaction for ``batch`` (see `tavolo.eventlog.group_commit`), on the
        connection the last commit used if it follows at once (`KeptConnection`)."""
        async with self._writer.connection() as c:
            if len(batch) == 1:
                await self._settle_alone(c, batch[0])
                return
            planned, alone = await self._plan(c, batch)
            if planned:
                try:
                    written = await self._insert_group(c, planned)
                except (asyncpg.UniqueViolationError, asyncpg.SerializationError):
                    alone.extend(append for append, _ in planned)
                else:
                    for append, drafts in planned:
                        if append.stream_id in written:
                            self._remember(drafts[-1].record)
                            append.succeed([d.record for d in drafts])
                        else:
                            alone.append(append)
            for append in alone:
                await self._settle_alone(c, append)

    async def _plan(
        self, c: Any, batch: Sequence[PendingAppend]
    ) -> tuple[list[tuple[PendingAppend, list[Draft]]], list[PendingAppend]]:
        """The records of each append whose head is known; the others go alone."""
        unknown = [
            a.stream_id for a in batch if self._hint(a.stream_id, a.expected_version) is None
        ]
        heads: dict[str, tuple[int, bytes]] = {}
        if unknown:
            for row in await c.fetch(self._sql_heads, unknown):
                heads[row["stream_id"]] = (row["version"], bytes(row["hash"]))
        planned: list[tuple[PendingAppend, list[Draft]]] = []
        alone: list[PendingAppend] = []
        now = self._clock()
        for append in batch:
            prev = self._hint(append.stream_id, append.expected_version)
            if prev is None:
                version, head_hash = heads.get(append.stream_id, (0, GENESIS_HASH))
                prev = head_hash if version == append.expected_version else None
            if prev is None:
                alone.append(append)
                continue
            drafts = draft_records(
                append.stream_id, append.expected_version, prev, append.events, now, self._new_id
            )
            planned.append((append, drafts))
        return planned, alone

    async def _insert_group(
        self, c: Any, planned: Sequence[tuple[PendingAppend, list[Draft]]]
    ) -> set[str]:
        """Write every append whose version and link hold, in one statement (a race that
        would write an append in part fails it whole); the streams written."""
        drafts = [draft for _, group in planned for draft in group]
        rows = await c.fetch(self._sql_insert_group, *_arrays(drafts))
        return {row["stream_id"] for row in rows}

    async def _settle_alone(self, c: Any, append: PendingAppend) -> None:
        try:
            recorded = await self._append_on(
                c, append.stream_id, append.expected_version, append.events
            )
        except Exception as exc:
            append.fail(exc)
        else:
            append.succeed(recorded)

    async def _append_on(
        self,
        c: Any,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        trust_memory: bool = True,
    ) -> list[RecordedEvent]:
        """One append on ``c``: one statement when the stream's head is remembered."""
        prev = self._hint(stream_id, expected_version) if trust_memory else None
        if prev is None:
            head = await c.fetchrow(self._sql_head, stream_id)
            current = head["version"] if head else 0
            if current != expected_version:
                self._heads.pop(stream_id, None)
                return await self._stale(c, stream_id, expected_version, current, events)
            prev = bytes(head["hash"]) if head else GENESIS_HASH
        drafts = draft_records(
            stream_id, expected_version, prev, events, self._clock(), self._new_id
        )
        records = [d.record for d in drafts]
        outcome = await self._insert_one(c, stream_id, expected_version, prev, drafts)
        if outcome == _WRITTEN:
            self._remember(records[-1])
            return records
        self._heads.pop(stream_id, None)
        if outcome == _EVENT_ID_TAKEN:
            raise await self._duplicate(c, records)
        if outcome == _STALE and trust_memory:
            # The remembered head was not the stream's: read it and try once more.
            return await self._append_on(c, stream_id, expected_version, events, trust_memory=False)
        # Another writer took the version (or moved the stream) since we read it.
        current = await self.stream_version(stream_id, conn=c)
        return await self._stale(c, stream_id, expected_version, current, events)

    async def _insert_one(
        self, c: Any, stream_id: str, expected: int, prev: bytes, drafts: list[Draft]
    ) -> str:
        """Write one append: ``'written'``, ``'stale'`` (the link to ``prev`` does not hold)
        or the unique constraint that refused it; nothing is written unless ``'written'``.

        In a caller's transaction ``append_one`` does it, its exception block standing in
        for a savepoint (one round trip, not three); on a bare connection there is nothing
        to protect, and the plain statement is a little cheaper.
        """
        if c.is_in_transaction():
            args = (stream_id, expected, prev, *_columns(drafts))
            return str(await c.fetchval(self._sql_append_one, *args))
        if len(drafts) == 1:
            sql, args = self._sql_insert_single, (stream_id, expected, prev, *_single(drafts[0]))
        else:
            sql, args = self._sql_insert_one, (stream_id, expected, prev, *_packed(drafts))
        try:
            tag = await c.execute(sql, *args)  # "INSERT 0 <events written>"
        except asyncpg.UniqueViolationError as exc:
            return exc.constraint_name or "unique"
        return _STALE if tag.endswith(" 0") else _WRITTEN

    def _hint(self, stream_id: str, expected_version: int) -> bytes | None:
        """The remembered hash of ``expected_version``, if that is the head we know."""
        if expected_version == 0:
            return GENESIS_HASH
        known = self._heads.get(stream_id)
        if known is None or known[0] != expected_version:
            return None
        return known[1]

    def _remember(self, event: RecordedEvent) -> None:
        self._keep(event.stream_id, event.version, event.hash)

    def _keep(self, stream_id: str, version: int, head_hash: bytes) -> None:
        if len(self._heads) >= REMEMBERED_HEADS and stream_id not in self._heads:
            self._heads.clear()
        self._heads[stream_id] = (version, head_hash)

    async def read_stream(
        self, stream_id: str, from_version: int = 1, *, conn: Any = None
    ) -> list[RecordedEvent]:
        async with self._connection(conn) as c:
            rows = await c.fetch(self._sql_stream, stream_id, from_version)
        recorded = [_record(row) for row in rows]
        if recorded:
            self._remember(recorded[-1])  # read to the end: the head, as of this read
        return recorded

    async def learn_heads(self, stream_ids: Collection[str], *, conn: Any = None) -> None:
        """Read and remember the heads of ``stream_ids``, for `prepare_group`."""
        async with self._connection(conn) as c:
            rows = await c.fetch(self._sql_heads, list(stream_ids))
        for row in rows:
            self._keep(row["stream_id"], row["version"], bytes(row["hash"]))

    async def stream_version(self, stream_id: str, *, conn: Any = None) -> int:
        async with self._connection(conn) as c:
            version = await c.fetchval(self._sql_head, stream_id)
        return int(version) if version is not None else 0

    async def read_all(
        self, after_position: int = 0, limit: int = 1000, *, conn: Any = None
    ) -> list[RecordedEvent]:
        """Events in position order; hands out waiting positions first (outside a
        transaction), so whoever tails moves the log on."""
        if limit < 1:
            raise ValueError(f"limit must be 1 or more, not {limit}")
        async with self._connection(conn) as c:
            await self._sequence(c)
            rows = await c.fetch(self._sql_all, after_position, limit)
        return [_record(row) for row in rows]

    async def read_index(
        self, after_position: int = 0, limit: int = 1000, *, conn: Any = None
    ) -> list[IndexEntry]:
        if limit < 1:
            raise ValueError(f"limit must be 1 or more, not {limit}")
        async with self._connection(conn) as c:
            await self._sequence(c)
            rows = await c.fetch(self._sql_index, after_position, limit)
        return [
            IndexEntry(r["position"], r["stream_id"], r["version"], bytes(r["hash"])) for r in rows
        ]

    async def head_position(self, *, conn: Any = None) -> int:
        async with self._connection(conn) as c:
            head = await self._sequence(c)
            if head is None:
                head = await c.fetchval(self._sql_head_position)
            return int(head)

    async def _sequence(self, c: Any) -> int | None:
        """Give waiting events their positions; the head position, or None inside a
        transaction (holding the counter row there would serialise the caller's peers)."""
        if c.is_in_transaction():
            return None
        return int(await c.fetchval(self._sql_sequence, SEQUENCE_BATCH))

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


@dataclass(frozen=True, slots=True)
class PreparedGroup:
    """Appends drafted for a caller's own statement (`prepare_group`)."""

    planned: list[tuple[str, list[Draft]]]

    def columns(self) -> tuple[list[Any], ...]:
        """``append_group``'s parameters, in its order."""
        return _arrays(self._drafts())

    def event_columns(self) -> tuple[list[Any], ...]:
        """``append_one``'s per-event columns for every drafted event, stream after
        stream in the order prepared (how many are each stream's: `counts`)."""
        return _columns(self._drafts())

    def counts(self) -> dict[str, int]:
        """How many events each prepared stream has."""
        return {stream: len(drafts) for stream, drafts in self.planned}

    def _drafts(self) -> list[Draft]:
        return [draft for _, drafts in self.planned for draft in drafts]


def _columns(drafts: Sequence[Draft]) -> tuple[list[Any], ...]:
    """The per-event columns of an insert, one array each (the stream comes apart)."""
    records = [d.record for d in drafts]
    return (
        [r.version for r in records],
        [r.event_id for r in records],
        [r.type for r in records],
        [d.data_text for d in drafts],
        [d.metadata_text for d in drafts],
        [r.recorded_at for r in records],
        [r.prev_hash for r in records],
        [r.hash for r in records],
    )


def _packed(drafts: Sequence[Draft]) -> tuple[Any, ...]:
    """The events of one append for ``_sql_insert_one``: their ids and types, their data
    and metadata as one JSON array each, their shared ``recorded_at``, and their hashes
    end to end. Each event's version and previous hash follow from its place in the
    append (it chains onto the one before), so they are not sent: four arrays of ten
    elements fewer for asyncpg to check and encode one by one, a fifth of the statement's
    time in the client. `json_array_elements` gives back each element's text as written,
    so the stored documents stay the canonical texts."""
    records = [d.record for d in drafts]
    return (
        [r.event_id for r in records],
        [r.type for r in records],
        f"[{','.join([d.data_text for d in drafts])}]",
        f"[{','.join([d.metadata_text for d in drafts])}]",
        records[0].recorded_at,
        b"".join([r.hash for r in records]),
    )


def _append_statement(schema: str, count: str, values: str, source: str = "") -> str:
    """One append to stream $1 after version $2 whose hash is $3 (or after 0): its
    ``count`` events (``values`` selected ``source``) and one marker for the sequencer
    reaching over all of them (eventlog_005_append_markers.sql), written only if the link
    holds. The command tag says how many events were written.

    Both inserts check the link, in the statement's one snapshot (and rows of the log
    are never changed), so either both write or neither does; the events are written
    whole or the statement fails. Without the RETURNING, the CTE the marker read it from
    and the count over it, PostgreSQL spends a tenth less on a batch of ten."""
    link = (
        f"($2::int = 0 OR EXISTS (SELECT 1 FROM {schema}.events AS x"
        " WHERE x.stream_id = $1 AND x.version = $2 AND x.hash = $3::bytea))"
    )
    return f"""
        WITH queued AS (
            INSERT INTO {schema}.events_unsequenced (stream_id, version, last_version)
            SELECT $1, $2::int + 1, $2::int + {count} WHERE {link}
        )
        INSERT INTO {schema}.events (stream_id, version, event_id, type, data, metadata,
                                     recorded_at, prev_hash, hash)
        SELECT $1, {values}
        {source}
        WHERE {link}
    """


def _single(draft: Draft) -> tuple[Any, ...]:
    """The columns of a lone event, as scalars (see ``_sql_insert_single``), in the order
    `_columns` gives them."""
    return tuple(column[0] for column in _columns([draft]))


def _arrays(drafts: Sequence[Draft]) -> tuple[list[Any], ...]:
    """``append_group``'s parameters: the streams, the columns, and ``first`` marking
    each append's start."""
    streams = [d.record.stream_id for d in drafts]
    first = [i == 0 or streams[i - 1] != stream for i, stream in enumerate(streams)]
    return (streams, *_columns(drafts), first)


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
