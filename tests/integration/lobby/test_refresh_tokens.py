"""Refresh tokens (guarantee 9): kept hashed, single-use, rotated on every refresh, and a
token used twice revokes every session of its login (its family)."""

from __future__ import annotations

import asyncpg
import grpc
import pytest

from tavolo.lobby.accounts.refresh_store import token_hash
from tavolo.v1 import lobby_pb2

from .harness import PASSWORD, Lobby

pytestmark = pytest.mark.integration


async def _refresh(lobby: Lobby, token: str) -> lobby_pb2.Session:
    session: lobby_pb2.Session = await lobby.stub.Refresh(
        lobby_pb2.RefreshRequest(refresh_token=token)
    )
    return session


async def _refused(lobby: Lobby, token: str) -> grpc.aio.AioRpcError:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _refresh(lobby, token)
    return caught.value


async def test_a_refresh_rotates_the_token_and_a_reused_one_revokes_its_login(
    lobby: Lobby, database_url: str
) -> None:
    first = (await lobby.register("Rotante")).session
    second = await _refresh(lobby, first.refresh_token)
    assert second.refresh_token != first.refresh_token
    third = await _refresh(lobby, second.refresh_token)
    other_login = await lobby.stub.Login(
        lobby_pb2.LoginRequest(nickname="Rotante", password=PASSWORD)
    )

    # The stolen copy of an old token is presented: refused, and the login it came from
    # is over, the holder's current token included.
    reused = await _refused(lobby, first.refresh_token)
    assert reused.code() == grpc.StatusCode.UNAUTHENTICATED
    assert "used before" in (reused.details() or "")
    current = await _refused(lobby, third.refresh_token)
    assert current.code() == grpc.StatusCode.UNAUTHENTICATED
    assert "revoked" in (current.details() or "")
    # Another login of the same player is another family: untouched.
    assert (await _refresh(lobby, other_login.refresh_token)).player_id == first.player_id

    conn = await asyncpg.connect(database_url)
    try:
        stored = await conn.fetch("SELECT token_hash FROM lobby.refresh_tokens")
    finally:
        await conn.close()
    hashes = {bytes(r["token_hash"]) for r in stored}
    assert token_hash(first.refresh_token) in hashes  # its hash is kept, not the token


async def test_a_logout_ends_its_login_and_no_other(lobby: Lobby) -> None:
    first = (await lobby.register("Uscente")).session
    rotated = await _refresh(lobby, first.refresh_token)
    elsewhere = await lobby.stub.Login(
        lobby_pb2.LoginRequest(nickname="Uscente", password=PASSWORD)
    )
    await lobby.stub.Logout(lobby_pb2.LogoutRequest(refresh_token=rotated.refresh_token))
    await lobby.stub.Logout(lobby_pb2.LogoutRequest(refresh_token=rotated.refresh_token))
    ended = await _refused(lobby, rotated.refresh_token)
    assert ended.code() == grpc.StatusCode.UNAUTHENTICATED
    assert "revoked" in (ended.details() or "")
    assert (await _refresh(lobby, elsewhere.refresh_token)).player_id == first.player_id
    with pytest.raises(grpc.aio.AioRpcError) as forged:
        await lobby.stub.Logout(lobby_pb2.LogoutRequest(refresh_token="not-a-token"))
    assert forged.value.code() == grpc.StatusCode.UNAUTHENTICATED
