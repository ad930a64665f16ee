"""Shared by the relay tests and the relay they run in a separate process."""

from __future__ import annotations

import functools
import json
from collections.abc import Callable
from typing import Any

from tavolo.eventlog import RecordedEvent
from tavolo.eventlog.relay import Encoded
from tavolo.messaging import Topology
from tests import waiting

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


# Relays restart and catch up: give them longer than the default.
eventually = functools.partial(waiting.eventually, within=60.0)
