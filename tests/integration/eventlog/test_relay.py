"""Guarantee 6, second half: the outbox relay puts every event on JetStream exactly once,
in order per stream, across crashes.
"""

from __future__ import annotations

import asyncio
import json
import os
import signal
import sys
import uuid
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import asyncpg
import nats
import pytest
from nats.js.errors import NoStreamResponseError
from prometheus_client import REGISTRY

from tavolo.eventlog import NewEvent, PostgresEventStore, RecordedEvent
from tavolo.eventlog.relay import Encoded, OutboxRelay
from tavolo.messaging import MSG_ID_HEADER, Topology, ensure_streams

from .relay_support import PRIVATE, SCHEMA, eventually, make_encoder, stream_messages

pytestmark = [pytest.mark.integration, pytest.mark.fault]

REPO = Path(__file__).resolve().parents[3]


@pytest.fixture
async def nc(nats_url: str, namespace: str) -> AsyncIterator[Any]:
    client = await nats.connect(nats_url)
    await ensure_streams(client.jetstream(), Topology(namespace))
    yield client
    await client.jetstream().delete_stream(Topology(namespace).events_stream)
    await client.close()


@pytest.fixture
async def store(pg_pool: asyncpg.Pool) -> PostgresEventStore:
    store = PostgresEventStore(pg_pool, SCHEMA)
    await store.install()
    return store


async def append_interleaved(
    store: PostgresEventStore, streams: int, per_stream: int, start: int = 0
) -> list[RecordedEvent]:
    """``per_stream`` events on each of ``streams`` tables, round-robin."""
    recorded: list[RecordedEvent] = []
    for version in range(start, start + per_stream):
        for table in range(streams):
            event = NewEvent("Moved", {"n": version}, event_id=uuid.uuid4())
            recorded += await store.append_events(f"table-{table}", version, [event])
    return recorded


async def assert_exactly_once_in_order(
    nc: Any, topology: Topology, expected: list[RecordedEvent]
) -> None:
    messages = await stream_messages(nc.jetstream(), topology.events_stream)
    ids = [m.headers[MSG_ID_HEADER] for m in messages]
    assert len(ids) == len(set(ids)), "an event is on JetStream twice"
    published = [e for e in expected if e.type != PRIVATE]
    assert set(ids) == {str(e.event_id) for e in published}, "an event is missing"
    by_stream: dict[str, list[int]] = {}
    for message in messages:
        body = json.loads(message.data)
        by_stream.setdefault(body["stream_id"], []).append(body["version"])
    for stream_id, versions in by_stream.items():
        wanted = [e.version for e in published if e.stream_id == stream_id]
        assert versions == wanted, f"stream {stream_id} out of order"


async def test_relay_publishes_each_event_with_its_id_and_checkpoints(
    store: PostgresEventStore, nc: Any, namespace: str
) -> None:
    topology = Topology(namespace)
    recorded = await store.append_events(
        "t1", 0, [NewEvent("TableStarted", {}), NewEvent(PRIVATE, {"seed": 7})]
    )
    recorded += await store.append_events("t2", 0, [NewEvent("TableStarted", {})])
    recorded += await store.append_events("t1", 2, [NewEvent("TableFinished", {})])
    relay = OutboxRelay(store, nc.jetstream(), make_encoder(topology), batch_size=2)

    assert await relay.publish_pending() == 4

    messages = await stream_messages(nc.jetstream(), topology.events_stream)
    assert [m.headers[MSG_ID_HEADER] for m in messages] == [
        str(e.event_id) for e in recorded if e.type != PRIVATE
    ]
    assert [m.subject for m in messages] == [
        topology.subject_for("TableStarted"),
        topology.subject_for("TableStarted"),
        topology.table_finished,
    ]
    assert messages[0].headers["Tavolo-Stream"] == "t1"
    assert await relay.checkpoint() == 4
    assert relay.stats.skipped == 1 and relay.stats.published == 3
    assert await relay.publish_pending() == 0


async def test_running_relay_follows_new_appends_and_stops_cleanly(
    store: PostgresEventStore, nc: Any, namespace: str
) -> None:
    topology = Topology(namespace)
    relay = OutboxRelay(store, nc.jetstream(), make_encoder(topology), poll_interval=0.05)
    recorded = await append_interleaved(store, streams=3, per_stream=20)
    assert await relay.backlog() == 60
    task = asyncio.create_task(relay.run())
    relay.wake()

    async def all_published() -> bool:
        return len(await stream_messages(nc.jetstream(), topology.events_stream)) == 60

    await eventually(all_published, "60 events on JetStream")

    async def metric_caught_up() -> bool:  # what deploy/k8s's TavoloOutboxBacklog watches
        sample = REGISTRY.get_sample_value("tavolo_outbox_backlog", {"service": store.schema})
        return sample == 0

    await eventually(metric_caught_up, "the backlog metric back to 0")
    relay.stop()
    await asyncio.wait_for(task, 30)
    assert await relay.checkpoint() == 60
    await assert_exactly_once_in_order(nc, topology, recorded)


async def test_relay_cancelled_mid_batch_resumes_without_loss_or_duplicates(
    store: PostgresEventStore, nc: Any, namespace: str
) -> None:
    topology = Topology(namespace)
    recorded = await append_interleaved(store, streams=3, per_stream=100)
    encode = make_encoder(topology)
    tasks: list[asyncio.Task[None]] = []

    def crash_at_120(event: RecordedEvent) -> Encoded | None:
        if event.position == 120:
            tasks[0].cancel()  # lands in the publish of event 120, inside the third batch
        return encode(event)

    first = OutboxRelay(store, nc.jetstream(), crash_at_120, batch_size=50)
    tasks.append(asyncio.create_task(first.run()))
    with pytest.raises(asyncio.CancelledError):
        await tasks[0]
    assert await relay_checkpoint(store) == 100, "the third batch was never confirmed"
    on_stream = await stream_messages(nc.jetstream(), topology.events_stream)
    assert len(on_stream) >= 119, "events 101-119 went out before the crash"

    second = OutboxRelay(store, nc.jetstream(), encode, batch_size=50, poll_interval=0.05)
    task = asyncio.create_task(second.run())

    async def caught_up() -> bool:
        return await second.checkpoint() == 300

    await eventually(caught_up, "the restarted relay reaches position 300")
    second.stop()
    await asyncio.wait_for(task, 30)

    assert second.stats.duplicates >= 19, "JetStream dropped the republished events"
    await assert_exactly_once_in_order(nc, topology, recorded)


async def test_relay_killed_with_sigkill_resumes_without_loss_or_duplicates(
    store: PostgresEventStore, nc: Any, namespace: str, database_url: str, nats_url: str
) -> None:
    topology = Topology(namespace)
    recorded = await append_interleaved(store, streams=4, per_stream=100)
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.integration.eventlog.relay_process",
        database_url,
        nats_url,
        namespace,
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
    )

    async def partly_published() -> bool:
        assert process.returncode is None, "the relay process died by itself"
        return len(await stream_messages(nc.jetstream(), topology.events_stream)) >= 150

    await eventually(partly_published, "the relay process to publish 150 events")
    process.send_signal(signal.SIGKILL)
    assert await process.wait() == -signal.SIGKILL
    assert await relay_checkpoint(store) < 400

    restarted = OutboxRelay(store, nc.jetstream(), make_encoder(topology), poll_interval=0.05)
    task = asyncio.create_task(restarted.run())

    async def caught_up() -> bool:
        return await restarted.checkpoint() == 400

    await eventually(caught_up, "the restarted relay reaches position 400")
    restarted.stop()
    await asyncio.wait_for(task, 30)
    await assert_exactly_once_in_order(nc, topology, recorded)


async def test_a_second_relay_stands_by_until_the_first_is_gone(
    store: PostgresEventStore, nc: Any, namespace: str
) -> None:
    topology = Topology(namespace)
    encode = make_encoder(topology)
    active = OutboxRelay(store, nc.jetstream(), encode, poll_interval=0.02)
    active_task = asyncio.create_task(active.run())
    await eventually(lambda: holds_lock(store), "the first relay takes the lock")
    standby = OutboxRelay(store, nc.jetstream(), encode, poll_interval=0.02)
    standby_task = asyncio.create_task(standby.run())

    recorded = await append_interleaved(store, streams=2, per_stream=25)

    async def first_done() -> bool:
        return await active.checkpoint() == 50

    await eventually(first_done, "the first relay publishes 50 events")
    assert standby.stats.published == 0

    active_task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await active_task
    recorded += await append_interleaved(store, streams=2, per_stream=10, start=25)

    async def second_done() -> bool:
        return await standby.checkpoint() == 70

    await eventually(second_done, "the standby relay takes over")
    standby.stop()
    await asyncio.wait_for(standby_task, 30)
    assert standby.stats.published == 20 and standby.stats.duplicates == 0
    await assert_exactly_once_in_order(nc, topology, recorded)


async def test_an_event_that_cannot_be_published_stops_the_relay_rather_than_being_skipped(
    store: PostgresEventStore, nc: Any, namespace: str
) -> None:
    topology = Topology(namespace)
    recorded = await append_interleaved(store, streams=1, per_stream=3)
    recorded += await store.append_events("t", 0, [NewEvent("Orphan", {})])
    recorded += await append_interleaved(store, streams=1, per_stream=2, start=3)
    encode = make_encoder(topology)
    nowhere = {"on": True}

    def encoder(event: RecordedEvent) -> Encoded | None:
        encoded = encode(event)
        if event.type == "Orphan" and encoded is not None and nowhere["on"]:
            return "no-stream-captures-this", encoded[1], encoded[2]
        return encoded

    relay = OutboxRelay(store, nc.jetstream(), encoder, publish_timeout=1.0)
    with pytest.raises(NoStreamResponseError):
        await relay.publish_pending()
    assert await relay.checkpoint() == 3

    nowhere["on"] = False
    assert await relay.publish_pending() == 3
    await assert_exactly_once_in_order(nc, topology, recorded)


async def relay_checkpoint(store: PostgresEventStore, name: str = "jetstream") -> int:
    async with store.pool.acquire() as conn:
        position = await conn.fetchval(
            f"SELECT position FROM {SCHEMA}.relay_checkpoints WHERE relay = $1", name
        )
    return int(position or 0)


async def holds_lock(store: PostgresEventStore) -> bool:
    async with store.pool.acquire() as conn:
        count = await conn.fetchval(
            "SELECT count(*) FROM pg_locks WHERE locktype = 'advisory' AND granted"
        )
    return bool(count)
