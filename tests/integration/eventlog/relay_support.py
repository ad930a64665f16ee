"""Shared by the relay tests and the relay they run in a separate process."""

from __future__ import annotations

import asyncio
import json
from collections.abc import Awaitable, Callable
from typing import Any

from tavolo.eventlog import RecordedEvent
from tavolo.eventlog.relay import Encoded
from tavolo.messaging import Topology

SCHEMA = "engine"
PRIVATE = "SeedDrawn"  # an event type that stays inside the service


def make_encoder(topology: Topology) -> Callable[[RecordedEvent], Encoded | None]:
    def encode(event: RecordedEvent) -> Encoded | None:
        if event.type == PRIVATE:
            return None
        payload = json.dumps(
            {"stream_id": event.stream_id, "version": event.version, "type": event.type}
        ).encode()
        return topology.subject_for(event.type), payload, {"Tavolo-Stream": event.stream_id}

    return encode


async def stream_messages(js: Any, stream: str) -> list[Any]:
    """Every message JetStream holds in ``stream``, in stream order."""
    info = await js.stream_info(stream)
    if info.state.messages == 0:
        return []
    return [
        await js.get_msg(stream, seq)
        for seq in range(info.state.first_seq, info.state.last_seq + 1)
    ]


async def eventually(check: Callable[[], Awaitable[bool]], what: str, limit: float = 60) -> None:
    """Wait for ``check`` to hold; fail with ``what`` if it never does."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + limit
    while not await check():
        if loop.time() > deadline:
            raise AssertionError(f"gave up waiting: {what}")
        await asyncio.sleep(0.02)
