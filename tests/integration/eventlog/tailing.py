"""A reader that follows the whole log by position, as the relay and projections do."""

from __future__ import annotations

import asyncio

from tavolo.eventlog import PostgresEventStore, RecordedEvent


async def tail(store: PostgresEventStore, done: asyncio.Event) -> list[RecordedEvent]:
    """Every event ``read_all`` hands out until ``done`` is set and the log is read dry,
    failing at once on a skipped or repeated position."""
    seen: list[RecordedEvent] = []
    position = 0
    while True:
        finished = done.is_set()  # read once more after the writers finish
        batch = await store.read_all(position, 500)
        for event in batch:
            # Positions are gapless, so anything but position + 1 means a skip or a repeat.
            assert event.position == position + 1, f"after {position} came {event.position}"
            position = event.position
        seen.extend(batch)
        if finished and not batch:
            return seen
        if not batch:
            await asyncio.sleep(0.002)
