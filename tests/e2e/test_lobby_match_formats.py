"""Match formats at every table (PCG-6), over real gRPC, NATS and PostgreSQL.

The lobby lists each game's options, checks a requested format against the rules engine,
refuses a bad one naming the option and what it allows, seats together only tickets that
want the same format, and the engine shows the format to every seat of the table.
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
from google.protobuf import json_format, struct_pb2

from tavolo.v1 import engine_pb2, lobby_pb2
from tests.integration.lobby.harness import Player
from tests.integration.lobby.platform import Platform, running_platform, seated_at

pytestmark = pytest.mark.e2e


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    async with running_platform(database_url, nats_url, namespace) as running:
        yield running


def struct(**values: Any) -> struct_pb2.Struct:
    message = struct_pb2.Struct()
    message.update(values)
    return message


async def view_of(platform: Platform, table_id: str, player: Player) -> engine_pb2.TableView:
    request = engine_pb2.GetTableRequest(table_id=table_id)
    async with asyncio.timeout(30):
        while True:
            try:
                found: engine_pb2.TableView = await platform.engine.GetTable(
                    request, metadata=player.metadata
                )
                return found
            except grpc.aio.AioRpcError as exc:
                if exc.code() != grpc.StatusCode.NOT_FOUND:  # not opened yet
                    raise
                await asyncio.sleep(0.05)


async def test_pcg_6_list_games_offers_every_option_with_its_default_and_values(
    platform: Platform,
) -> None:
    ada = await platform.register("Curiosa")
    found = await platform.lobby.ListGames(lobby_pb2.ListGamesRequest(), metadata=ada.metadata)
    games = {g.name: g for g in found.games}
    assert {"pika", "spades", "uno", "hearts"} <= set(games)
    pika = {o.name: o for o in games["pika"].options}
    assert pika["match_length"].default.string_value == "single"
    assert "hands:N" in pika["match_length"].doc
    assert [c.number_value for c in pika["players"].choices] == [2, 3, 4]
    assert list(games["pika"].seat_counts) == [2, 3, 4]
    assert list(games["spades"].seat_counts) == [4]
    uno = {o.name: o for o in games["uno"].options}
    assert uno["match_length"].default.string_value == "points:500"
    assert [c.string_value for c in uno["challenge"].choices] == ["on", "off"]


async def test_pcg_6_a_room_plays_its_format_and_every_seat_sees_it(platform: Platform) -> None:
    host, friend = await platform.register("Formato"), await platform.register("Amico")
    room = await platform.lobby.CreateRoom(
        lobby_pb2.CreateRoomRequest(game="pika", players=2, options=struct(match_length="hands:3")),
        metadata=host.metadata,
    )
    echoed = json_format.MessageToDict(room.options)
    assert echoed["match_length"] == "hands:3"
    assert echoed["pika_window"] == 3  # the default, filled in and shown
    await platform.lobby.Invite(
        lobby_pb2.InviteRequest(room_id=room.room_id, nickname="amico"), metadata=host.metadata
    )
    await platform.lobby.RespondToInvitation(
        lobby_pb2.RespondToInvitationRequest(room_id=room.room_id, accept=True),
        metadata=friend.metadata,
    )
    start = await platform.lobby.StartRoom(
        lobby_pb2.StartRoomRequest(room_id=room.room_id), metadata=host.metadata
    )
    for player in (host, friend):
        view = await view_of(platform, start.table_id, player)
        options = json_format.MessageToDict(view.options)
        assert options["match_length"] == "hands:3"
        assert options["players"] == 2
        assert view.public["match_length"] == "hands:3"


@pytest.mark.parametrize(
    ("options", "named", "allowed"),
    [
        ({"match_length": "hands:0"}, "match_length", "'hands:N'"),
        ({"pika_window": 90}, "pika_window", "between 0 and 60"),
        ({"players": 9}, "players", "the table has 2 seats"),
        ({"lenght": "hands:3"}, "lenght", "match_length"),
    ],
)
async def test_pcg_6_a_bad_option_is_refused_naming_it_and_what_is_allowed(
    platform: Platform, options: dict[str, Any], named: str, allowed: str
) -> None:
    ada = await platform.register("Sbaglia")
    requests = [
        platform.lobby.CreateRoom(
            lobby_pb2.CreateRoomRequest(game="pika", players=2, options=struct(**options)),
            metadata=ada.metadata,
        ),
        platform.lobby.JoinQueue(
            lobby_pb2.JoinQueueRequest(game="pika", players=2, options=struct(**options)),
            metadata=ada.metadata,
        ),
        platform.lobby.JoinQueue(
            lobby_pb2.JoinQueueRequest(
                game="pika", players=2, stake=100, options=struct(**options)
            ),
            metadata=ada.metadata,
        ),
        platform.lobby.PlayVersusComputer(
            lobby_pb2.PlayVersusComputerRequest(game="pika", players=2, options=struct(**options)),
            metadata=ada.metadata,
        ),
    ]
    for request in requests:
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await request
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert named in (refused.value.details() or "")
        assert allowed in (refused.value.details() or "")
    # Nothing changed: the player is free to queue for a good table.
    ticket = await platform.lobby.JoinQueue(
        lobby_pb2.JoinQueueRequest(game="pika", players=2), metadata=ada.metadata
    )
    assert ticket.ticket_id


async def test_pcg_6_the_queue_seats_together_only_tickets_of_the_same_format(
    platform: Platform,
) -> None:
    short = [await platform.register(f"Breve{i}") for i in range(2)]
    other = await platform.register("Lunga")
    watchers = {p.id: asyncio.create_task(seated_at(platform, p)) for p in [*short, other]}
    await asyncio.sleep(0.2)

    async def join(player: Player, match_length: str) -> None:
        await platform.lobby.JoinQueue(
            lobby_pb2.JoinQueueRequest(
                game="pika", players=2, options=struct(match_length=match_length)
            ),
            metadata=player.metadata,
        )

    await join(short[0], "hands:2")
    await join(other, "points:50")
    await join(short[1], "hands:2")
    seats = {pid: await task for pid, task in watchers.items()}
    assert seats[short[0].id].table_id == seats[short[1].id].table_id
    assert seats[other.id].table_id != seats[short[0].id].table_id
    alone = await view_of(platform, seats[other.id].table_id, other)
    assert [s.bot for s in alone.seats].count(True) == 1  # bot-filled, not mixed in
    assert json_format.MessageToDict(alone.options)["match_length"] == "points:50"
    paired = await view_of(platform, seats[short[0].id].table_id, short[0])
    assert not any(s.bot for s in paired.seats)
    assert json_format.MessageToDict(paired.options)["match_length"] == "hands:2"


@pytest.mark.parametrize(
    ("game", "options", "named", "allowed"),
    [
        ("tresette", {"accusi": 1}, "accusi", "false, true"),
        ("scala40", {"no_attachable_discard": 0}, "no_attachable_discard", "false, true"),
        ("pika", {"match_length": "hands:07"}, "match_length", "'hands:7'"),
        ("scopa", {"match_length": "points:011"}, "match_length", "'points:11'"),
    ],
)
async def test_pcg_6_a_look_alike_option_value_is_refused_and_nothing_stored(
    platform: Platform, game: str, options: dict[str, Any], named: str, allowed: str
) -> None:
    """PCG-6: a Struct carries ``1`` as the number 1.0, never as ``true``; a boolean option
    refuses it, and a spelling other than the canonical one (``hands:07``) is refused
    naming the one to write, so the first event and every view hold canonical values."""
    ada = await platform.register("Somiglia")
    for request in (
        platform.lobby.CreateRoom(
            lobby_pb2.CreateRoomRequest(game=game, players=2, options=struct(**options)),
            metadata=ada.metadata,
        ),
        platform.lobby.PlayVersusComputer(
            lobby_pb2.PlayVersusComputerRequest(game=game, players=2, options=struct(**options)),
            metadata=ada.metadata,
        ),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await request
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert named in (refused.value.details() or "")
        assert allowed in (refused.value.details() or "")
    rooms = await platform.lobby.PlayVersusComputer(
        lobby_pb2.PlayVersusComputerRequest(game=game, players=2), metadata=ada.metadata
    )
    assert rooms.table_id
