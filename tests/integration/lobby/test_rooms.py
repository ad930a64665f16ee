"""Versus computer (MODE-1) and rooms with invitations (MODE-2), over real gRPC and NATS."""

from __future__ import annotations

import grpc
import pytest

from tavolo.lobby.play.tables import Mode
from tavolo.v1 import common_pb2, events_pb2, lobby_pb2

from .harness import Lobby, event_tap, next_update

pytestmark = pytest.mark.integration


async def test_mode_1_versus_computer_starts_at_once_with_bots_at_the_level(lobby: Lobby) -> None:
    ada = await lobby.register("Ada")
    seated = await lobby.stub.PlayVersusComputer(
        lobby_pb2.PlayVersusComputerRequest(
            game="pika", players=3, level=common_pb2.BOT_LEVEL_HARD
        ),
        metadata=ada.metadata,
    )
    assert (seated.seat, seated.game, seated.mode) == (0, "pika", common_pb2.MODE_VERSUS_COMPUTER)
    opened = lobby.engine.tables[seated.table_id]
    assert opened.mode is Mode.VERSUS_COMPUTER
    assert [s.player_id for s in opened.seats] == [ada.id, None, None]
    assert {s.bot_level.value for s in opened.seats[1:] if s.bot_level} == {"hard"}
    # MODE-1 pays nothing: no stake is held, no match goes to the wallet.
    assert lobby.wallet.holds == {}


async def test_mode_1_a_player_at_a_table_cannot_queue_or_open_another(lobby: Lobby) -> None:
    ada = await lobby.register("Ada")
    request = lobby_pb2.PlayVersusComputerRequest(game="pika", players=2)
    await lobby.stub.PlayVersusComputer(request, metadata=ada.metadata)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.PlayVersusComputer(request, metadata=ada.metadata)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "already seated" in (refused.value.details() or "")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.JoinQueue(
            lobby_pb2.JoinQueueRequest(game="pika", players=4), metadata=ada.metadata
        )
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION


async def test_mode_1_an_engine_refusal_leaves_the_player_free(lobby: Lobby) -> None:
    from tavolo.servicekit.errors import Unavailable

    ada = await lobby.register("Ada")
    lobby.engine.refuse_with = Unavailable(
        "the engine is not reachable right now", reason="SERVICE_UNREACHABLE"
    )
    request = lobby_pb2.PlayVersusComputerRequest(game="pika", players=2)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.PlayVersusComputer(request, metadata=ada.metadata)
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    lobby.engine.refuse_with = None
    await lobby.stub.PlayVersusComputer(request, metadata=ada.metadata)


async def test_mode_2_invitation_flow_with_accept_and_decline(lobby: Lobby) -> None:
    host, bea, carlo, dino = [await lobby.register(n) for n in ("Host", "Bea", "Carlo", "Dino")]
    bea_watch = lobby.stub.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=bea.metadata)
    host_watch = lobby.stub.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=host.metadata)
    room = await lobby.stub.CreateRoom(
        lobby_pb2.CreateRoomRequest(game="pika", players=4), metadata=host.metadata
    )
    for nickname in ("BEA", "carlo"):
        room = await lobby.stub.Invite(
            lobby_pb2.InviteRequest(room_id=room.room_id, nickname=nickname),
            metadata=host.metadata,
        )
    assert [i.state for i in room.invitations] == [lobby_pb2.INVITATION_STATE_PENDING] * 2

    arrived = await next_update(bea_watch)
    assert arrived.invitation.room_id == room.room_id
    assert arrived.invitation.host_nickname == "Host"
    assert arrived.invitation.state == lobby_pb2.INVITATION_STATE_PENDING

    await lobby.stub.RespondToInvitation(
        lobby_pb2.RespondToInvitationRequest(room_id=room.room_id, accept=True),
        metadata=bea.metadata,
    )
    room = await lobby.stub.RespondToInvitation(
        lobby_pb2.RespondToInvitationRequest(room_id=room.room_id, accept=False),
        metadata=carlo.metadata,
    )
    states = {i.nickname: i.state for i in room.invitations}
    assert states == {
        "Bea": lobby_pb2.INVITATION_STATE_ACCEPTED,
        "Carlo": lobby_pb2.INVITATION_STATE_DECLINED,
    }
    answers = [await next_update(host_watch), await next_update(host_watch)]
    # (the host's stream starts empty: the host has no invitation, ticket or table)
    assert {(u.invitation.nickname, u.invitation.state) for u in answers} == {
        ("Bea", lobby_pb2.INVITATION_STATE_ACCEPTED),
        ("Carlo", lobby_pb2.INVITATION_STATE_DECLINED),
    }

    # Someone never invited cannot answer; a second answer is refused.
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.RespondToInvitation(
            lobby_pb2.RespondToInvitationRequest(room_id=room.room_id, accept=True),
            metadata=dino.metadata,
        )
    assert refused.value.code() == grpc.StatusCode.NOT_FOUND
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.RespondToInvitation(
            lobby_pb2.RespondToInvitationRequest(room_id=room.room_id, accept=True),
            metadata=carlo.metadata,
        )
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION

    # Not full and no bots: refused with what to do. With bots: the match goes out.
    start = lobby_pb2.StartRoomRequest(room_id=room.room_id)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.StartRoom(start, metadata=host.metadata)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "2 of 4 seats" in (refused.value.details() or "")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.StartRoom(start, metadata=bea.metadata)
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED

    async with event_tap(lobby.settings.nats_url, lobby.topology) as tap:
        seated = await lobby.stub.StartRoom(
            lobby_pb2.StartRoomRequest(
                room_id=room.room_id, fill_with_bots=True, bot_level=common_pb2.BOT_LEVEL_EASY
            ),
            metadata=host.metadata,
        )
        (formed,) = await tap.wait_for("MatchFormed", events_pb2.MatchFormed)
    bea_watch.cancel()
    host_watch.cancel()
    assert formed.match_id == seated.table_id
    assert formed.mode == common_pb2.MODE_VERSUS_FRIENDS
    assert formed.stake == 0 and not formed.bot_filled
    assert [(s.player_id, s.bot) for s in formed.seats] == [
        (host.id, False),
        (bea.id, False),
        ("", True),
        ("", True),
    ]
    assert formed.header.stream_id == f"match-{formed.match_id}"
    assert formed.header.event_id
    # The room has its table now; a second start is refused.
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.StartRoom(start, metadata=host.metadata)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION


async def test_mode_2_inviting_an_unknown_nickname_is_not_found(lobby: Lobby) -> None:
    host = await lobby.register("Host")
    room = await lobby.stub.CreateRoom(
        lobby_pb2.CreateRoomRequest(game="pika", players=2), metadata=host.metadata
    )
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.Invite(
            lobby_pb2.InviteRequest(room_id=room.room_id, nickname="Ghost"),
            metadata=host.metadata,
        )
    assert refused.value.code() == grpc.StatusCode.NOT_FOUND
    assert "Ghost" in (refused.value.details() or "")


async def test_mode_2_a_bad_game_is_refused_and_changes_nothing(lobby: Lobby) -> None:
    host = await lobby.register("Host")
    for game, players in (("chess", 2), ("pika", 9)):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await lobby.stub.CreateRoom(
                lobby_pb2.CreateRoomRequest(game=game, players=players), metadata=host.metadata
            )
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    async with lobby.app.ctx.db.connection() as conn:
        assert await conn.fetchval('SELECT count(*) FROM "lobby".rooms') == 0
