"""What every store does before and after it touches storage: validate, chain, recognise retries.

Kept apart from the stores so the PostgreSQL store and its in-memory twin cannot drift.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from datetime import datetime
from json.scanner import make_scanner
from typing import Any, cast

from tavolo.eventlog.canonical import (
    CanonicalWriter,
    check_json_safe,
    encode_json,
    first_unsafe,
)
from tavolo.eventlog.model import NewEvent, RecordedEvent
from tavolo.servicekit.tracing import TRACEPARENT, current_traceparent

MAX_STREAM_ID_LENGTH = 200


def validate_append(stream_id: str, expected_version: int, events: Sequence[NewEvent]) -> None:
    """Refuse malformed input before any storage is touched (a programming error, not a race)."""
    if not isinstance(stream_id, str) or not stream_id or len(stream_id) > MAX_STREAM_ID_LENGTH:
        raise ValueError(f"stream id must be 1 to {MAX_STREAM_ID_LENGTH} characters: {stream_id!r}")
    if isinstance(expected_version, bool) or not isinstance(expected_version, int):
        raise TypeError(f"expected_version must be an int, not {expected_version!r}")
    if expected_version < 0:
        raise ValueError(f"expected_version must be 0 or more, not {expected_version}")
    seen: set[uuid.UUID] = set()
    for index, event in enumerate(events):
        if not isinstance(event.type, str) or not event.type:
            raise ValueError(f"event {index} needs a non-empty type")
        if not isinstance(event.data, dict):
            raise TypeError(f"{_where(index, event)}: data must be a dict")
        if not isinstance(event.metadata, dict):
            raise TypeError(f"{_where(index, event)}: metadata must be a dict")
        if first_unsafe(event.data) is not None or first_unsafe(event.metadata) is not None:
            where = _where(index, event)
            check_json_safe(event.data, where, "data")
            check_json_safe(event.metadata, where, "metadata")
        if event.event_id is not None:
            known = len(seen)
            seen.add(event.event_id)  # one hash of the id (a UUID hashes in Python), not two
            if len(seen) == known:
                where = _where(index, event)
                raise ValueError(f"{where}: event id {event.event_id} appears twice in one append")


def _where(index: int, event: NewEvent) -> str:
    """How an error names an event: written only for an error, never for a good event."""
    return f"event {index} ({event.type!r})"


def copy_json(value: Any) -> Any:
    """A deep copy through the canonical encoding, so later changes by the caller never leak in."""
    return json.loads(encode_json(value))


@dataclass(frozen=True, slots=True)
class Draft:
    """An event as it will be stored, with its data and metadata already in canonical
    text: a store writes that text instead of encoding them once more."""

    record: RecordedEvent
    data_text: str
    metadata_text: str


_scan = make_scanner(cast(Any, json.JSONDecoder()))  # typeshed wants the scanner's own type
"""``json.loads`` without its checks for surrounding whitespace, for texts `encode_json`
wrote (none there): the same parser, the same values, a third less time."""


def draft_records(
    stream_id: str,
    expected_version: int,
    head_hash: bytes,
    events: Sequence[NewEvent],
    recorded_at: datetime,
    new_id: Callable[[], uuid.UUID],
) -> list[Draft]:
    """The events as they will be stored, chained onto ``head_hash`` (positions still 0),
    each with its canonical texts."""
    drafts: list[Draft] = []
    prev_hash = head_hash
    canonical = CanonicalWriter(stream_id, recorded_at)  # the shared parts written once
    sha256, loads = hashlib.sha256, _scan
    for offset, event in enumerate(events, start=1):
        version = expected_version + offset
        event_id = event.event_id if event.event_id is not None else new_id()
        data_text, metadata_text = encode_json(event.data), encode_json(event.metadata)
        digest = sha256(
            prev_hash + canonical(version, event_id, event.type, data_text, metadata_text)
        ).digest()
        record = RecordedEvent(
            stream_id=stream_id,
            version=version,
            position=0,
            event_id=event_id,
            type=event.type,
            # Copies through the canonical text, so later changes by the caller never leak
            # in (and the text is encoded once for the copy, the hash and the store).
            data=loads(data_text, 0)[0],
            metadata=loads(metadata_text, 0)[0],
            recorded_at=recorded_at,
            prev_hash=prev_hash,
            hash=digest,
        )
        drafts.append(Draft(record, data_text, metadata_text))
        prev_hash = digest
    return drafts


def stamped(events: Sequence[NewEvent]) -> Sequence[NewEvent]:
    """``events`` with the ``traceparent`` of the span appending them in their metadata,
    when tracing is on: the outbox relay's publish continues that span after the commit,
    from whatever replica publishes (`tavolo.servicekit.tracing`)."""
    traceparent = current_traceparent()
    if traceparent is None:
        return events
    return [
        e
        if TRACEPARENT in e.metadata
        else replace(e, metadata={**e.metadata, TRACEPARENT: traceparent})
        for e in events
    ]


def _untraced(metadata: Any) -> Any:
    """Metadata without the trace context, which a retry carries from another span."""
    if isinstance(metadata, dict) and TRACEPARENT in metadata:
        return {k: v for k, v in metadata.items() if k != TRACEPARENT}
    return metadata


def is_retry_of(events: Sequence[NewEvent], recorded: Sequence[RecordedEvent]) -> bool:
    """True when ``recorded`` (the versions this append wanted) already holds exactly ``events``.

    That is a retry whose first attempt committed (its answer lost on the way back); it
    succeeds with what was recorded instead of failing as a stale writer.
    """
    if len(recorded) != len(events) or not events:
        return False
    for event, record in zip(events, recorded, strict=True):
        if event.event_id is None or event.event_id != record.event_id:
            return False
        if event.type != record.type:
            return False
        if copy_json(event.data) != record.data:
            return False
        if _untraced(copy_json(event.metadata)) != _untraced(record.metadata):
            return False
    return True
