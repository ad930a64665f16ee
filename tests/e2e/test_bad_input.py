"""The bad inputs that once became INTERNAL are refused at the edge, and change nothing.

Each case is one a fuzzer found against the running platform: a NUL byte that PostgreSQL
refused deep in a query, NaN and Infinity in game options, a 1 MB request id that broke
an index, and a 100 KB nickname or 1 MB table id echoed into an error until the reply
itself was too large. The generated fuzz test covers every RPC; these keep the four
stories readable.
"""

from __future__ import annotations

import math
import random
from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
from google.protobuf import struct_pb2

from tavolo.v1 import common_pb2, engine_pb2, lobby_pb2
from tests.integration.lobby.harness import PASSWORD, Player
from tests.integration.lobby.platform import Platform, running_platform

pytestmark = pytest.mark.e2e


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    async with running_platform(database_url, nats_url, namespace) as running:
        yield running


async def refused(call: Any, request: Any, player: Player | None = None) -> str:
    """The INVALID_ARGUMENT message of a call, which must be short."""
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await call(request, metadata=player.metadata if player else None)
    assert info.value.code() is grpc.StatusCode.INVALID_ARGUMENT, info.value.details()
    details = info.value.details() or ""
    assert len(details) < 300
    return details


def options(**values: Any) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    struct.update(values)
    return struct


async def test_a_nul_byte_is_refused_wherever_it_is_sent(platform: Platform) -> None:
    ada = await platform.register("Ada")
    lobby = platform.lobby
    message = await refused(
        lobby.Register, lobby_pb2.RegisterRequest(nickname="Bad\x00", password=PASSWORD)
    )
    assert "control character U+0000" in message
    await refused(lobby.GetProfile, lobby_pb2.GetProfileRequest(player_id=ada.id + "\x00"), ada)
    await refused(platform.engine.GetTable, engine_pb2.GetTableRequest(table_id="t\x00"), ada)
    # Nothing was made: the nickname is still free.
    await lobby.Register(lobby_pb2.RegisterRequest(nickname="Bad", password=PASSWORD))


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
async def test_game_options_that_are_not_finite_numbers_are_refused(
    platform: Platform, value: float
) -> None:
    ada = await platform.register("Ada")
    message = await refused(
        platform.lobby.PlayVersusComputer,
        lobby_pb2.PlayVersusComputerRequest(
            game="pika", players=2, options=options(pika_window=value)
        ),
        ada,
    )
    assert message.startswith("options.pika_window must be a finite number")
    operator = await platform.operator()
    await refused(
        platform.engine.OpenTable,
        engine_pb2.OpenTableRequest(
            game="spades",
            options=options(target=value),
            seats=[common_pb2.Seat(seat=s, bot=True, bot_level=1) for s in range(4)],
            mode=common_pb2.MODE_VERSUS_COMPUTER,
        ),
        operator,
    )
    # Nothing was opened: Ada is free to start a table now.
    await platform.lobby.PlayVersusComputer(
        lobby_pb2.PlayVersusComputerRequest(game="pika", players=2), metadata=ada.metadata
    )


async def test_a_megabyte_request_id_is_refused_and_the_table_does_not_move(
    platform: Platform,
) -> None:
    ada = await platform.register("Ada")
    seat = await platform.lobby.PlayVersusComputer(
        lobby_pb2.PlayVersusComputerRequest(game="pika", players=2), metadata=ada.metadata
    )
    ask = engine_pb2.GetTableRequest(table_id=seat.table_id)
    view = await platform.engine.GetTable(ask, metadata=ada.metadata)
    while not view.legal_actions:  # the bot may move first
        view = await platform.engine.GetTable(ask, metadata=ada.metadata)
    message = await refused(
        platform.engine.Act,
        engine_pb2.ActRequest(
            table_id=seat.table_id,
            action=random.Random(1).choice(list(view.legal_actions)),
            expected_version=view.version,
            request_id="r" * 1_000_000,
        ),
        ada,
    )
    assert message == "request_id is longer than 200 characters (1000000)"
    after = await platform.engine.GetTable(ask, metadata=ada.metadata)
    assert after.version == view.version


async def test_huge_names_and_ids_are_never_echoed_into_the_reply(platform: Platform) -> None:
    ada = await platform.register("Ada")
    room = await platform.lobby.CreateRoom(
        lobby_pb2.CreateRoomRequest(game="pika", players=2), metadata=ada.metadata
    )
    message = await refused(
        platform.lobby.Invite,
        lobby_pb2.InviteRequest(room_id=room.room_id, nickname="n" * 100_000),
        ada,
    )
    assert message == "nickname is longer than 100 characters (100000)"
    message = await refused(
        platform.engine.GetTable, engine_pb2.GetTableRequest(table_id="t" * 1_000_000), ada
    )
    assert message == "table_id is longer than 200 characters (1000000)"
    # Within the limits, a refusal still names what it could not find, in a short quote.
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await platform.lobby.Invite(
            lobby_pb2.InviteRequest(room_id=room.room_id, nickname="N" * 90),
            metadata=ada.metadata,
        )
    assert info.value.code() is grpc.StatusCode.NOT_FOUND
    assert "NNNN'... (90 characters)" in (info.value.details() or "")
