"""Errors of the event log, as domain errors so the gRPC layer maps them without help."""

from __future__ import annotations

import uuid

from tavolo.servicekit.errors import Conflict


class ConcurrencyError(Conflict):
    """The stream moved on since the writer read it: reload, decide again, retry."""

    def __init__(self, stream_id: str, actual_version: int, expected_version: int) -> None:
        super().__init__(
            f"stream {stream_id} is at version {actual_version}, not {expected_version}",
            reason="LOG_CONFLICT",
            metadata={"version": actual_version},
        )
        self.stream_id = stream_id
        self.actual_version = actual_version
        self.expected_version = expected_version


class DuplicateEventError(Conflict):
    """An event id is already recorded for another event: ids must name one event only."""

    def __init__(self, event_id: uuid.UUID, stream_id: str, version: int) -> None:
        super().__init__(
            f"event id {event_id} is already recorded as version {version} of stream {stream_id}",
            reason="LOG_CONFLICT",
            metadata={"version": version},
        )
        self.event_id = event_id
        self.stream_id = stream_id
        self.version = version
