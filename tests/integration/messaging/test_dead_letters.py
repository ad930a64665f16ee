"""A consumer that gives up on an event keeps it as a dead letter, counted and listed for
operators, and the rest of the stream flows on: after its last retry, or at once for an
event no retry can handle."""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import pytest
from nats.aio.msg import Msg
from prometheus_client import REGISTRY

from tavolo.messaging import (
    Consumer,
    DeadLetters,
    RetryPolicy,
    Topology,
    Unprocessable,
    publish_with_id,
)
from tavolo.v1 import events_pb2
from tests.waiting import eventually

pytestmark = pytest.mark.integration

FAST_RETRY = RetryPolicy(max_deliver=3, first_delay=0.02, max_delay=0.05)


def dead_count(consumer: str, subject: str) -> float:
    found = REGISTRY.get_sample_value(
        "tavolo_dead_letters_total", {"consumer": consumer, "subject": subject}
    )
    return found or 0.0


async def test_an_event_failing_every_retry_and_an_unreadable_one_become_dead_letters(
    nc: Any, topology: Topology
) -> None:
    js = nc.jetstream()
    letters = DeadLetters(js, topology)
    handled: list[bytes] = []

    async def handler(msg: Msg) -> None:
        if msg.data == b"always fails":
            raise RuntimeError("the database said no")
        if msg.data == b"unreadable":
            raise Unprocessable("no retry can read this")
        handled.append(msg.data)

    durable = topology.consumer_name("test", "letters")
    subject = topology.table_finished
    before = dead_count(durable, subject)
    consumer = Consumer(
        nc,
        stream=topology.events_stream,
        durable=durable,
        subjects=[subject],
        handler=handler,
        retry=FAST_RETRY,
        fetch_timeout=0.2,
        dead_letters=letters,
    )
    task = asyncio.create_task(consumer.run())
    try:
        for msg_id, body in (("e1", b"always fails"), ("e2", b"unreadable"), ("e3", b"fine")):
            await publish_with_id(js, subject, body, msg_id=msg_id)

        async def two_letters() -> bool:
            return len(await letters.latest(10)) == 2 and handled == [b"fine"]

        await eventually(two_letters, "both failing events dead-lettered, the third handled")
    finally:
        consumer.stop()
        with contextlib.suppress(asyncio.CancelledError):
            await asyncio.wait_for(task, 10)
    kept = {letter.message_id: letter for letter in await letters.latest(10)}
    assert set(kept) == {"e1", "e2"}
    assert (kept["e1"].deliveries, kept["e2"].deliveries) == (3, 1)
    assert "the database said no" in kept["e1"].error
    assert "no retry can read this" in kept["e2"].error
    assert kept["e1"].data == b"always fails" and kept["e1"].consumer == durable
    assert kept["e1"].subject == subject and kept["e1"].stream_sequence > 0
    assert dead_count(durable, subject) == before + 2
    info = await js.consumer_info(topology.events_stream, durable)
    assert info.num_pending == 0 and info.num_ack_pending == 0  # nothing left to redeliver


async def test_latest_lists_newest_first_and_no_more_than_asked(
    nc: Any, topology: Topology
) -> None:
    js = nc.jetstream()
    letters = DeadLetters(js, topology)
    assert await letters.latest(5) == []  # none yet
    for n in range(4):
        letter = events_pb2.DeadLetter(consumer="wallet_events", message_id=f"m{n}")
        await publish_with_id(
            js,
            topology.dead_letter_subject("wallet_events"),
            letter.SerializeToString(),
            msg_id=f"m{n}",
        )
    assert [x.message_id for x in await letters.latest(3)] == ["m3", "m2", "m1"]
