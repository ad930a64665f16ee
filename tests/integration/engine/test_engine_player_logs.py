"""A player may check the tables they sat at, once they have ended (AUDIT-1, AUDIT-2).

The end of every game tells its players to check it with ``tavolo audit verify``: the
engine serves them the log of their own table when its closing event has revealed the
seed, and still refuses the tables of others and tables in play.
"""

from __future__ import annotations

import asyncio
import random

import grpc
import pytest

from tavolo.servicekit.auth import Role
from tavolo.tablelog.convert import recorded_from_proto
from tavolo.tablelog.replay import audit_table
from tavolo.v1 import engine_pb2, engine_pb2_grpc
from tests.integration.engine.helpers import auth, bot, human, open_request, play_seat


async def _log(
    stub: engine_pb2_grpc.EngineStub, table_id: str, player: str
) -> engine_pb2.GetTableLogResponse:
    request = engine_pb2.GetTableLogRequest(table_id=table_id)
    reply: engine_pb2.GetTableLogResponse = await stub.GetTableLog(request, metadata=auth(player))
    return reply


async def _refused(
    stub: engine_pb2_grpc.EngineStub, table_id: str, player: str
) -> grpc.aio.AioRpcError:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await _log(stub, table_id, player)
    return caught.value


async def test_a_player_gets_the_log_of_their_own_table_only_after_it_ended(
    stub: engine_pb2_grpc.EngineStub,
) -> None:
    opened = await stub.OpenTable(
        open_request([human(0, "ann"), human(1, "bob"), bot(2)]),
        metadata=auth("ops", Role.OPERATOR),
    )
    table_id = opened.table_id

    live = await _refused(stub, table_id, "ann")
    assert live.code() == grpc.StatusCode.FAILED_PRECONDITION, live.details()
    assert "still in play" in (live.details() or "")

    for player in ("ann", "bob"):  # the last human to leave ends the table
        await stub.LeaveTable(
            engine_pb2.LeaveTableRequest(table_id=table_id), metadata=auth(player)
        )

    log = await _log(stub, table_id, "bob")
    events = [recorded_from_proto(e) for e in log.events]
    assert events[-1].type == "table_aborted"
    report = audit_table(events)
    assert report.ok, report.lines()

    stranger = await _refused(stub, table_id, "cat")
    assert stranger.code() == grpc.StatusCode.PERMISSION_DENIED, stranger.details()
    assert "no seat at table" in (stranger.details() or "")
    auditor = await stub.GetTableLog(
        engine_pb2.GetTableLogRequest(table_id=table_id), metadata=auth("aud", Role.AUDITOR)
    )
    assert [e.hash for e in auditor.events] == [e.hash for e in log.events]


async def test_the_log_and_its_head_come_from_one_moment_while_the_table_plays(
    stub: engine_pb2_grpc.EngineStub,
) -> None:
    """An auditor reading a table in play never sees the row's version past the log's last
    event: that would read as a tail cut off (AUDIT-4)."""
    opened = await stub.OpenTable(
        open_request([human(0, "ann"), bot(1), bot(2), bot(3)]),
        metadata=auth("ops", Role.OPERATOR),
    )
    playing = asyncio.create_task(play_seat(stub, opened.table_id, "ann", random.Random(7)))
    reads = 0
    try:
        while not playing.done() or reads < 3:
            log = await stub.GetTableLog(
                engine_pb2.GetTableLogRequest(table_id=opened.table_id),
                metadata=auth("aud", Role.AUDITOR),
            )
            assert log.events[-1].version == log.head_version, reads
            reads += 1
    finally:
        final = await asyncio.wait_for(playing, 120)
    assert final.status == engine_pb2.TABLE_STATUS_FINISHED and reads > 3
