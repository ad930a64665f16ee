"""An under-filled tournament is cancelled at its start and every entry fee comes back
exactly once (PCG-7), over real gRPC, NATS and PostgreSQL: the lobby holds each fee at the
wallet on registration, releases it on withdrawal, and releases every remaining one when
too few entrants cancel the tournament. The ledger still sums to zero."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import asyncpg
import grpc
import pytest
from google.protobuf import timestamp_pb2

from tavolo.v1 import lobby_pb2, wallet_pb2
from tests.integration.lobby.harness import Player
from tests.integration.lobby.platform import (
    PLATFORM_WALLET,
    Platform,
    balance,
    platform_config,
    running_platform,
)
from tests.integration.wallet.ledger_audit import audit
from tests.waiting import eventually

pytestmark = pytest.mark.e2e

NO_WELCOME = replace(PLATFORM_WALLET, welcome_coins=0)
GRANT = 1000
FEE = 250


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    config = replace(platform_config(), tournament_interval=0.2)
    async with running_platform(
        database_url, nats_url, namespace, config=config, wallet=NO_WELCOME
    ) as running:
        yield running


def stamp(at: datetime) -> timestamp_pb2.Timestamp:
    found = timestamp_pb2.Timestamp()
    found.FromDatetime(at)
    return found


async def granted(platform: Platform, operator: Player, nickname: str) -> Player:
    player = await platform.register(nickname)
    await platform.wallet.Grant(
        wallet_pb2.GrantRequest(
            transfer_id=f"grant-{player.id}", player_id=player.id, amount=GRANT, reason="test"
        ),
        metadata=operator.metadata,
    )
    return player


async def test_pcg_7_an_under_filled_tournament_is_cancelled_and_every_fee_refunded_once(
    platform: Platform, database_url: str
) -> None:
    operator = await platform.operator()
    players = [await granted(platform, operator, f"Scopista{i}") for i in range(4)]
    created = await platform.lobby.CreateTournament(
        lobby_pb2.CreateTournamentRequest(
            game="scopa",
            max_entrants=8,
            starts_at=stamp(datetime.now(UTC) + timedelta(seconds=4)),
            fee=FEE,
            split=[70, 30],
        ),
        metadata=operator.metadata,
    )
    assert created.status == lobby_pb2.TOURNAMENT_STATUS_REGISTERING
    assert len(created.seed_commitment) == 64 and not created.seed_hex
    tid = created.tournament_id
    for player in players:
        await platform.lobby.RegisterTournament(
            lobby_pb2.RegisterTournamentRequest(tournament_id=tid), metadata=player.metadata
        )
    assert [(await balance(platform, p)).held for p in players] == [FEE] * 4
    with pytest.raises(grpc.aio.AioRpcError) as twice:
        await platform.lobby.RegisterTournament(
            lobby_pb2.RegisterTournamentRequest(tournament_id=tid), metadata=players[0].metadata
        )
    assert twice.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    # One withdraws before the start: three are left, too few for a bracket.
    left = await platform.lobby.UnregisterTournament(
        lobby_pb2.UnregisterTournamentRequest(tournament_id=tid), metadata=players[3].metadata
    )
    assert len(left.entrants) == 3

    async def cancelled() -> bool:
        found = await platform.lobby.GetTournament(
            lobby_pb2.GetTournamentRequest(tournament_id=tid), metadata=operator.metadata
        )
        return found.status == lobby_pb2.TOURNAMENT_STATUS_CANCELLED

    await eventually(cancelled, "the tournament to be cancelled at its start", within=30)

    async def refunded() -> bool:
        found = [await balance(platform, p) for p in players]
        return all(b.available == GRANT and b.held == 0 for b in found)

    await eventually(refunded, "every entry fee to come back", within=30)
    conn = await asyncpg.connect(database_url)
    try:
        assert (await audit(conn)).problems == []
        holds = await conn.fetch(
            "SELECT transfer_id FROM wallet.transfers"
            " WHERE kind = 'pending' AND transfer_id LIKE $1",
            f"entry.{tid}.%",
        )
        voids = await conn.fetchval(
            "SELECT count(*) FROM wallet.transfers WHERE kind = 'void_pending'"
            " AND pending_id LIKE $1",
            f"entry.{tid}.%",
        )
    finally:
        await conn.close()
    assert len(holds) == 4  # one hold per registration, never a second
    assert voids == 4  # each released exactly once
    with pytest.raises(grpc.aio.AioRpcError) as late:
        await platform.lobby.RegisterTournament(
            lobby_pb2.RegisterTournamentRequest(tournament_id=tid), metadata=players[3].metadata
        )
    assert late.value.code() == grpc.StatusCode.FAILED_PRECONDITION


async def entered(
    platform: Platform, operator: Player, count: int, starts_in: float
) -> tuple[str, list[Player]]:
    """A tournament with ``count`` entrants (the last withdrew and entered again)."""
    players = [await granted(platform, operator, f"Annullato{i}") for i in range(count)]
    created = await platform.lobby.CreateTournament(
        lobby_pb2.CreateTournamentRequest(
            game="scopa",
            max_entrants=8,
            starts_at=stamp(datetime.now(UTC) + timedelta(seconds=starts_in)),
            fee=FEE,
            split=[70, 30],
            show_seconds=3600,  # nobody plays: no table opens while the test runs
        ),
        metadata=operator.metadata,
    )
    tid = created.tournament_id
    register = lobby_pb2.RegisterTournamentRequest(tournament_id=tid)
    for player in players:
        await platform.lobby.RegisterTournament(register, metadata=player.metadata)
    await platform.lobby.UnregisterTournament(
        lobby_pb2.UnregisterTournamentRequest(tournament_id=tid), metadata=players[-1].metadata
    )
    await platform.lobby.RegisterTournament(register, metadata=players[-1].metadata)
    return tid, players


async def fees_back_once(platform: Platform, database_url: str, players: list[Player]) -> None:
    async def refunded() -> bool:
        found = [await balance(platform, p) for p in players]
        return all(b.available == GRANT and b.held == 0 for b in found)

    await eventually(refunded, "every entry fee to come back", within=30)
    await asyncio.sleep(1.0)  # a second refund, if any, would land meanwhile
    assert [(await balance(platform, p)).available for p in players] == [GRANT] * len(players)
    conn = await asyncpg.connect(database_url)
    try:
        assert (await audit(conn)).problems == []
    finally:
        await conn.close()


@pytest.mark.parametrize("drawn", [False, True], ids=["before the draw", "after the draw"])
async def test_pcg_7_an_operator_cancels_a_tournament_and_every_fee_comes_back_once(
    platform: Platform, database_url: str, drawn: bool
) -> None:
    operator = await platform.operator()
    tid, players = await entered(platform, operator, 4, starts_in=3 if drawn else 600)
    cancel = lobby_pb2.CancelTournamentRequest(tournament_id=tid, reason="venue closed")
    with pytest.raises(grpc.aio.AioRpcError) as player_asks:
        await platform.lobby.CancelTournament(cancel, metadata=players[0].metadata)
    assert player_asks.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.aio.AioRpcError) as no_reason:
        await platform.lobby.CancelTournament(
            lobby_pb2.CancelTournamentRequest(tournament_id=tid), metadata=operator.metadata
        )
    assert no_reason.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    if drawn:

        async def escrowed() -> bool:
            found = [await balance(platform, p) for p in players]
            return all((b.available, b.held) == (GRANT - FEE, 0) for b in found)

        await eventually(escrowed, "the draw to move the fees into escrow", within=30)
    found = await platform.lobby.CancelTournament(cancel, metadata=operator.metadata)
    assert found.status == lobby_pb2.TOURNAMENT_STATUS_CANCELLED
    assert found.cancel_reason == "venue closed"
    with pytest.raises(grpc.aio.AioRpcError) as twice:
        await platform.lobby.CancelTournament(cancel, metadata=operator.metadata)
    assert twice.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    await fees_back_once(platform, database_url, players)
