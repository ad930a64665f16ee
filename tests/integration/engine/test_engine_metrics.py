"""The gauges the dashboards read (OPS-2): tables in play, each counted once over the
replicas whatever replica moved it last, and the database pool's use."""

from __future__ import annotations

import asyncio

from prometheus_client import REGISTRY

from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.runtime import RunningService
from tavolo.tablelog.setup import SeatInfo, build_setup
from tavolo.v1 import engine_pb2, engine_pb2_grpc
from tests.integration.engine.helpers import auth, engine_parts, human, open_request


def _sample(name: str) -> float | None:
    return REGISTRY.get_sample_value(name, {"service": "engine"})


async def test_a_running_engine_exports_its_tables_in_play_and_pool_use(
    engine: RunningService, stub: engine_pb2_grpc.EngineStub
) -> None:
    assert _sample("tavolo_tables_in_play") == 0
    assert _sample("tavolo_db_pool_max") == engine.infra.pool.get_max_size()
    in_use = _sample("tavolo_db_pool_in_use")
    assert in_use is not None and 0 <= in_use <= engine.infra.pool.get_max_size()
    operator = auth("ops", Role.OPERATOR)
    opened = [
        await stub.OpenTable(
            open_request([human(0, f"a{n}"), human(1, f"b{n}")]), metadata=operator
        )
        for n in range(3)
    ]
    assert _sample("tavolo_tables_in_play") == 3
    for player in ("a0", "b0"):
        request = engine_pb2.LeaveTableRequest(table_id=opened[0].table_id)
        await stub.LeaveTable(request, metadata=auth(player, Role.PLAYER))
    for _ in range(3000):
        if _sample("tavolo_tables_in_play") == 2:
            break
        await asyncio.sleep(0.02)
    assert _sample("tavolo_tables_in_play") == 2
    table = await stub.GetTable(
        engine_pb2.GetTableRequest(table_id=opened[0].table_id), metadata=operator
    )
    assert table.status == engine_pb2.TABLE_STATUS_ABORTED  # every player left


async def test_tables_in_play_count_each_table_once_over_the_replicas(database_url: str) -> None:
    async with engine_parts(database_url) as one, engine_parts(database_url) as two:
        setup = build_setup(
            table_id="counted",
            game="pika",
            options={},
            seats=[SeatInfo(s, f"p{s}") for s in range(4)],
            mode="versus_friends",
        )
        await one.engine.app.open_setup(setup)
        await two.engine.repo.live("counted")  # loaded to be watched, not moved
        assert (one.engine.repo.cache.in_play(), two.engine.repo.cache.in_play()) == (1, 0)
        live = await two.engine.repo.live("counted")
        table = await two.engine.repo.refresh(live)
        seat = min(table.game.to_act(table.state))
        legal = table.game.legal_actions(table.state, seat)
        player = Principal(f"p{seat}", frozenset({Role.PLAYER}))
        await two.engine.app.act(player, "counted", legal[0], expected_version=table.version)
        assert two.engine.repo.cache.in_play() == 1
        for _ in range(500):
            if one.engine.repo.cache.in_play() == 0:
                break
            await asyncio.sleep(0.02)
        assert (one.engine.repo.cache.in_play(), two.engine.repo.cache.in_play()) == (0, 1)
