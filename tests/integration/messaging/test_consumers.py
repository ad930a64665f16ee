"""Guarantee 6 on the consuming side: a redelivered message changes nothing, a failing one
is retried with backoff and finally set aside, and consumers stop cleanly.
"""

from __future__ import annotations

import asyncio
import json
from collections import Counter
from typing import Any

import asyncpg
import nats
import pytest
from nats.aio.msg import Msg

from tavolo.messaging import (
    Consumer,
    IdempotentHandler,
    RetryPolicy,
    Topology,
    message_id_of,
    publish_with_id,
    run_consumer,
)
from tests.waiting import eventually

from .conftest import SCHEMA

pytestmark = pytest.mark.integration

FAST_RETRY = RetryPolicy(max_deliver=3, first_delay=0.05, max_delay=0.2)


async def credit(conn: Any, msg: Msg) -> None:
    """The effect under test: pay the coins named in the message."""
    body = json.loads(msg.data)
    await conn.execute(
        f"UPDATE {SCHEMA}.balances SET coins = coins + $1 WHERE player = $2",
        body["coins"],
        body["player"],
    )


async def coins(pool: asyncpg.Pool) -> int:
    async with pool.acquire() as conn:
        return int(await conn.fetchval(f"SELECT coins FROM {SCHEMA}.balances"))


async def processed(pool: asyncpg.Pool) -> list[tuple[str, str]]:
    async with pool.acquire() as conn:
        rows = await conn.fetch(f"SELECT consumer, message_id FROM {SCHEMA}.processed_messages")
    return [(row["consumer"], row["message_id"]) for row in rows]


async def publish_payout(nc: Any, topology: Topology, event_id: str, amount: int) -> None:
    payload = json.dumps({"player": "ada", "coins": amount}).encode()
    await publish_with_id(nc.jetstream(), topology.table_finished, payload, msg_id=event_id)


def consumer(nc: Any, topology: Topology, handler: Any, **options: Any) -> Consumer:
    return Consumer(
        nc,
        stream=topology.events_stream,
        durable="wallet_table_finished",
        subjects=[topology.table_finished],
        handler=handler,
        fetch_timeout=0.2,
        **options,
    )


async def test_a_redelivered_message_changes_nothing(
    nc: Any, topology: Topology, pool: asyncpg.Pool
) -> None:
    """The effect commits, then the ack is lost (the handler fails after it): redelivery."""
    effect = IdempotentHandler(pool, SCHEMA, "wallet_table_finished", credit)
    deliveries: list[int] = []

    async def handler(msg: Msg) -> None:
        deliveries.append(msg.metadata.num_delivered)
        await effect(msg)
        if len(deliveries) == 1:
            raise ConnectionError("the ack never reached the server")

    await publish_payout(nc, topology, "event-7", 50)
    running = consumer(nc, topology, handler, retry=FAST_RETRY)
    task = asyncio.create_task(running.run())

    async def delivered_twice() -> bool:
        return len(deliveries) == 2

    await eventually(delivered_twice, "the message comes back")
    running.stop()
    await task

    assert deliveries == [1, 2]
    assert await coins(pool) == 50
    assert await processed(pool) == [("wallet_table_finished", "event-7")]


async def test_a_failed_effect_rolls_back_and_is_retried(
    nc: Any, topology: Topology, pool: asyncpg.Pool
) -> None:
    attempts: list[int] = []

    async def flaky_credit(conn: Any, msg: Msg) -> None:
        attempts.append(msg.metadata.num_delivered)
        await credit(conn, msg)
        if len(attempts) == 1:
            raise RuntimeError("the ledger was busy")

    await publish_payout(nc, topology, "event-8", 30)
    handler = IdempotentHandler(pool, SCHEMA, "wallet_table_finished", flaky_credit)
    running = consumer(nc, topology, handler, retry=FAST_RETRY)
    task = asyncio.create_task(running.run())

    async def paid() -> bool:
        return await coins(pool) == 30 and len(attempts) == 2

    await eventually(paid, "the retry pays")
    running.stop()
    await task
    assert attempts == [1, 2]
    assert await processed(pool) == [("wallet_table_finished", "event-8")]


async def test_a_message_that_keeps_failing_is_set_aside_after_max_deliver(
    nc: Any, topology: Topology, pool: asyncpg.Pool
) -> None:
    attempts: Counter[str] = Counter()

    async def handler(msg: Msg) -> None:
        attempts[message_id_of(msg)] += 1
        if message_id_of(msg) == "poison":
            raise ValueError("cannot parse")

    await publish_payout(nc, topology, "poison", 1)
    running = consumer(nc, topology, handler, retry=FAST_RETRY)
    task = asyncio.create_task(running.run())

    async def gave_up() -> bool:
        return attempts["poison"] == 3

    await eventually(gave_up, "three attempts")
    await publish_payout(nc, topology, "fine", 1)

    async def moved_on() -> bool:
        info = await nc.jetstream().consumer_info(topology.events_stream, running.durable)
        return attempts["fine"] == 1 and info.num_ack_pending == 0

    await eventually(moved_on, "the next message is handled and nothing is left pending")
    running.stop()
    await task
    assert attempts == {"poison": 3, "fine": 1}


async def test_concurrent_deliveries_of_one_message_apply_once(
    nc: Any, topology: Topology, pool: asyncpg.Pool
) -> None:
    async def slow_credit(conn: Any, msg: Msg) -> None:
        await credit(conn, msg)
        await asyncio.sleep(0.2)  # the second delivery arrives while this one is open

    await publish_payout(nc, topology, "event-9", 5)
    sub = await nc.jetstream().pull_subscribe(
        topology.table_finished, durable="probe", stream=topology.events_stream
    )
    [msg] = await sub.fetch(1, timeout=5)
    handler = IdempotentHandler(pool, SCHEMA, "wallet_table_finished", slow_credit)

    applied = await asyncio.gather(handler.handle(msg), handler.handle(msg))

    assert sorted(applied) == [False, True]
    assert await coins(pool) == 5


async def test_without_a_msg_id_the_stream_sequence_identifies_a_message(
    nc: Any, topology: Topology
) -> None:
    js = nc.jetstream()
    ack = await js.publish(topology.match_formed, b"{}")
    sub = await js.pull_subscribe(
        topology.match_formed, durable="probe2", stream=topology.events_stream
    )
    [msg] = await sub.fetch(1, timeout=5)
    assert message_id_of(msg) == f"{topology.events_stream}:{ack.seq}"


async def test_a_consumer_sees_only_its_subjects(nc: Any, topology: Topology) -> None:
    if nc.connected_server_version.minor < 10 and nc.connected_server_version.major == 2:
        pytest.skip("several subjects per consumer need nats-server 2.10")
    seen: list[str] = []

    async def handler(msg: Msg) -> None:
        seen.append(msg.subject)

    for subject in (topology.table_finished, topology.match_formed, topology.table_aborted):
        await publish_with_id(nc.jetstream(), subject, b"{}", msg_id=subject)
    running = Consumer(
        nc,
        stream=topology.events_stream,
        durable="lobby_tables",
        subjects=[topology.table_finished, topology.table_aborted],
        handler=handler,
        fetch_timeout=0.2,
    )
    task = asyncio.create_task(running.run())

    async def both() -> bool:
        return len(seen) == 2

    await eventually(both, "two messages")
    running.stop()
    await task
    assert sorted(seen) == sorted([topology.table_finished, topology.table_aborted])


async def test_cancelling_a_consumer_leaves_the_message_for_redelivery(
    nc: Any, topology: Topology, pool: asyncpg.Pool
) -> None:
    started = asyncio.Event()

    async def stuck_credit(conn: Any, msg: Msg) -> None:
        await credit(conn, msg)
        started.set()
        await asyncio.sleep(3600)

    await publish_payout(nc, topology, "event-10", 9)
    handler = IdempotentHandler(pool, SCHEMA, "wallet_table_finished", stuck_credit)
    task = asyncio.create_task(
        run_consumer(
            nc,
            stream=topology.events_stream,
            durable="wallet_table_finished",
            subjects=[topology.table_finished],
            handler=handler,
            fetch_timeout=0.2,
        )
    )
    await started.wait()
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    assert await coins(pool) == 0, "the interrupted effect rolled back"
    assert await processed(pool) == []
    info = await nc.jetstream().consumer_info(topology.events_stream, "wallet_table_finished")
    assert info.num_ack_pending == 1, "the message waits for redelivery"


async def test_draining_the_connection_ends_the_consumer(
    nats_url: str, topology: Topology, nc: Any
) -> None:
    own = await nats.connect(nats_url)
    handled: list[str] = []

    async def handler(msg: Msg) -> None:
        handled.append(message_id_of(msg))

    await publish_payout(nc, topology, "event-11", 1)
    task = asyncio.create_task(
        run_consumer(
            own,
            stream=topology.events_stream,
            durable="drained",
            subjects=[topology.table_finished],
            handler=handler,
            fetch_timeout=0.2,
        )
    )

    async def handled_one() -> bool:
        return handled == ["event-11"]

    await eventually(handled_one, "the message is handled")
    await own.drain()
    await asyncio.wait_for(task, 10)
    assert task.exception() is None


async def test_a_consumer_accepts_the_jetstream_context_too(nc: Any, topology: Topology) -> None:
    handled: list[str] = []

    async def handler(msg: Msg) -> None:
        handled.append(message_id_of(msg))

    await publish_payout(nc, topology, "event-12", 1)
    running = consumer(nc.jetstream(), topology, handler)
    task = asyncio.create_task(running.run())

    async def handled_one() -> bool:
        return handled == ["event-12"]

    await eventually(handled_one, "the message is handled")
    running.stop()
    await task
