"""A suspension stops the account's tokens at every service at once (PCG-4, guarantee 9).

Access tokens live a quarter of an hour and no service asks the lobby about them; the
lobby's AccountsSuspended makes each service refuse them from then on, and a service
that restarts refuses them before it serves, from its own record.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable
from dataclasses import replace

import grpc
import pytest

from tavolo.servicekit.runtime import start_service
from tavolo.v1 import (
    engine_pb2,
    leaderboard_pb2,
    leaderboard_pb2_grpc,
    lobby_pb2,
    wallet_pb2,
    wallet_pb2_grpc,
)
from tavolo.wallet.bootstrap import make_assemble as wallet_make_assemble
from tests.integration.lobby.harness import PASSWORD, Player, bearer
from tests.integration.lobby.platform import PLATFORM_WALLET, Platform, running_platform
from tests.waiting import eventually

pytestmark = pytest.mark.e2e

Call = Callable[[Player], Awaitable[object]]
SLOW_MACHINE = 90.0
"""Seconds to wait for an event to cross NATS on a loaded machine (a bound, not a timing)."""


async def _code(call: Call, player: Player) -> grpc.StatusCode:
    try:
        await call(player)
    except grpc.aio.AioRpcError as error:
        return error.code()
    return grpc.StatusCode.OK


def _calls(platform: Platform, board: leaderboard_pb2_grpc.LeaderboardStub) -> dict[str, Call]:
    """One call a player may make at each service; OK (or NOT_FOUND for an unknown table)
    while their token is good."""
    unknown_table = str(uuid.uuid4())
    return {
        "lobby": lambda p: platform.lobby.GetProfile(
            lobby_pb2.GetProfileRequest(), metadata=p.metadata
        ),
        "wallet": lambda p: platform.wallet.GetBalance(
            wallet_pb2.GetBalanceRequest(), metadata=p.metadata
        ),
        "engine": lambda p: platform.engine.GetTable(
            engine_pb2.GetTableRequest(table_id=unknown_table), metadata=p.metadata
        ),
        "leaderboard": lambda p: board.GetPlayerStats(
            leaderboard_pb2.GetPlayerStatsRequest(), metadata=p.metadata
        ),
    }


async def test_a_suspension_revokes_every_token_of_the_person_at_every_service(
    database_url: str, nats_url: str, namespace: str
) -> None:
    async with running_platform(
        database_url, nats_url, namespace, with_leaderboard=True
    ) as platform:
        board_channel = grpc.aio.insecure_channel(
            f"127.0.0.1:{platform.services['leaderboard'].port}"
        )
        platform.channels.append(board_channel)
        calls = _calls(platform, leaderboard_pb2_grpc.LeaderboardStub(board_channel))
        moderator = await platform.operator()
        main = await platform.register("Sospeso")
        second = await platform.register("Sospeso2", linked=main)
        bystander = await platform.register("Passante")
        allowed = {grpc.StatusCode.OK, grpc.StatusCode.NOT_FOUND}
        for player in (main, second, bystander):
            for service, call in calls.items():
                assert await _code(call, player) in allowed, service

        suspension = await platform.lobby.ApplySanction(
            lobby_pb2.ApplySanctionRequest(
                player_id=main.id,
                kind=lobby_pb2.SANCTION_KIND_ALL_ACCOUNTS,
                duration=lobby_pb2.SANCTION_DURATION_PERMANENT,
                reason="stolen cards",
            ),
            metadata=moderator.metadata,
        )

        for player in (main, second):
            for service, call in calls.items():

                async def refused(call: Call = call, player: Player = player) -> bool:
                    return await _code(call, player) == grpc.StatusCode.PERMISSION_DENIED

                await eventually(
                    refused, f"{service} to refuse {player.nickname}'s token", within=SLOW_MACHINE
                )
        for call in calls.values():
            assert await _code(call, bystander) in allowed
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await platform.wallet.GetBalance(wallet_pb2.GetBalanceRequest(), metadata=main.metadata)
        assert "this account is suspended until a moderator lifts it" in (
            caught.value.details() or ""
        )

        # A wallet replica started now refuses the token before it has read any event.
        settings = platform.services["wallet"].infra.settings
        late = await start_service(
            "wallet", wallet_make_assemble(PLATFORM_WALLET), replace(settings), port=0
        )
        try:
            async with grpc.aio.insecure_channel(f"127.0.0.1:{late.port}") as channel:
                stub = wallet_pb2_grpc.WalletStub(channel)
                with pytest.raises(grpc.aio.AioRpcError) as caught:
                    await stub.GetBalance(wallet_pb2.GetBalanceRequest(), metadata=main.metadata)
                assert caught.value.code() == grpc.StatusCode.PERMISSION_DENIED
        finally:
            await late.stop(0.5)

        # Lifted: the person logs in again (which tokens from before stay refused is
        # shown in tests/unit/servicekit/test_revocation.py, to the second).
        await platform.lobby.LiftSanction(
            lobby_pb2.LiftSanctionRequest(sanction_id=suspension.sanction_id),
            metadata=moderator.metadata,
        )
        session = await platform.lobby.Login(
            lobby_pb2.LoginRequest(nickname="Sospeso", password=PASSWORD)
        )
        again = Player(session, bearer(session.access_token))

        async def accepted() -> bool:
            return await _code(calls["wallet"], again) == grpc.StatusCode.OK

        await eventually(
            accepted, "the wallet to accept a login made after the lift", within=SLOW_MACHINE
        )
