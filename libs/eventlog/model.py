"""The facts the event log holds: events about to be written and events as recorded."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from datetime import datetime
from typing import Any, NamedTuple

JsonObject = Mapping[str, Any]


@dataclass(frozen=True, slots=True)
class NewEvent:
    """An event a use case decided on, not yet in the log.

    ``event_id`` is the event's identity everywhere: the de-duplication id on NATS and the
    id consumers record. Callers that may retry pass a deterministic id (derived from the
    command), so a retried append is recognised instead of recorded twice; without one the
    store draws a random id.
    """

    type: str
    data: JsonObject
    event_id: uuid.UUID | None = None
    metadata: JsonObject = field(default_factory=dict)


class StreamAppend(NamedTuple):
    """One stream's part of appends made together: its events after ``expected_version``."""

    stream_id: str
    expected_version: int
    events: Sequence[NewEvent]


@dataclass(frozen=True, slots=True)
class RecordedEvent:
    """An event as the log holds it.

    ``version`` counts from 1 within the stream; ``position`` counts from 1 across the whole
    log (one schema) in the order events were given positions, with no gaps. It is 0 on
    an event just appended: positions are handed out when the log is next tailed (see
    ``tavolo.eventlog.postgres``). ``hash`` is
    ``sha256(prev_hash || canonical_bytes(event))`` (see ``tavolo.eventlog.canonical``).
    """

    stream_id: str
    version: int
    position: int
    event_id: uuid.UUID
    type: str
    data: JsonObject
    metadata: JsonObject
    recorded_at: datetime
    prev_hash: bytes
    hash: bytes


@dataclass(frozen=True, slots=True)
class VerificationResult:
    """What `verify_stream` found: either an intact chain or the first event that breaks it."""

    stream_id: str
    events_checked: int
    first_bad_version: int | None = None
    first_bad_event_id: uuid.UUID | None = None
    reason: str | None = None

    @property
    def ok(self) -> bool:
        return self.first_bad_version is None

    def __str__(self) -> str:
        if self.ok:
            return f"stream {self.stream_id}: {self.events_checked} events, chain intact"
        return f"stream {self.stream_id}: {self.reason}"
