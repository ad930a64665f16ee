"""Guarantee 6: the relay's publish windows keep each stream's events in order.

Events in one window are in flight together, so a window must never hold two events of
one stream (the second could be stored while the first fails and is retried after it).
"""

from __future__ import annotations

import uuid
from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from tavolo.eventlog import RecordedEvent
from tavolo.eventlog.relay import windows


def event(position: int, stream: str) -> RecordedEvent:
    return RecordedEvent(
        stream, position, position, uuid.uuid4(), "X", {}, {}, datetime.now(UTC), b"", b""
    )


@given(st.lists(st.sampled_from("abcd"), max_size=60), st.integers(1, 10))
def test_windows_keep_order_size_and_one_event_per_stream(streams: list[str], size: int) -> None:
    batch = [event(p, s) for p, s in enumerate(streams, start=1)]
    runs = windows(batch, size)
    assert [e for run in runs for e in run] == batch
    for run in runs:
        assert 1 <= len(run) <= size
        assert len({e.stream_id for e in run}) == len(run)


def test_a_second_event_of_a_stream_starts_a_new_window() -> None:
    batch = [event(1, "a"), event(2, "b"), event(3, "a"), event(4, "c")]
    assert [[e.position for e in run] for run in windows(batch, 64)] == [[1, 2], [3, 4]]
