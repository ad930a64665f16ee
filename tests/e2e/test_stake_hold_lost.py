"""A stake ticket whose hold failed at the wallet before its table formed leaves the queue
and its player is told (MODE-4): the lobby forms stake tables on standing holds only, so
nobody plays for a pot they put nothing into. The others keep waiting.

The hold fails here by an operator voiding it at the wallet; an expiry takes the same path
(the wallet tells both as StakeHoldChanged)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace

import pytest

from tavolo.v1 import lobby_pb2, wallet_pb2
from tests.integration.lobby.harness import Player
from tests.integration.lobby.platform import (
    PLATFORM_WALLET,
    Platform,
    platform_config,
    running_platform,
)
from tests.waiting import eventually

pytestmark = pytest.mark.e2e

NO_WELCOME = replace(PLATFORM_WALLET, welcome_coins=0)


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    config = platform_config(stake_timeout=120.0)  # nobody is cancelled for being alone
    async with running_platform(
        database_url, nats_url, namespace, wallet=NO_WELCOME, config=config
    ) as running:
        yield running


async def follow(platform: Platform, player: Player, into: list[lobby_pb2.LobbyUpdate]) -> None:
    stream = platform.lobby.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=player.metadata)
    async for update in stream:
        into.append(update)


async def test_mode4_a_ticket_whose_hold_failed_leaves_the_queue_and_is_never_seated(
    platform: Platform,
) -> None:
    operator = await platform.operator()
    ada, bea = await platform.register("Tenace"), await platform.register("Paziente")
    for player in (ada, bea):
        await platform.wallet.Grant(
            wallet_pb2.GrantRequest(
                transfer_id=f"g-{player.id}", player_id=player.id, amount=1000, reason="w"
            ),
            metadata=operator.metadata,
        )
    heard: list[lobby_pb2.LobbyUpdate] = []
    watcher = asyncio.create_task(follow(platform, ada, heard))
    await asyncio.sleep(0.2)
    stake_queue = lobby_pb2.JoinQueueRequest(game="pika", players=2, stake=250)
    first = await platform.lobby.JoinQueue(stake_queue, metadata=ada.metadata)
    await platform.wallet.ReleaseHold(
        wallet_pb2.ReleaseHoldRequest(hold_id=first.ticket_id), metadata=operator.metadata
    )

    def lost() -> list[lobby_pb2.Ticket]:
        return [
            u.ticket
            for u in heard
            if u.WhichOneof("update") == "ticket"
            and u.ticket.ticket_id == first.ticket_id
            and u.ticket.state == lobby_pb2.TICKET_STATE_HOLD_LOST
        ]

    async def told() -> bool:
        return bool(lost())

    await eventually(told, "the player told that their ticket lost its stake hold")
    # Bea joins now: had Ada's first ticket stayed, the two would sit down with one stake.
    await platform.lobby.JoinQueue(stake_queue, metadata=bea.metadata)
    await asyncio.sleep(1.0)  # ten matchmaking rounds
    bea_waiting = await platform.wallet.GetBalance(
        wallet_pb2.GetBalanceRequest(), metadata=bea.metadata
    )
    assert (bea_waiting.available, bea_waiting.held) == (750, 250)  # held, not staked
    assert not [u for u in heard if u.WhichOneof("update") == "seated"]

    second = await platform.lobby.JoinQueue(stake_queue, metadata=ada.metadata)
    assert second.state == lobby_pb2.TICKET_STATE_WAITING  # free to queue again

    async def both_staked() -> bool:
        balances = [
            await platform.wallet.GetBalance(wallet_pb2.GetBalanceRequest(), metadata=p.metadata)
            for p in (ada, bea)
        ]
        return all((b.available, b.held) == (750, 0) for b in balances)

    await eventually(both_staked, "a table formed on the two standing holds, both staked")
    watcher.cancel()
