"""Walk a stream's hash chain and name the first event that breaks it.

Pure: both stores read the stream and hand it here, so the rules of audit live once.
"""

from __future__ import annotations

from collections.abc import Iterable

from tavolo.eventlog.canonical import GENESIS_HASH, canonical_bytes, chain_hash
from tavolo.eventlog.model import RecordedEvent, VerificationResult


def event_hash(event: RecordedEvent, prev_hash: bytes) -> bytes:
    """The hash `event` must carry if it follows an event whose hash is ``prev_hash``."""
    return chain_hash(
        prev_hash,
        canonical_bytes(
            stream_id=event.stream_id,
            version=event.version,
            event_id=event.event_id,
            type=event.type,
            data=event.data,
            metadata=event.metadata,
            recorded_at=event.recorded_at,
        ),
    )


def verify_chain(stream_id: str, events: Iterable[RecordedEvent]) -> VerificationResult:
    """Check versions 1, 2, 3... each linked to the one before and matching its own hash.

    ``events`` is the stream in version order, as stored. A changed event fails its own
    hash; a missing version shows as a jump; a reordered or replaced event no longer names
    its predecessor's hash as ``prev_hash``.
    """
    prev_hash = GENESIS_HASH
    expected = 1
    checked = 0
    for event in events:
        if event.version != expected:
            if event.version > expected:
                missing = (
                    f"version {expected} is missing"
                    if event.version == expected + 1
                    else f"versions {expected} to {event.version - 1} are missing"
                )
                reason = (
                    f"{missing}: the stream goes from version {expected - 1} to {event.version}"
                )
            else:
                reason = f"version {event.version} appears again after version {expected - 1}"
            return VerificationResult(stream_id, checked, expected, None, reason)
        if event.prev_hash != prev_hash:
            link = "the start of the stream" if expected == 1 else f"event {expected - 1}"
            return VerificationResult(
                stream_id,
                checked,
                event.version,
                event.event_id,
                f"event {event.version} (id {event.event_id}) does not follow {link}: its"
                " prev_hash is not that event's hash (reordered, replaced or removed)",
            )
        if event_hash(event, prev_hash) != event.hash:
            return VerificationResult(
                stream_id,
                checked,
                event.version,
                event.event_id,
                f"event {event.version} (id {event.event_id}, type {event.type}) was changed:"
                " its contents do not match its hash",
            )
        prev_hash = event.hash
        expected += 1
        checked += 1
    return VerificationResult(stream_id, checked)
