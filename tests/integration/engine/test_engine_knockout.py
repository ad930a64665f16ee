"""Knock-out tables over gRPC (PCG-7, RULES §0 rule 14): ``ko`` on OpenTable, tie-break
hands in the table's own log, and an outcome that says how the match was decided."""

from __future__ import annotations

import asyncio
import random
from typing import Any

import grpc
import pytest
from google.protobuf import json_format

from tavolo.cardgames import Game, registry
from tavolo.servicekit.auth import Role
from tavolo.v1 import common_pb2, engine_pb2, engine_pb2_grpc
from tests.integration.engine.helpers import auth, bot, human, open_request, play_seat
from tests.unit.cardgames.test_knockout import DrawnPika

OPERATOR = auth("ops", Role.OPERATOR)


async def play_ko(
    stub: engine_pb2_grpc.EngineStub, game: str, seats: int, options: dict[str, Any]
) -> tuple[engine_pb2.TableView, list[dict[str, Any]]]:
    """A KO table: the client at seat 0, hard bots elsewhere; its end and its rule events."""
    request = open_request(
        [human(0, "pia"), *(bot(s, common_pb2.BOT_LEVEL_HARD) for s in range(1, seats))],
        options=options,
    )
    request.game, request.ko = game, True
    opened = await stub.OpenTable(request, metadata=OPERATOR)
    last = await asyncio.wait_for(
        play_seat(stub, opened.table_id, "pia", random.Random(game)), timeout=180
    )
    assert last.status == engine_pb2.TABLE_STATUS_FINISHED, last
    log = await stub.GetTableLog(
        engine_pb2.GetTableLogRequest(table_id=opened.table_id), metadata=auth("a", Role.AUDITOR)
    )
    data = [json_format.MessageToDict(e.data) for e in log.events]
    assert data[0]["ko"] is True
    produced = [e for d in data for e in d.get("events", [])]
    return last, produced


async def test_pcg_7_a_drawn_pika_match_plays_its_tie_break_hand_at_the_engine(
    stub: engine_pb2_grpc.EngineStub, monkeypatch: pytest.MonkeyPatch
) -> None:
    games: dict[str, Game[Any]] = {"pika": DrawnPika()}
    monkeypatch.setattr(registry, "all_games", lambda: games)
    last, produced = await play_ko(stub, "pika", 2, {"match_length": "hands:1"})
    assert sorted(last.outcome.places) == [1, 2]
    how = json_format.MessageToDict(last.outcome.detail)["knock_out"]
    assert how["decided_by"] == "tie_break"
    assert [e["type"] for e in produced].count("tie_break_hand") == 1
    assert produced[-1]["type"] == "knock_out_decided"


@pytest.mark.parametrize(
    ("game", "seats", "options"),
    [("uno", 2, {"match_length": "hands:1"}), ("spades", 4, {"target": 100})],
)
async def test_pcg_7_ko_tables_of_uno_and_spades_end_decided(
    stub: engine_pb2_grpc.EngineStub, game: str, seats: int, options: dict[str, Any]
) -> None:
    last, produced = await play_ko(stub, game, seats, options)
    places = list(last.outcome.places)
    assert places.count(1) == (2 if game == "spades" else 1)  # partners share a place
    how = json_format.MessageToDict(last.outcome.detail)["knock_out"]
    assert how["decided_by"] in {"match", "tie_break", "last_capture"}
    assert produced[-1]["type"] == "knock_out_decided"


async def test_pcg_7_ko_is_refused_for_a_game_without_tie_break_hands(
    stub: engine_pb2_grpc.EngineStub,
) -> None:
    request = open_request([human(s, f"p{s}") for s in range(4)])
    request.game, request.ko = "solitario", True
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await stub.OpenTable(request, metadata=OPERATOR)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "Solitario (Klondike) does not offer knock-out play" in (refused.value.details() or "")
