"""Streams are created idempotently, and JetStream drops a repeated event id."""

from __future__ import annotations

from typing import Any

import pytest
from nats.js.api import StorageType

from tavolo.messaging import Topology, ensure_streams, publish_with_id

pytestmark = pytest.mark.integration


async def test_ensure_streams_is_idempotent_and_applies_changes(
    nc: Any, topology: Topology
) -> None:
    js = nc.jetstream()
    await ensure_streams(js, topology)  # the fixture ran it once already
    info = await js.stream_info(topology.events_stream)
    assert info.config.storage == StorageType.FILE
    assert info.config.duplicate_window == topology.duplicate_window
    assert info.config.subjects == [topology.all_events]

    await ensure_streams(js, Topology(topology.namespace, duplicate_window=1800))
    info = await js.stream_info(topology.events_stream)
    assert info.config.duplicate_window == 1800


async def test_jetstream_stores_an_event_id_once(nc: Any, topology: Topology) -> None:
    js = nc.jetstream()
    first = await publish_with_id(js, topology.table_finished, b"one", msg_id="event-1")
    again = await publish_with_id(js, topology.table_finished, b"one", msg_id="event-1")
    other = await publish_with_id(js, topology.table_finished, b"two", msg_id="event-2")

    assert not first.duplicate and again.duplicate and not other.duplicate
    assert again.seq == first.seq
    info = await js.stream_info(topology.events_stream)
    assert info.state.messages == 2
