"""Any replica serves any table (guarantee 2) and timers fire once across replicas."""

from __future__ import annotations

import asyncio
import random
import uuid

import grpc

from tavolo.servicekit.auth import Role
from tavolo.servicekit.settings import Settings
from tavolo.tablelog.convert import recorded_from_proto
from tavolo.tablelog.replay import audit_table
from tavolo.v1 import engine_pb2, engine_pb2_grpc
from tests.integration.engine.helpers import (
    auth,
    channel,
    human,
    open_request,
    play_seat,
    running_engine,
)

OPERATOR = auth("ops", Role.OPERATOR)
AUDITOR = auth("aud", Role.AUDITOR)


async def _log(stub: engine_pb2_grpc.EngineStub, table_id: str) -> engine_pb2.GetTableLogResponse:
    return await stub.GetTableLog(
        engine_pb2.GetTableLogRequest(table_id=table_id), metadata=AUDITOR
    )


async def test_guarantee2_two_replicas_playing_the_same_tables_keep_every_log_intact(
    engine_settings: Settings,
) -> None:
    async with (
        running_engine(engine_settings) as one,
        running_engine(engine_settings) as two,
        channel(one.port) as a,
        channel(two.port) as b,
    ):
        tables = []
        for n in range(3):
            players = [f"r{n}s{s}-{uuid.uuid4().hex[:6]}" for s in range(4)]
            opened = await (a if n % 2 else b).OpenTable(
                open_request([human(s, p) for s, p in enumerate(players)]), metadata=OPERATOR
            )
            tables.append((opened.table_id, players))
        seen: dict[tuple[str, int], list[engine_pb2.TableView]] = {}
        clients = []
        for table_id, players in tables:
            for seat, player in enumerate(players):
                stub = a if seat % 2 else b  # half the seats on each replica
                seen[table_id, seat] = []
                clients.append(
                    play_seat(stub, table_id, player, random.Random(seat), seen[table_id, seat])
                )
        await asyncio.wait_for(asyncio.gather(*clients), timeout=180)
        for table_id, _ in tables:
            log = await _log(a, table_id)
            report = audit_table([recorded_from_proto(e) for e in log.events])
            assert report.ok, report.lines()
            for seat in range(4):
                # From the view current when the client started watching to the end,
                # every version, whichever replica committed it.
                streamed = sorted({v.version for v in seen[table_id, seat]})
                assert streamed == list(range(streamed[0], len(log.events) + 1)), (
                    "a watcher missed an event committed by the other replica"
                )


async def test_guarantee2_racing_actions_on_two_replicas_apply_exactly_one(
    engine_settings: Settings,
) -> None:
    async with (
        running_engine(engine_settings) as one,
        running_engine(engine_settings) as two,
        channel(one.port) as a,
        channel(two.port) as b,
    ):
        players = ["ann", "bob", "cat", "dan"]
        opened = await a.OpenTable(
            open_request([human(s, p) for s, p in enumerate(players)]), metadata=OPERATOR
        )
        table_id = opened.table_id
        for _ in range(6):
            any_view = await a.GetTable(
                engine_pb2.GetTableRequest(table_id=table_id), metadata=auth("ann")
            )
            mover = players[any_view.to_act[0]]
            mine = await b.GetTable(
                engine_pb2.GetTableRequest(table_id=table_id), metadata=auth(mover)
            )
            before = len((await _log(a, table_id)).events)
            racers = [
                (a if i % 2 else b).Act(
                    engine_pb2.ActRequest(
                        table_id=table_id,
                        action=mine.legal_actions[i % len(mine.legal_actions)],
                        expected_version=mine.version,
                    ),
                    metadata=auth(mover),
                )
                for i in range(8)
            ]
            results = await asyncio.gather(*racers, return_exceptions=True)
            won = [r for r in results if not isinstance(r, BaseException)]
            lost = [r for r in results if isinstance(r, BaseException)]
            assert len(won) == 1
            assert all(
                isinstance(e, grpc.aio.AioRpcError) and e.code() == grpc.StatusCode.ABORTED
                for e in lost
            )
            after = (await _log(b, table_id)).events
            assert len(after) == won[0].view.version >= before + 1
        report = audit_table([recorded_from_proto(e) for e in (await _log(a, table_id)).events])
        assert report.chain.ok and not report.seed_revealed


async def test_turn_timers_fire_exactly_once_with_two_replicas_and_take_the_default_move(
    engine_settings: Settings,
) -> None:
    async with (
        running_engine(engine_settings) as one,
        running_engine(engine_settings),
        channel(one.port) as a,
    ):
        opened = await a.OpenTable(
            open_request([human(0, "idle-1"), human(1, "idle-2")], turn_seconds=1),
            metadata=OPERATOR,
        )
        expiries: list[dict[str, object]] = []
        for _ in range(100):
            log = await _log(a, opened.table_id)
            events = [recorded_from_proto(e) for e in log.events]
            expiries = [
                dict(e.data) for e in events if e.type == "action" and e.data["by"] == "timer"
            ]
            if len(expiries) >= 4:
                break
            await asyncio.sleep(0.25)
        assert len(expiries) >= 4
        keys = [e["action"]["timer"] for e in expiries]  # type: ignore[index]
        assert len(keys) == len(set(keys)), f"a timer fired twice: {keys}"
        assert all(str(k).startswith("turn:") for k in keys)
        # The default move of a lapsed turn: the rules draw a card (or take a pending
        # stack, when the deal turned up a +2) and pass the turn.
        assert all(e["events"][1]["type"] in ("draw", "take") for e in expiries)  # type: ignore[index]
        seats = [e["seat"] for e in expiries]
        assert seats[:4] in ([0, 1, 0, 1], [1, 0, 1, 0])
