"""An engine killed during play restarts and its tables continue exactly where they were:
the log is the truth, timers and bot moves are rows that survive the process."""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from pathlib import Path

import grpc
import pytest

from tavolo.servicekit.auth import Role
from tavolo.servicekit.embedded import free_port
from tavolo.tablelog.convert import recorded_from_proto
from tavolo.tablelog.replay import audit_table
from tavolo.v1 import common_pb2, engine_pb2
from tests.integration.engine.helpers import auth, bot, channel, human, open_request, play_seat
from tests.secret import TEST_CHECKPOINT_KEY, TEST_TOKEN_SECRET

pytestmark = [pytest.mark.e2e, pytest.mark.fault]


def _start(
    database_url: str, nats_url: str, namespace: str, port: int, log: Path
) -> subprocess.Popen[bytes]:
    """The engine in a child process, its output appended to ``log``."""
    env = {
        **os.environ,
        "TAVOLO_DATABASE_URL": database_url,
        "TAVOLO_NATS_URL": nats_url,
        "TAVOLO_TOKEN_SECRET": TEST_TOKEN_SECRET,
        "TAVOLO_CHECKPOINT_KEY": TEST_CHECKPOINT_KEY,
        "TAVOLO_NAMESPACE": namespace,
        "TAVOLO_ENGINE_PORT": str(port),
        "TAVOLO_ENGINE_METRICS_PORT": "0",
        "TAVOLO_LOG_LEVEL": "warning",
    }
    with log.open("ab") as output:  # the child keeps its own copy of the descriptor
        return subprocess.Popen(
            [sys.executable, "-m", "tavolo.engine"],
            env=env,
            stdout=output,
            stderr=subprocess.STDOUT,
        )


async def _until_serving(port: int) -> None:
    for _ in range(150):
        try:
            async with channel(port) as stub:
                await stub.GetTable(
                    engine_pb2.GetTableRequest(table_id="probe"), metadata=auth("x"), timeout=1
                )
        except grpc.aio.AioRpcError as exc:
            if exc.code() == grpc.StatusCode.NOT_FOUND:
                return
        await asyncio.sleep(0.1)
    raise AssertionError("the engine did not start")


async def test_a_killed_engine_restarts_and_its_tables_continue_where_they_were(
    database_url: str, nats_url: str, namespace: str, tmp_path: Path
) -> None:
    port = free_port()
    log = tmp_path / "engine.log"
    process = _start(database_url, nats_url, namespace, port, log)
    try:
        await _until_serving(port)
        async with channel(port) as stub:
            # A human with two bots that think a little, and an idle pair on a turn timer.
            played = await stub.OpenTable(
                open_request(
                    [human(0, "kim"), bot(1), bot(2)],
                    bot_think_millis=100,
                    mode=common_pb2.MODE_VERSUS_COMPUTER,
                ),
                metadata=auth("kim"),
            )
            timed = await stub.OpenTable(
                open_request([human(0, "lou"), human(1, "max")], turn_seconds=1),
                metadata=auth("ops", Role.OPERATOR),
            )
            rng = random.Random(5)
            for _ in range(4):  # a few of kim's moves, bots answering in between
                async for view in stub.WatchTable(
                    engine_pb2.WatchTableRequest(table_id=played.table_id), metadata=auth("kim")
                ):
                    if view.legal_actions and 0 in view.to_act:
                        await stub.Act(
                            engine_pb2.ActRequest(
                                table_id=played.table_id,
                                action=rng.choice(view.legal_actions),
                                expected_version=view.version,
                            ),
                            metadata=auth("kim"),
                        )
                        break
            before = await stub.GetTable(
                engine_pb2.GetTableRequest(table_id=played.table_id), metadata=auth("kim")
            )
        process.send_signal(signal.SIGKILL)
        process.wait(10)
        process = _start(database_url, nats_url, namespace, port, log)
        await _until_serving(port)
        async with channel(port) as stub:
            # The table is exactly as it was: replaying up to the version kim last saw
            # gives kim the very same view.
            async for again in stub.WatchTable(
                engine_pb2.WatchTableRequest(
                    table_id=played.table_id, after_version=before.version - 1
                ),
                metadata=auth("kim"),
            ):
                assert again.version == before.version
                assert list(again.hand) == list(before.hand)
                assert again.public == before.public
                break
            # The timers kept running across the restart: turns keep lapsing.
            timed_before = await stub.GetTable(
                engine_pb2.GetTableRequest(table_id=timed.table_id), metadata=auth("lou")
            )
            for _ in range(40):
                now = await stub.GetTable(
                    engine_pb2.GetTableRequest(table_id=timed.table_id), metadata=auth("lou")
                )
                if now.version >= timed_before.version + 2:
                    break
                await asyncio.sleep(0.25)
            assert now.version >= timed_before.version + 2
            # And the game plays on to its end, bots included, with an intact log.
            final = await asyncio.wait_for(
                play_seat(stub, played.table_id, "kim", rng), timeout=120
            )
            assert final.status == engine_pb2.TABLE_STATUS_FINISHED
            table_log = await stub.GetTableLog(
                engine_pb2.GetTableLogRequest(table_id=played.table_id),
                metadata=auth("aud", Role.AUDITOR),
            )
            report = audit_table([recorded_from_proto(e) for e in table_log.events])
            assert report.ok, report.lines()
    except BaseException:
        # Both engines' warnings and errors (with their error ids), shown with the failure.
        print(log.read_text(errors="replace")[-20_000:])
        raise
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
            try:
                process.wait(10)
            except subprocess.TimeoutExpired:
                process.kill()
