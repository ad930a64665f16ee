"""A match the engine cannot open is aborted, not dropped: its stakes come back at once
(MODE-4), and an event a consumer cannot handle is kept as a dead letter that operators
list through the lobby."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from dataclasses import replace

import asyncpg
import grpc
import nats
import pytest

from tavolo.messaging import Topology, publish_with_id
from tavolo.v1 import lobby_pb2, wallet_pb2
from tests.integration.lobby.platform import PLATFORM_WALLET, Platform, running_platform
from tests.integration.wallet import wire
from tests.integration.wallet.ledger_audit import audit
from tests.waiting import eventually

pytestmark = pytest.mark.e2e

NO_WELCOME = replace(PLATFORM_WALLET, welcome_coins=0)


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    async with running_platform(database_url, nats_url, namespace, wallet=NO_WELCOME) as running:
        yield running


async def test_mode4_a_stake_match_of_a_game_the_engine_does_not_know_is_aborted_and_refunded(
    platform: Platform, database_url: str, nats_url: str, namespace: str
) -> None:
    operator = await platform.operator()
    players = [await platform.register(f"Ignoto{i}") for i in range(2)]
    holds = {}
    for seat, player in enumerate(players):
        await platform.wallet.Grant(
            wallet_pb2.GrantRequest(
                transfer_id=f"g-{player.id}", player_id=player.id, amount=1000, reason="w"
            ),
            metadata=operator.metadata,
        )
        holds[seat] = str(uuid.uuid4())
        await platform.wallet.HoldStake(
            wallet_pb2.HoldStakeRequest(
                hold_id=holds[seat], player_id=player.id, amount=250, cause="ticket"
            ),
            metadata=operator.metadata,
        )
    table_id = str(uuid.uuid4())
    formed = wire.match_formed(table_id, [p.id for p in players], 250, holds)
    formed.game = "briscola-of-the-future"  # a game a newer lobby knows, this engine not
    client = await nats.connect(nats_url)
    try:
        await publish_with_id(
            client.jetstream(),
            Topology(namespace).match_formed,
            formed.SerializeToString(),
            msg_id=formed.header.event_id,
        )
    finally:
        await client.close()

    async def refunded() -> bool:
        balances = [
            await platform.wallet.GetBalance(wallet_pb2.GetBalanceRequest(), metadata=p.metadata)
            for p in players
        ]
        return all((b.available, b.held) == (1000, 0) for b in balances)

    await eventually(refunded, "both stakes refunded after the engine aborted the match")
    conn = await asyncpg.connect(database_url)
    try:
        reason = await conn.fetchval(
            "SELECT data->>'reason' FROM engine.events WHERE stream_id = $1",
            f"refused-{table_id}",
        )
        settled = await conn.fetchval(
            "SELECT outcome FROM wallet.table_settlements WHERE table_id = $1", table_id
        )
        found = await audit(conn)
    finally:
        await conn.close()
    assert "briscola-of-the-future" in reason
    assert settled == "refunded"
    assert found.problems == []


async def test_operators_list_dead_letters_and_players_may_not(
    platform: Platform, nats_url: str, namespace: str
) -> None:
    operator = await platform.operator()
    player = await platform.register("Curioso")
    client = await nats.connect(nats_url)
    try:
        await publish_with_id(
            client.jetstream(),
            Topology(namespace).match_formed,
            b"\xff\xffnot a MatchFormed",
            msg_id="broken-match",
        )
    finally:
        await client.close()
    found: list[lobby_pb2.ListDeadLettersResponse] = []

    async def listed() -> bool:
        found[:] = [
            await platform.lobby.ListDeadLetters(
                lobby_pb2.ListDeadLettersRequest(), metadata=operator.metadata
            )
        ]
        mine = {x.consumer for x in found[0].letters if x.message_id == "broken-match"}
        return mine == {"engine_match_formed", "wallet_events"}

    # Both consumers of MatchFormed give up on it, each keeping its own letter.
    await eventually(listed, "the unreadable MatchFormed listed as a dead letter")
    letters = {x.consumer: x for x in found[0].letters}
    assert "cannot be decoded" in letters["engine_match_formed"].error
    assert letters["wallet_events"].data == b"\xff\xffnot a MatchFormed"
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await platform.lobby.ListDeadLetters(
            lobby_pb2.ListDeadLettersRequest(), metadata=player.metadata
        )
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.aio.AioRpcError) as too_many:
        await platform.lobby.ListDeadLetters(
            lobby_pb2.ListDeadLettersRequest(limit=100_000), metadata=operator.metadata
        )
    assert too_many.value.code() == grpc.StatusCode.INVALID_ARGUMENT
