"""The event store port: what services depend on, whichever store is plugged in.

`PostgresEventStore` is the real one; `InMemoryEventStore` is its twin for fast unit
tests. Both pass the same contract suite (tests/integration/eventlog/test_contract.py).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, Protocol

from tavolo.eventlog.integrity import IndexEntry
from tavolo.eventlog.model import NewEvent, RecordedEvent, VerificationResult


class EventStore(Protocol):
    """An append-only log of streams, each a hash chain, with one global order."""

    async def install(self, conn: Any = None) -> None:
        """Create what the store needs (tables, triggers) if missing; safe to repeat."""
        ...

    async def append_events(
        self,
        stream_id: str,
        expected_version: int,
        events: Sequence[NewEvent],
        *,
        conn: Any = None,
    ) -> list[RecordedEvent]:
        """Append after ``expected_version`` (0 for a new stream) or raise ConcurrencyError.

        A retry whose events (same ids, same contents) are already recorded at exactly
        those versions returns the recorded events. An event id recorded for another event
        raises DuplicateEventError. ``conn`` lets the append join the caller's transaction.
        """
        ...

    async def read_stream(
        self, stream_id: str, from_version: int = 1, *, conn: Any = None
    ) -> list[RecordedEvent]:
        """The stream's events from ``from_version`` on, in version order ([] if none)."""
        ...

    async def stream_version(self, stream_id: str, *, conn: Any = None) -> int:
        """The stream's last version, 0 if it has no events."""
        ...

    async def read_all(
        self, after_position: int = 0, limit: int = 1000, *, conn: Any = None
    ) -> list[RecordedEvent]:
        """Up to ``limit`` events after ``after_position`` in global order.

        Safe to tail: an event that is not returned yet will never appear behind a
        position already returned.
        """
        ...

    async def read_index(
        self, after_position: int = 0, limit: int = 1000, *, conn: Any = None
    ) -> list[IndexEntry]:
        """Like `read_all`, only each event's position, stream, version and hash: what a
        checkpoint folds and an index check reads, without decoding the events."""
        ...

    async def head_position(self, *, conn: Any = None) -> int:
        """The last committed global position (0 for an empty log)."""
        ...

    async def verify_stream(self, stream_id: str) -> VerificationResult:
        """Recompute the stream's hash chain and name the first event that breaks it."""
        ...
