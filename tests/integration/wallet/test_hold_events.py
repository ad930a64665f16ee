"""The wallet tells the platform what happens to every stake hold (MODE-4): placed,
refused, released, expired, staked, each once, as StakeHoldChanged on NATS."""

from __future__ import annotations

import asyncio

import pytest

from tavolo.servicekit.errors import FailedPrecondition, NotFound
from tavolo.v1 import events_pb2
from tests.waiting import eventually

from . import wire
from .conftest import LOBBY, OPERATOR
from .running import Running

pytestmark = pytest.mark.integration

S = events_pb2


async def test_every_change_of_a_hold_is_told_once(running: Running) -> None:
    wallet = running.wallet
    for player in ("ann", "bob"):  # their accounts open as the lobby registers them
        # ... as second accounts of another person, so no welcome grant changes the sums
        linked = wire.player_registered(player, f"person-of-{player}")
        await wire.publish(running.js, running.topology, linked)

    async def granted() -> bool:
        try:
            await wallet.grant(OPERATOR, "g-ann", "ann", 600, "welcome")
            await wallet.grant(OPERATOR, "g-bob", "bob", 1000, "welcome")
        except NotFound:
            return False
        return True

    await eventually(granted, "the welcome grants, once the accounts are open")
    await wallet.hold_stake(LOBBY, "h-left", "ann", 250, "ticket", 0)
    await wallet.hold_stake(LOBBY, "h-left", "ann", 250, "ticket", 0)  # a retry
    await wallet.release_hold(LOBBY, "h-left")
    await wallet.release_hold(LOBBY, "h-left")  # asked twice
    with pytest.raises(FailedPrecondition):
        await wallet.hold_stake(LOBBY, "h-broke", "ann", 1000, "ticket", 0)
    await wallet.hold_stake(LOBBY, "h-short", "ann", 100, "ticket", 1)
    await asyncio.sleep(1.1)
    await wallet.sweep_expired_holds()  # if the service's own sweeper has not yet
    await wallet.hold_stake(LOBBY, "h-bob", "bob", 250, "ticket", 0)
    formed = wire.match_formed("t9", ["bob"], 250, {0: "h-bob"})
    await wire.publish(running.js, running.topology, formed)

    sub = await running.js.pull_subscribe(running.topology.subject_for("StakeHoldChanged"))
    told: list[events_pb2.StakeHoldChanged] = []

    async def all_told() -> bool:
        try:
            for msg in await sub.fetch(10, timeout=0.5):
                told.append(events_pb2.StakeHoldChanged.FromString(msg.data))
                await msg.ack()
        except TimeoutError:
            pass
        return len(told) >= 7

    await eventually(all_told, "seven hold facts on NATS")
    await asyncio.sleep(0.5)
    await all_told()  # nothing more arrives: each fact once
    got = [(t.hold_id, t.state) for t in told]
    assert got == [
        ("h-left", S.HOLD_STATE_PLACED),
        ("h-left", S.HOLD_STATE_RELEASED),
        ("h-broke", S.HOLD_STATE_REFUSED),
        ("h-short", S.HOLD_STATE_PLACED),
        ("h-short", S.HOLD_STATE_EXPIRED),
        ("h-bob", S.HOLD_STATE_PLACED),
        ("h-bob", S.HOLD_STATE_STAKED),
    ]
    refused = told[2]
    assert refused.player_id == "ann" and refused.amount == 1000 and "600" in refused.reason
    assert told[3].HasField("expires_at") and told[6].table_id == "t9"
