"""The in-memory twin of the PostgreSQL event store, for unit tests and local runs.

Each method runs without awaiting anything in between its reads and writes, so on one
event loop every append is atomic, exactly like a committed PostgreSQL transaction.
``conn`` is accepted and ignored: there is no transaction to join. Like the PostgreSQL
store, it hands out positions when the log is tailed (`read_all`, `head_position`), not
in the append.
"""

from __future__ import annotations

import uuid
from collections.abc import Callable, Sequence
from dataclasses import replace
from datetime import UTC, datetime
from typing import Any

from tavolo.eventlog._records import draft_records, is_retry_of, validate_append
from tavolo.eventlog.canonical import GENESIS_HASH
from tavolo.eventlog.errors import ConcurrencyError, DuplicateEventError
from tavolo.eventlog.integrity import IndexEntry
from tavolo.eventlog.model import NewEvent, RecordedEvent, VerificationResult
from tavolo.eventlog.verification import verify_chain


def utc_now() -> datetime:
    return datetime.now(UTC)


class InMemoryEventStore:
    """Streams in dicts and lists; behaves as `PostgresEventStore` does."""

    def __init__(
        self,
        *,
        clock: Callable[[], datetime] = utc_now,
        new_id: Callable[[], uuid.UUID] = uuid.uuid4,
    ) -> None:
        self._clock = clock
        self._new_id = new_id
        self._streams: dict[str, list[RecordedEvent]] = {}
        self._log: list[RecordedEvent] = []
        self._unsequenced: list[RecordedEvent] = []
        self._by_id: dict[uuid.UUID, RecordedEvent] = {}

    async def install(self, conn: Any = None) -> None:
        """Nothing to create; present so composition roots treat both stores alike."""

    async def append_events(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        conn: Any = None,
    ) -> list[RecordedEvent]:
        validate_append(stream_id, expected_version, events)
        if not events:
            return []
        stream = self._streams.get(stream_id, [])
        if len(stream) != expected_version:
            wanted = stream[expected_version : expected_version + len(events)]
            if is_retry_of(events, wanted):
                return list(wanted)
            raise ConcurrencyError(stream_id, len(stream), expected_version)
        for event in events:
            if event.event_id is not None and event.event_id in self._by_id:
                other = self._by_id[event.event_id]
                raise DuplicateEventError(event.event_id, other.stream_id, other.version)
        head_hash = stream[-1].hash if stream else GENESIS_HASH
        drafts = draft_records(
            stream_id, expected_version, head_hash, events, self._clock(), self._new_id
        )
        records = [d.record for d in drafts]
        self._streams.setdefault(stream_id, []).extend(records)
        self._unsequenced.extend(records)
        self._by_id.update((record.event_id, record) for record in records)
        return records

    async def read_stream(
        self, stream_id: str, from_version: int = 1, *, conn: Any = None
    ) -> list[RecordedEvent]:
        return list(self._streams.get(stream_id, [])[max(from_version, 1) - 1 :])

    async def stream_version(self, stream_id: str, *, conn: Any = None) -> int:
        return len(self._streams.get(stream_id, []))

    async def read_all(
        self, after_position: int = 0, limit: int = 1000, *, conn: Any = None
    ) -> list[RecordedEvent]:
        if limit < 1:
            raise ValueError(f"limit must be 1 or more, not {limit}")
        self._sequence()
        start = max(after_position, 0)
        return self._log[start : start + limit]

    async def read_index(
        self, after_position: int = 0, limit: int = 1000, *, conn: Any = None
    ) -> list[IndexEntry]:
        events = await self.read_all(after_position, limit)
        return [IndexEntry(e.position, e.stream_id, e.version, e.hash) for e in events]

    async def head_position(self, *, conn: Any = None) -> int:
        self._sequence()
        return len(self._log)

    def _sequence(self) -> None:
        for record in self._unsequenced:
            placed = replace(record, position=len(self._log) + 1)
            self._log.append(placed)
            stream = self._streams.get(record.stream_id, [])
            index = record.version - 1
            if index < len(stream) and stream[index].event_id == record.event_id:
                stream[index] = placed
            self._by_id[record.event_id] = placed
        self._unsequenced.clear()

    async def verify_stream(self, stream_id: str) -> VerificationResult:
        return verify_chain(stream_id, self._streams.get(stream_id, []))
