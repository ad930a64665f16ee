"""The wallet settling tables from events on a real NATS JetStream (guarantee 6, MODE-4,
PCG-4): early, repeated and malformed events change nothing they should not."""

from __future__ import annotations

import pytest

from tavolo.messaging import DeadLetters, publish_with_id
from tavolo.v1 import common_pb2
from tests.waiting import eventually

from . import wire
from .conftest import LOBBY, OPERATOR
from .ledger_audit import audit_pool, balance
from .registered import register
from .running import Running

pytestmark = pytest.mark.integration


async def fund_and_hold(
    running: Running, table: str, players: list[str], stake: int
) -> dict[int, str]:
    holds = {}
    await register(running.pool, *players)
    for seat, player in enumerate(players):
        await running.wallet.grant(OPERATOR, f"g-{table}-{player}", player, 1000, "welcome")
        hold_id = f"h-{table}-{seat}"
        await running.wallet.hold_stake(LOBBY, hold_id, player, stake, "queue", 0)
        holds[seat] = hold_id
    return holds


async def test_guarantee6_an_early_finish_waits_and_replays_pay_nothing_twice(
    running: Running,
) -> None:
    players = ["ann", "bob", "cy"]
    holds = await fund_and_hold(running, "t1", players, 500)
    finished = wire.table_finished("t1", players, [2, 1, 3], stake=500)
    formed = wire.match_formed("t1", players, 500, holds)
    # The end arrives before the formation: the wallet hands it back until it can pay.
    await wire.publish(running.js, running.topology, finished)
    durable = running.topology.consumer_name("wallet", "events")

    async def handed_back() -> bool:
        info = await running.js.consumer_info(running.topology.events_stream, durable)
        return bool(info.num_redelivered)

    await eventually(handed_back)
    assert await balance(running.pool, "player:bob") == 1000
    await wire.publish(running.js, running.topology, formed)
    await running.handled(finished.header.event_id, formed.header.event_id)
    assert [await balance(running.pool, f"player:{p}") for p in players] == [500, 2000, 500]

    # JetStream drops the same id; a new id, or an abort, reaches the wallet and changes nothing.
    again = await wire.publish(running.js, running.topology, finished)
    assert again.duplicate
    await wire.publish(running.js, running.topology, finished, msg_id="replayed-finish")
    aborted = wire.table_aborted("t1", 500)
    await wire.publish(running.js, running.topology, aborted)
    await running.handled("replayed-finish", aborted.header.event_id)
    assert [await balance(running.pool, f"player:{p}") for p in players] == [500, 2000, 500]
    assert await balance(running.pool, "escrow:t1") == 0
    assert (await audit_pool(running.pool)).problems == []


async def test_mode4_pcg4_cancellations_freezes_and_a_malformed_event(running: Running) -> None:
    holds = await fund_and_hold(running, "t2", ["ann"], 250)
    garbage = "garbage-1"
    await publish_with_id(
        running.js, running.topology.table_finished, b"\xff\x00not protobuf", msg_id=garbage
    )
    cancelled = wire.match_cancelled("t2", {"ann": holds[0]})
    frozen = wire.account_frozen("bob", "s1")
    await wire.publish(running.js, running.topology, cancelled)
    await wire.publish(running.js, running.topology, frozen)
    await running.handled(cancelled.header.event_id, frozen.header.event_id)
    letters = DeadLetters(running.js, running.topology)

    async def dead_lettered() -> bool:
        return [x.message_id for x in await letters.latest(10)] == [garbage]

    await eventually(dead_lettered, "the malformed event kept as a dead letter")
    (letter,) = await letters.latest(10)
    assert (letter.consumer, letter.subject) == ("wallet_events", running.topology.table_finished)
    assert "malformed" in letter.error and letter.data == b"\xff\x00not protobuf"
    ann = await running.wallet.get_balance(OPERATOR, "ann")
    assert (ann.available, ann.held) == (1000, 0)
    bob = await running.wallet.get_balance(OPERATOR, "bob")
    assert bob.frozen and bob.frozen_reason == "dispute"

    lifted = wire.account_unfrozen("bob", "s1")
    await wire.publish(running.js, running.topology, lifted)
    await running.handled(lifted.header.event_id)
    assert not (await running.wallet.get_balance(OPERATOR, "bob")).frozen


async def test_mode3_online_rewards_arrive_through_nats_once(running: Running) -> None:
    players = ["ann", "bob"]
    finished = wire.table_finished("t3", players, [2, 1], mode=common_pb2.MODE_ONLINE, booster=True)
    await wire.publish(running.js, running.topology, finished)
    await wire.publish(running.js, running.topology, finished, msg_id="again")
    await running.handled(finished.header.event_id, "again")
    # 100 and 50 for first and second, x2 booster x1.5 VIP
    assert (
        await balance(running.pool, "player:bob"),
        await balance(running.pool, "player:ann"),
    ) == (300, 150)
