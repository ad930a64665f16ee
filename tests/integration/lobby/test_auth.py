"""Guarantee 9 / PLAT-4: every lobby call but Register, Login and Refresh needs a valid token.

The list of methods comes from the service descriptor, so a method added later is
covered without touching this test.
"""

from __future__ import annotations

import time

import grpc
import pytest

from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.v1 import lobby_pb2
from tests.secret import TEST_TOKEN_SECRET

from .harness import Lobby, bearer

pytestmark = pytest.mark.integration

LOBBY = lobby_pb2.DESCRIPTOR.services_by_name["Lobby"]
PUBLIC = {"Register", "Login", "Refresh", "Logout"}
FORGER = TokenSigner("somebody-else-entirely-different-secret")


def _call(lobby: Lobby, method: str) -> tuple[object, bool]:
    descriptor = LOBBY.methods_by_name[method]
    request_type = getattr(lobby_pb2, descriptor.input_type.name)
    path = f"/{LOBBY.full_name}/{method}"
    streaming = descriptor.server_streaming
    if streaming:
        call = lobby.channel.unary_stream(
            path,
            request_serializer=request_type.SerializeToString,
            response_deserializer=lambda b: b,
        )
    else:
        call = lobby.channel.unary_unary(
            path,
            request_serializer=request_type.SerializeToString,
            response_deserializer=lambda b: b,
        )
    return (call, request_type), streaming


async def _status(lobby: Lobby, method: str, metadata: object) -> grpc.StatusCode:
    (call, request_type), streaming = _call(lobby, method)
    try:
        if streaming:
            stream = call(request_type(), metadata=metadata)  # type: ignore[operator]
            await stream.read()
        else:
            await call(request_type(), metadata=metadata)  # type: ignore[operator]
    except grpc.aio.AioRpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


PROTECTED = sorted(set(LOBBY.methods_by_name) - PUBLIC)


async def test_guarantee_9_no_token_no_call(lobby: Lobby) -> None:
    codes = {method: await _status(lobby, method, None) for method in PROTECTED}
    assert codes == dict.fromkeys(PROTECTED, grpc.StatusCode.UNAUTHENTICATED)


async def test_guarantee_9_forged_expired_and_malformed_tokens_are_refused_everywhere(
    lobby: Lobby,
) -> None:
    ada = await lobby.register("Ada")
    forged, _ = FORGER.issue(ada.id, [Role.PLAYER, Role.OPERATOR])
    expired, _ = TokenSigner(TEST_TOKEN_SECRET).issue(
        ada.id, [Role.PLAYER], now=time.time() - 3600, ttl_seconds=60
    )
    bad = [
        bearer(forged),
        bearer(expired),
        bearer("not-a-token"),
        (("authorization", f"Basic {ada.session.access_token}"),),
    ]
    for method in PROTECTED:
        for metadata in bad:
            code = await _status(lobby, method, metadata)
            assert code == grpc.StatusCode.UNAUTHENTICATED, (method, metadata)


async def test_the_public_calls_need_no_token(lobby: Lobby) -> None:
    for method in sorted(PUBLIC):
        code = await _status(lobby, method, None)
        assert code not in (grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.UNIMPLEMENTED) or (
            method in {"Login", "Refresh"}
        )
    # Register with no token at all creates an account.
    session = await lobby.stub.Register(
        lobby_pb2.RegisterRequest(nickname="Open", password="long enough password")
    )
    assert session.player_id
