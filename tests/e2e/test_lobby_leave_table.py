"""A player who leaves a table still in play is free in the lobby at once (the engine's
SeatLeft reaches the lobby), while a bot plays their seat to the end."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import grpc
import pytest

from tavolo.v1 import engine_pb2, lobby_pb2
from tests.integration.lobby.harness import Player
from tests.integration.lobby.platform import Platform, running_platform, seated_at
from tests.waiting import eventually

pytestmark = pytest.mark.e2e


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    async with running_platform(database_url, nats_url, namespace) as running:
        yield running


async def friends_table(platform: Platform, host: Player, friend: Player) -> str:
    room = await platform.lobby.CreateRoom(
        lobby_pb2.CreateRoomRequest(game="pika", players=2), metadata=host.metadata
    )
    await platform.lobby.Invite(
        lobby_pb2.InviteRequest(room_id=room.room_id, nickname=friend.nickname),
        metadata=host.metadata,
    )
    await platform.lobby.RespondToInvitation(
        lobby_pb2.RespondToInvitationRequest(room_id=room.room_id, accept=True),
        metadata=friend.metadata,
    )
    watcher = asyncio.create_task(seated_at(platform, host))
    await asyncio.sleep(0.2)
    start = await platform.lobby.StartRoom(
        lobby_pb2.StartRoomRequest(room_id=room.room_id), metadata=host.metadata
    )
    await watcher  # the engine dealt and the lobby heard it
    table_id: str = start.table_id
    return table_id


async def test_a_player_who_left_the_table_can_queue_again_while_it_plays_on(
    platform: Platform,
) -> None:
    host, friend = await platform.register("Partente"), await platform.register("Restante")
    table_id = await friends_table(platform, host, friend)
    queue = lobby_pb2.JoinQueueRequest(game="pika", players=4)
    with pytest.raises(grpc.aio.AioRpcError) as busy:
        await platform.lobby.JoinQueue(queue, metadata=host.metadata)
    assert busy.value.code() == grpc.StatusCode.FAILED_PRECONDITION

    await platform.engine.LeaveTable(
        engine_pb2.LeaveTableRequest(table_id=table_id), metadata=host.metadata
    )
    tickets: list[lobby_pb2.Ticket] = []

    async def queued() -> bool:
        try:
            tickets.append(await platform.lobby.JoinQueue(queue, metadata=host.metadata))
        except grpc.aio.AioRpcError as exc:
            assert exc.code() == grpc.StatusCode.FAILED_PRECONDITION, exc.details()
            return False
        return True

    await eventually(queued, "the player who left is free to queue again")
    assert tickets[0].state == lobby_pb2.TICKET_STATE_WAITING
    view = await platform.engine.GetTable(
        engine_pb2.GetTableRequest(table_id=table_id), metadata=friend.metadata
    )
    assert view.status == engine_pb2.TABLE_STATUS_PLAYING  # freed before the table ended
    assert [s.bot for s in view.seats] == [True, False]
    with pytest.raises(grpc.aio.AioRpcError) as still_busy:
        await platform.lobby.JoinQueue(queue, metadata=friend.metadata)
    assert still_busy.value.code() == grpc.StatusCode.FAILED_PRECONDITION
