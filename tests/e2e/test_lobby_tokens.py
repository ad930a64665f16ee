"""Guarantee 9 across the platform: the lobby's tokens open every service, and a missing,
forged, expired or refresh token opens none (PLAT-4: every call is authenticated).

The methods come from each service's descriptor, so a method added later is covered.
"""

from __future__ import annotations

import time
from collections.abc import AsyncIterator

import grpc
import pytest

from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.v1 import (
    engine_pb2,
    leaderboard_pb2,
    lobby_pb2,
    wallet_pb2,
)
from tests.integration.lobby.harness import bearer
from tests.integration.lobby.platform import Platform, running_platform
from tests.secret import TEST_TOKEN_SECRET

pytestmark = pytest.mark.e2e

MODULES = {"lobby": lobby_pb2, "engine": engine_pb2, "wallet": wallet_pb2}
MODULES["leaderboard"] = leaderboard_pb2
# Logout, like Refresh, is proven by the refresh token it names: an expired access token
# must not keep a person from ending a login.
PUBLIC = {("lobby", "Register"), ("lobby", "Login"), ("lobby", "Refresh"), ("lobby", "Logout")}


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    async with running_platform(
        database_url, nats_url, namespace, with_leaderboard=True
    ) as running:
        yield running


async def status_of(
    channel: grpc.aio.Channel, module: object, method: object, metadata: object
) -> grpc.StatusCode:
    service = method.containing_service  # type: ignore[attr-defined]
    request_type = getattr(module, method.input_type.name)  # type: ignore[attr-defined]
    path = f"/{service.full_name}/{method.name}"  # type: ignore[attr-defined]
    kwargs = {"request_serializer": request_type.SerializeToString}
    try:
        if method.server_streaming:  # type: ignore[attr-defined]
            await channel.unary_stream(path, **kwargs)(request_type(), metadata=metadata).read()
        else:
            await channel.unary_unary(path, **kwargs)(request_type(), metadata=metadata)
    except grpc.aio.AioRpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


async def test_guarantee_9_no_service_answers_without_a_valid_token(platform: Platform) -> None:
    player = await platform.register("Honest")
    forged, _ = TokenSigner("not-the-platform-secret-at-all-00").issue(
        player.id, [Role.PLAYER, Role.OPERATOR, Role.SERVICE]
    )
    expired, _ = TokenSigner(TEST_TOKEN_SECRET).issue(
        player.id, [Role.PLAYER], now=time.time() - 7200, ttl_seconds=60
    )
    attempts = {
        "none": None,
        "forged": bearer(forged),
        "expired": bearer(expired),
        "refresh": bearer(player.session.refresh_token),
        "garbage": bearer("x.y.z"),
    }
    wrong: list[str] = []
    checked = 0
    for name, module in MODULES.items():
        channel = grpc.aio.insecure_channel(f"127.0.0.1:{platform.services[name].port}")
        async with channel:
            service = next(iter(module.DESCRIPTOR.services_by_name.values()))
            for method in service.methods:
                if (name, method.name) in PUBLIC:
                    continue
                for label, metadata in attempts.items():
                    code = await status_of(channel, module, method, metadata)
                    checked += 1
                    if code != grpc.StatusCode.UNAUTHENTICATED:
                        wrong.append(f"{name}.{method.name} with {label} token: {code.name}")
    assert wrong == []
    assert checked >= 5 * 30  # every service took part


async def test_guarantee_9_a_lobby_session_is_accepted_by_every_service(
    platform: Platform,
) -> None:
    player = await platform.register("Welcome")
    balance = await platform.wallet.GetBalance(
        wallet_pb2.GetBalanceRequest(), metadata=player.metadata
    )
    assert balance.player_id == player.id
    with pytest.raises(grpc.aio.AioRpcError) as missing:
        await platform.engine.GetTable(
            engine_pb2.GetTableRequest(table_id="no-such-table"), metadata=player.metadata
        )
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND  # authenticated, then not found
