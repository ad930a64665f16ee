"""Vulgar language in chat (PCG-3) and where chat is enabled (PCG-2), over real gRPC."""

from __future__ import annotations

import uuid

import grpc
import pytest

from tavolo.v1 import lobby_pb2

from .harness import Lobby
from .staff import chat_of, moderator, room_with, say, staffed

pytestmark = pytest.mark.integration
__all__ = ["staffed"]


def settings(room_id: str, *, disabled: bool = False, policy: int = 0) -> lobby_pb2.ChatSettings:
    return lobby_pb2.ChatSettings(
        channel=lobby_pb2.ChatChannel(room_id=room_id), disabled=disabled, policy=policy
    )


async def test_pcg_3_masked_words_are_hidden_and_the_original_kept_for_moderators(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    host, bea = await lobby.register("Host"), await lobby.register("Bea")
    channel = lobby_pb2.ChatChannel(room_id=await room_with(lobby, host, bea))
    sent = await say(lobby, bea, channel, "che c.4.z.z.0 di mano")
    assert sent.text == "che ********* di mano" and sent.original_text == ""
    await say(lobby, bea, channel, "ho fatto scopa a Cazzago")
    seen_by_host = await chat_of(lobby, host, channel)
    assert [(m.text, m.original_text) for m in seen_by_host] == [
        ("che ********* di mano", ""),
        ("ho fatto scopa a Cazzago", ""),
    ]
    seen_by_mod = await chat_of(lobby, mod, channel)
    assert [(m.text, m.original_text) for m in seen_by_mod] == [
        ("che ********* di mano", "che c.4.z.z.0 di mano"),
        ("ho fatto scopa a Cazzago", ""),
    ]


async def test_pcg_3_refusing_rooms_send_nothing_yet_moderators_see_the_attempt(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    host, bea = await lobby.register("Host"), await lobby.register("Bea")
    room_id = await room_with(lobby, host, bea)
    channel = lobby_pb2.ChatChannel(room_id=room_id)
    chosen = await lobby.stub.SetChatSettings(
        settings(room_id, policy=lobby_pb2.CHAT_POLICY_REFUSE), metadata=host.metadata
    )
    assert chosen.policy == lobby_pb2.CHAT_POLICY_REFUSE and not chosen.disabled
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await say(lobby, bea, channel, "sei uno STR0NZ00")
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "vulgar" in (refused.value.details() or "")
    assert await chat_of(lobby, host, channel) == []
    [attempt] = await chat_of(lobby, mod, channel)
    assert attempt.refused and attempt.text == "" and attempt.original_text == "sei uno STR0NZ00"


async def test_pcg_2_the_host_turns_chat_off_and_only_host_or_moderator_may(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    host, bea = await lobby.register("Host"), await lobby.register("Bea")
    room_id = await room_with(lobby, host, bea)
    channel = lobby_pb2.ChatChannel(room_id=room_id)
    with pytest.raises(grpc.aio.AioRpcError) as denied:
        await lobby.stub.SetChatSettings(settings(room_id, disabled=True), metadata=bea.metadata)
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    await say(lobby, bea, channel, "ciao")
    await lobby.stub.SetChatSettings(settings(room_id, disabled=True), metadata=host.metadata)
    with pytest.raises(grpc.aio.AioRpcError) as off:
        await say(lobby, bea, channel, "ciao ancora")
    assert off.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert [m.text for m in await chat_of(lobby, host, channel)] == ["ciao"]
    await lobby.stub.SetChatSettings(settings(room_id), metadata=mod.metadata)
    await say(lobby, bea, channel, "di nuovo")
    with pytest.raises(grpc.aio.AioRpcError) as missing:
        await lobby.stub.SetChatSettings(settings(str(uuid.uuid4())), metadata=mod.metadata)
    assert missing.value.code() == grpc.StatusCode.NOT_FOUND
