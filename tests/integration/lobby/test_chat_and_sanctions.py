"""Chat (PCG-2) and sanctions (PCG-4) over real gRPC, with the freeze facts on NATS."""

from __future__ import annotations

from datetime import UTC

import grpc
import pytest

from tavolo.servicekit.error_details import refusal_from_error
from tavolo.v1 import common_pb2, events_pb2, lobby_pb2

from .harness import PASSWORD, Lobby, Player, bearer, event_tap, running_lobby

pytestmark = pytest.mark.integration

ROOM_CHAT = lobby_pb2.ChatChannel


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


async def say(lobby: Lobby, player: Player, channel: lobby_pb2.ChatChannel, text: str) -> object:
    return await lobby.stub.SendChat(
        lobby_pb2.SendChatRequest(channel=channel, text=text), metadata=player.metadata
    )


async def test_pcg_2_room_chat_is_recorded_with_sender_and_time(lobby: Lobby) -> None:
    host, bea, eve = [await lobby.register(n) for n in ("Host", "Bea", "Eve")]
    channel = ROOM_CHAT(room_id=await room_with(lobby, host, bea))
    await say(lobby, host, channel, "ciao a tutti")
    sent = await say(lobby, bea, channel, "  buona partita  ")
    assert sent.sender_nickname == "Bea" and sent.text == "buona partita"  # type: ignore[attr-defined]
    listed = await lobby.stub.ListChat(
        lobby_pb2.ListChatRequest(channel=channel), metadata=bea.metadata
    )
    assert [(m.sender_id, m.text) for m in listed.messages] == [
        (host.id, "ciao a tutti"),
        (bea.id, "buona partita"),
    ]
    assert all(m.sent_at.seconds > 0 for m in listed.messages)
    # Outsiders neither read nor write.
    for call in (
        lobby.stub.ListChat(lobby_pb2.ListChatRequest(channel=channel), metadata=eve.metadata),
        lobby.stub.SendChat(
            lobby_pb2.SendChatRequest(channel=channel, text="hi"), metadata=eve.metadata
        ),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await call
        assert refused.value.code() == grpc.StatusCode.NOT_FOUND


async def test_pcg_2_table_chat_pages_oldest_first(lobby: Lobby) -> None:
    ada = await lobby.register("Ada")
    seated = await lobby.stub.PlayVersusComputer(
        lobby_pb2.PlayVersusComputerRequest(game="pika", players=2), metadata=ada.metadata
    )
    channel = ROOM_CHAT(table_id=seated.table_id)
    for i in range(5):
        await say(lobby, ada, channel, f"message {i}")
    texts, token = [], ""
    while True:
        page = await lobby.stub.ListChat(
            lobby_pb2.ListChatRequest(
                channel=channel, page=common_pb2.PageRequest(page_size=2, page_token=token)
            ),
            metadata=ada.metadata,
        )
        texts += [m.text for m in page.messages]
        token = page.page.next_page_token
        if not token:
            break
    assert texts == [f"message {i}" for i in range(5)]


async def test_pcg_2_bad_messages_are_refused(lobby: Lobby) -> None:
    host = await lobby.register("Host")
    channel = ROOM_CHAT(room_id=await room_with(lobby, host))
    for text in ("   ", "x" * 501):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await say(lobby, host, channel, text)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await say(lobby, host, lobby_pb2.ChatChannel(), "where?")
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT


@pytest.fixture
async def staffed(database_url: str, nats_url: str, namespace: str) -> object:
    async with running_lobby(
        database_url, nats_url, namespace, operator=("Moderna", PASSWORD)
    ) as lobby:
        yield lobby


async def moderator(lobby: Lobby) -> Player:
    session = await lobby.stub.Login(lobby_pb2.LoginRequest(nickname="Moderna", password=PASSWORD))
    return Player(session, bearer(session.access_token))


async def sanction(
    lobby: Lobby, by: Player, target: Player, kind: int, duration: int, reason: str = "insults"
) -> lobby_pb2.Sanction:
    found: lobby_pb2.Sanction = await lobby.stub.ApplySanction(
        lobby_pb2.ApplySanctionRequest(
            player_id=target.id, kind=kind, duration=duration, reason=reason
        ),
        metadata=by.metadata,
    )
    return found


async def test_pcg_4_a_chat_suspended_players_message_is_refused(staffed: Lobby) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    host, troll = await lobby.register("Host"), await lobby.register("Troll")
    channel = ROOM_CHAT(room_id=await room_with(lobby, host, troll))
    applied = await sanction(
        lobby, mod, troll, lobby_pb2.SANCTION_KIND_CHAT, lobby_pb2.SANCTION_DURATION_ONE_MONTH
    )
    assert (applied.applied_by, applied.reason) == (mod.id, "insults")
    assert applied.until.seconds > applied.applied_at.seconds
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await say(lobby, troll, channel, "you are all bad")
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    details = refused.value.details() or ""
    assert "chat is suspended until" in details and "insults" in details
    refusal = refusal_from_error(refused.value)  # API-1: the end as a time an app can show
    assert refusal is not None and refusal.reason == "CHAT_SUSPENDED"
    assert refusal.metadata["until"] == applied.until.ToDatetime(UTC).isoformat()
    # Only the chat: the lobby still works for them, and others still chat.
    await say(lobby, host, channel, "calm down")
    await lobby.stub.JoinQueue(
        lobby_pb2.JoinQueueRequest(game="pika", players=4), metadata=troll.metadata
    )
    # The player sees the sanction on their own profile; lifted, chat works again.
    profile = await lobby.stub.GetProfile(lobby_pb2.GetProfileRequest(), metadata=troll.metadata)
    assert [s.sanction_id for s in profile.sanctions] == [applied.sanction_id]
    lifted = await lobby.stub.LiftSanction(
        lobby_pb2.LiftSanctionRequest(sanction_id=applied.sanction_id), metadata=mod.metadata
    )
    assert lifted.lifted_at.seconds > 0
    await say(lobby, troll, channel, "sorry")


async def test_pcg_4_only_moderators_sanction_and_every_sanction_says_why(staffed: Lobby) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    ada, bea = await lobby.register("Ada"), await lobby.register("Bea")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await sanction(
            lobby, ada, bea, lobby_pb2.SANCTION_KIND_CHAT, lobby_pb2.SANCTION_DURATION_PERMANENT
        )
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await sanction(
            lobby,
            mod,
            bea,
            lobby_pb2.SANCTION_KIND_CHAT,
            lobby_pb2.SANCTION_DURATION_PERMANENT,
            reason=" ",
        )
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await sanction(lobby, mod, bea, 0, lobby_pb2.SANCTION_DURATION_PERMANENT)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT


async def test_pcg_4_lobby_suspension_keeps_a_player_out_of_queues_and_rooms(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    ada = await lobby.register("Ada")
    await sanction(
        lobby, mod, ada, lobby_pb2.SANCTION_KIND_LOBBY, lobby_pb2.SANCTION_DURATION_PERMANENT
    )
    for call in (
        lobby.stub.JoinQueue(
            lobby_pb2.JoinQueueRequest(game="pika", players=4), metadata=ada.metadata
        ),
        lobby.stub.CreateRoom(
            lobby_pb2.CreateRoomRequest(game="pika", players=4), metadata=ada.metadata
        ),
        lobby.stub.PlayVersusComputer(
            lobby_pb2.PlayVersusComputerRequest(game="pika", players=2), metadata=ada.metadata
        ),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await call
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
        assert "lobby access is suspended permanently" in (refused.value.details() or "")


async def test_pcg_4_suspending_all_accounts_reaches_every_account_of_the_person(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    main = await lobby.register("Mainacct")
    second = await lobby.register("Secondacct", linked=main)
    bystander = await lobby.register("Bystander")
    await sanction(
        lobby,
        mod,
        main,
        lobby_pb2.SANCTION_KIND_ALL_ACCOUNTS,
        lobby_pb2.SANCTION_DURATION_ONE_MONTH,
    )
    for nickname in ("Mainacct", "Secondacct"):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await lobby.stub.Login(lobby_pb2.LoginRequest(nickname=nickname, password=PASSWORD))
        assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
        assert "all of your accounts are suspended until" in (refused.value.details() or "")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.Refresh(
            lobby_pb2.RefreshRequest(refresh_token=second.session.refresh_token)
        )
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
    await lobby.stub.Login(lobby_pb2.LoginRequest(nickname="Bystander", password=PASSWORD))
    assert bystander.id


async def test_pcg_4_a_freeze_is_a_fact_for_the_wallet(staffed: Lobby) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    ada = await lobby.register("Ada")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await sanction(
            lobby, mod, ada, lobby_pb2.SANCTION_KIND_FREEZE, lobby_pb2.SANCTION_DURATION_ONE_MONTH
        )
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    async with event_tap(lobby.settings.nats_url, lobby.topology) as tap:
        first = await sanction(
            lobby,
            mod,
            ada,
            lobby_pb2.SANCTION_KIND_FREEZE,
            lobby_pb2.SANCTION_DURATION_PERMANENT,
            reason="chargeback under review",
        )
        second = await sanction(
            lobby, mod, ada, lobby_pb2.SANCTION_KIND_FREEZE, lobby_pb2.SANCTION_DURATION_PERMANENT
        )
        frozen = await tap.wait_for("AccountFrozen", events_pb2.AccountFrozen, count=2)
        assert (frozen[0].player_id, frozen[0].by) == (ada.id, mod.id)
        assert frozen[0].reason == "chargeback under review"
        for held in (first, second):
            await lobby.stub.LiftSanction(
                lobby_pb2.LiftSanctionRequest(sanction_id=held.sanction_id), metadata=mod.metadata
            )
        (unfrozen,) = await tap.wait_for("AccountUnfrozen", events_pb2.AccountUnfrozen)
        # Lifting the first freeze left the second in force: one unfreeze, at the end.
        assert unfrozen.player_id == ada.id
        assert unfrozen.header.stream_id == f"sanction-{second.sanction_id}"
        registered = tap.of("PlayerRegistered", events_pb2.PlayerRegistered)
    assert ada.id in {r.player_id for r in registered}
