"""Create or bring up to date the JetStream streams a service relies on, at start-up."""

from __future__ import annotations

from typing import Any

import structlog
from nats.js.api import StreamConfig
from nats.js.errors import BadRequestError

from tavolo.messaging.topology import Topology

log = structlog.get_logger("tavolo.messaging")

# JetStream's "stream name already in use with a different configuration".
_STREAM_NAME_IN_USE = 10058


async def ensure_streams(js: Any, topology: Topology) -> None:
    """Idempotent: creates the events and dead-letter streams, or updates them when the
    wanted config changed.

    Several replicas may run this at once; creating an identical stream twice is not an
    error for JetStream, and a differing one is updated in place.
    """
    for config in (topology.events_stream_config(), topology.dead_letters_stream_config()):
        await _ensure(js, config)


async def _ensure(js: Any, config: StreamConfig) -> None:
    try:
        await js.add_stream(config)
    except BadRequestError as exc:
        if exc.err_code != _STREAM_NAME_IN_USE:
            raise
        await js.update_stream(config)
        log.info("stream updated", stream=config.name)
