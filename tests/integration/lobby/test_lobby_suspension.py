"""A lobby suspension shuts every lobby feature at once (PCG-4): the streams a suspended
player holds open (WatchLobby, WatchTournament) end at once with the sanction's refusal,
chat in rooms is refused for writing and reading, and a host's StartRoom seats nobody
suspended. Real PostgreSQL and NATS, over gRPC."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest

from tavolo.v1 import lobby_pb2

from .harness import Lobby
from .staff import chat_of, moderator, room_with, say, staffed
from .test_tournaments import request

__all__ = ["staffed"]

# A guard against a stream that never ends (the fault this test looks for), not a timing.
HANG = 30.0


async def ended_with(stream: Any) -> grpc.StatusCode:
    """How a stream ended, reading (and dropping) whatever it sends until then."""
    try:
        async with asyncio.timeout(HANG):
            async for _ in stream:
                pass
    except grpc.aio.AioRpcError as exc:
        return exc.code()
    return grpc.StatusCode.OK


async def first_of(stream: AsyncIterator[Any]) -> None:
    async with asyncio.timeout(HANG):
        await anext(aiter(stream))


async def test_pcg_4_a_lobby_suspension_closes_streams_chat_and_seats_at_once(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    host, ada, bea = [await lobby.register(n) for n in ("Ospite", "Ada", "Bea")]
    room_id = await room_with(lobby, host, ada, bea)
    channel = lobby_pb2.ChatChannel(room_id=room_id)
    await say(lobby, ada, channel, "ciao a tutti")
    created = await lobby.stub.CreateTournament(request(lobby), metadata=mod.metadata)

    watching = lobby.stub.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=ada.metadata)
    following = lobby.stub.WatchTournament(
        lobby_pb2.WatchTournamentRequest(tournament_id=created.tournament_id),
        metadata=ada.metadata,
    )
    await first_of(following)  # both streams are open and serving
    lobby_ended = asyncio.create_task(ended_with(watching))
    tournament_ended = asyncio.create_task(ended_with(following))
    await asyncio.sleep(0.5)  # the WatchLobby stream is subscribed
    assert not lobby_ended.done() and not tournament_ended.done()

    await lobby.stub.ApplySanction(
        lobby_pb2.ApplySanctionRequest(
            player_id=ada.id,
            kind=lobby_pb2.SANCTION_KIND_LOBBY,
            duration=lobby_pb2.SANCTION_DURATION_ONE_MONTH,
            reason="abuse in chat",
        ),
        metadata=mod.metadata,
    )
    assert await lobby_ended == grpc.StatusCode.PERMISSION_DENIED
    assert await tournament_ended == grpc.StatusCode.PERMISSION_DENIED

    for call in (say(lobby, ada, channel, "ancora io"), chat_of(lobby, ada, channel)):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await call
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
        assert "lobby access is suspended" in (refused.value.details() or "")
    with pytest.raises(grpc.aio.AioRpcError) as reopened:
        await first_of(lobby.stub.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=ada.metadata))
    assert reopened.value.code() == grpc.StatusCode.PERMISSION_DENIED

    start = lobby_pb2.StartRoomRequest(room_id=room_id, fill_with_bots=True)
    with pytest.raises(grpc.aio.AioRpcError) as not_seated:
        await lobby.stub.StartRoom(start, metadata=host.metadata)
    assert not_seated.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "Ada cannot play" in (not_seated.value.details() or "")
    # Others are not touched: Bea still chats.
    await say(lobby, bea, channel, "peccato")
