"""A lobby started with a moderator account, and the calls the conduct tests share."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tavolo.v1 import lobby_pb2

from .harness import PASSWORD, Lobby, Player, bearer, running_lobby

MODERATOR = "Moderna"


@pytest.fixture
async def staffed(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Lobby]:
    async with running_lobby(
        database_url, nats_url, namespace, operator=(MODERATOR, PASSWORD)
    ) as lobby:
        yield lobby


async def moderator(lobby: Lobby) -> Player:
    session = await lobby.stub.Login(lobby_pb2.LoginRequest(nickname=MODERATOR, password=PASSWORD))
    return Player(session, bearer(session.access_token))


async def room_with(lobby: Lobby, host: Player, *friends: Player) -> str:
    room = await lobby.stub.CreateRoom(
        lobby_pb2.CreateRoomRequest(game="pika", players=4), metadata=host.metadata
    )
    for friend in friends:
        await lobby.stub.Invite(
            lobby_pb2.InviteRequest(room_id=room.room_id, nickname=friend.nickname),
            metadata=host.metadata,
        )
        await lobby.stub.RespondToInvitation(
            lobby_pb2.RespondToInvitationRequest(room_id=room.room_id, accept=True),
            metadata=friend.metadata,
        )
    room_id: str = room.room_id
    return room_id


async def say(
    lobby: Lobby, player: Player, channel: lobby_pb2.ChatChannel, text: str
) -> lobby_pb2.ChatMessage:
    sent: lobby_pb2.ChatMessage = await lobby.stub.SendChat(
        lobby_pb2.SendChatRequest(channel=channel, text=text), metadata=player.metadata
    )
    return sent


async def chat_of(
    lobby: Lobby, player: Player, channel: lobby_pb2.ChatChannel
) -> list[lobby_pb2.ChatMessage]:
    page = await lobby.stub.ListChat(
        lobby_pb2.ListChatRequest(channel=channel), metadata=player.metadata
    )
    return list(page.messages)
