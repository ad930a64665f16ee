"""Every registered game plays a whole table at the engine over gRPC: a player's client at
seat 0 beside hard bots, through the same RPCs a client app uses, to its end (GAMES.md
point 10: the engine runs every game with its timers)."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import pytest

from tavolo.cardgames.errors import InvalidOptions
from tavolo.cardgames.registry import all_games
from tavolo.servicekit.auth import Role
from tavolo.v1 import common_pb2, engine_pb2, engine_pb2_grpc
from tests.integration.engine.helpers import auth, bot, human, open_request, play_seat

SHORT = ("hands:1", "single", "points:1")
"""A one-hand match, in whichever form the game's ``match_length`` takes."""


def short_options(name: str) -> dict[str, Any]:
    """The shortest match the game's options allow, so each table ends in seconds."""
    game = all_games()[name]
    if name == "spades":
        return {"target": 100}
    if not any(spec.name == "match_length" for spec in game.option_specs):
        return {}
    for length in SHORT:
        try:
            game.options({"match_length": length})
        except InvalidOptions:
            continue
        return {"match_length": length}
    return {}


@pytest.mark.parametrize("name", sorted(all_games()))
async def test_a_whole_table_of_each_game_plays_to_its_end_at_the_engine(
    stub: engine_pb2_grpc.EngineStub, name: str
) -> None:
    game = all_games()[name]
    seats = [human(0, "pia")]
    seats += [bot(s, common_pb2.BOT_LEVEL_HARD) for s in range(1, game.min_players)]
    request = open_request(seats, options=short_options(name))
    request.game = name
    opened = await stub.OpenTable(request, metadata=auth("ops", Role.OPERATOR))
    last = await asyncio.wait_for(
        play_seat(stub, opened.table_id, "pia", random.Random(name)), timeout=180
    )
    assert last.status == engine_pb2.TABLE_STATUS_FINISHED, last
    table = await stub.GetTable(
        engine_pb2.GetTableRequest(table_id=opened.table_id), metadata=auth("pia")
    )
    assert sorted(table.outcome.places)[0] == 1
    assert len(table.outcome.places) == game.min_players
