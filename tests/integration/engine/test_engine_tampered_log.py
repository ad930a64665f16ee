"""A table whose stored log no longer replays, after the engine restarts: its log is still
served whole, to auditors and to its players, with the replay's complaint as data; other
calls on it answer DATA_LOSS naming it; every other table is served as before (AUDIT-1,
AUDIT-4). The deleted event is drawn from the table's id: any but the first."""

from __future__ import annotations

import asyncio
import random
import uuid

import asyncpg
import grpc
import pytest

from tavolo.servicekit.auth import Role
from tavolo.v1 import engine_pb2
from tests.integration.engine.helpers import (
    auth,
    bot,
    channel,
    human,
    open_request,
    play_seat,
    running_engine,
    settings,
)

pytestmark = pytest.mark.integration


async def _finished(stub: object, player: str, rng: int) -> tuple[str, int]:
    opened = await stub.OpenTable(  # type: ignore[attr-defined]
        open_request([human(0, player), bot(1), bot(2), bot(3)]),
        metadata=auth("ops", Role.OPERATOR),
    )
    final = await asyncio.wait_for(
        play_seat(stub, opened.table_id, player, random.Random(rng)),  # type: ignore[arg-type]
        timeout=120,
    )
    return opened.table_id, final.version


async def test_a_log_that_no_longer_replays_is_served_after_a_restart(
    database_url: str, nats_url: str, namespace: str
) -> None:
    cfg = settings(database_url, nats_url, namespace)
    player = f"p-{uuid.uuid4().hex[:8]}"
    async with running_engine(cfg) as engine, channel(engine.port) as stub:
        tampered, last = await _finished(stub, player, 1)
        untouched, _ = await _finished(stub, player, 2)
    # Any event but the first may be the one deleted: the table's id draws which.
    deleted = random.Random(tampered).randint(2, last)
    conn = await asyncpg.connect(database_url)
    try:
        async with conn.transaction():
            await conn.execute("SET LOCAL session_replication_role = replica")
            await conn.execute(
                "DELETE FROM engine.events WHERE stream_id = $1 AND version = $2",
                f"table-{tampered}",
                deleted,
            )
    finally:
        await conn.close()

    async with running_engine(cfg) as engine, channel(engine.port) as stub:
        request = engine_pb2.GetTableLogRequest(table_id=tampered)
        for who in (auth("auditor", Role.AUDITOR), auth(player)):
            log = await stub.GetTableLog(request, metadata=who)
            assert [e.version for e in log.events] == [
                v for v in range(1, last + 1) if v != deleted
            ]
            assert log.head_version == last
            assert log.status == engine_pb2.TABLE_STATUS_FINISHED
            if deleted < last:
                assert log.replay_problem.startswith(f"event {deleted + 1}: expected event")
            else:  # the closing event gone: the row still counts it, the log was cut
                assert log.replay_problem.startswith(f"event {last}: the log ends at")
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await stub.GetTable(
                engine_pb2.GetTableRequest(table_id=tampered), metadata=auth(player)
            )
        assert refused.value.code() == grpc.StatusCode.DATA_LOSS
        assert tampered in (refused.value.details() or "")
        view = await stub.GetTable(
            engine_pb2.GetTableRequest(table_id=untouched), metadata=auth(player)
        )
        assert view.status == engine_pb2.TABLE_STATUS_FINISHED
        other = await stub.GetTableLog(
            engine_pb2.GetTableLogRequest(table_id=untouched), metadata=auth(player)
        )
        assert other.replay_problem == "" and len(other.events) == view.version


@pytest.mark.parametrize("kept_share", [0.3, 0.9])
async def test_a_table_whose_tail_was_cut_takes_no_move_after_a_restart(
    database_url: str, nats_url: str, namespace: str, kept_share: float
) -> None:
    """The log cut back to a version where the player had a move: loaded from the log
    alone, the table would be in play there and take that move, growing a chain that
    verifies again over the cut. The table's row still counts the cut events, so the
    engine refuses it as a changed log (AUDIT-1) and appends nothing."""
    cfg = settings(database_url, nats_url, namespace)
    player = f"p-{uuid.uuid4().hex[:8]}"
    seen: list[engine_pb2.TableView] = []
    async with running_engine(cfg) as engine, channel(engine.port) as stub:
        opened = await stub.OpenTable(
            open_request([human(0, player), bot(1), bot(2), bot(3)]),
            metadata=auth("ops", Role.OPERATOR),
        )
        await asyncio.wait_for(
            play_seat(stub, opened.table_id, player, random.Random(3), seen), timeout=120
        )
    offered = [v for v in seen if v.legal_actions and v.status == engine_pb2.TABLE_STATUS_PLAYING]
    assert len(offered) >= 2
    at = offered[int(kept_share * (len(offered) - 1))]
    conn = await asyncpg.connect(database_url)
    try:
        async with conn.transaction():
            await conn.execute("SET LOCAL session_replication_role = replica")
            await conn.execute(
                "DELETE FROM engine.events WHERE stream_id = $1 AND version > $2",
                f"table-{opened.table_id}",
                at.version,
            )
        count = "SELECT count(*) FROM engine.events WHERE stream_id = $1"
        before = await conn.fetchval(count, f"table-{opened.table_id}")
        assert before == at.version

        async with running_engine(cfg) as engine, channel(engine.port) as stub:
            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.Act(
                    engine_pb2.ActRequest(
                        table_id=opened.table_id,
                        action=at.legal_actions[0],
                        expected_version=at.version,
                        request_id=uuid.uuid4().hex,
                    ),
                    metadata=auth(player),
                )
            assert refused.value.code() == grpc.StatusCode.DATA_LOSS
            assert "tail was cut" in (refused.value.details() or "")
            log = await stub.GetTableLog(
                engine_pb2.GetTableLogRequest(table_id=opened.table_id),
                metadata=auth("auditor", Role.AUDITOR),
            )
            assert len(log.events) == at.version
            assert log.head_version > at.version
            assert "its tail was cut" in log.replay_problem
        assert await conn.fetchval(count, f"table-{opened.table_id}") == before
    finally:
        await conn.close()
