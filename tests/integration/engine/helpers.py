"""Shared by the engine's integration and end-to-end tests: tokens, stubs, a started engine."""

from __future__ import annotations

import asyncio
import contextlib
import random
import uuid
from collections.abc import AsyncIterator, Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg
import grpc
from google.protobuf import struct_pb2

from tavolo.engine.bootstrap import Engine, assemble, build_engine
from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.servicekit.connect import create_pool
from tavolo.servicekit.runtime import RunningService, start_service
from tavolo.servicekit.settings import Settings
from tavolo.tablelog.setup import SeatInfo, build_setup
from tavolo.v1 import common_pb2, engine_pb2, engine_pb2_grpc
from tests.secret import TEST_CHECKPOINT_KEY, TEST_TOKEN_SECRET

SIGNER = TokenSigner(TEST_TOKEN_SECRET)


def token(player_id: str, *roles: Role) -> str:
    signed, _ = SIGNER.issue(player_id, roles or (Role.PLAYER,), nickname=player_id)
    return signed


def auth(player_id: str, *roles: Role) -> tuple[tuple[str, str], ...]:
    return (("authorization", f"Bearer {token(player_id, *roles)}"),)


def settings(database_url: str, nats_url: str, namespace: str) -> Settings:
    return Settings(
        database_url=database_url,
        nats_url=nats_url,
        namespace=namespace,
        token_secret=TEST_TOKEN_SECRET,
        checkpoint_key=TEST_CHECKPOINT_KEY,
    )


@contextlib.asynccontextmanager
async def running_engine(cfg: Settings) -> AsyncIterator[RunningService]:
    service = await start_service("engine", assemble, cfg, port=0)
    try:
        yield service
    finally:
        await service.stop(grace=0.5)


@contextlib.asynccontextmanager
async def channel(port: int) -> AsyncIterator[engine_pb2_grpc.EngineStub]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as chan:
        yield engine_pb2_grpc.EngineStub(chan)


def human(seat: int, player_id: str) -> common_pb2.Seat:
    return common_pb2.Seat(seat=seat, player_id=player_id, nickname=player_id)


def bot(seat: int, level: int = common_pb2.BOT_LEVEL_EASY) -> common_pb2.Seat:
    return common_pb2.Seat(seat=seat, bot=True, bot_level=level)  # type: ignore[arg-type]


def open_request(
    seats: Sequence[common_pb2.Seat],
    *,
    mode: int = common_pb2.MODE_VERSUS_FRIENDS,
    table_id: str = "",
    options: dict[str, Any] | None = None,
    turn_seconds: int = 0,
    bot_think_millis: int = 0,
) -> engine_pb2.OpenTableRequest:
    opts = struct_pb2.Struct()
    opts.update(options or {})
    return engine_pb2.OpenTableRequest(
        game="pika",
        options=opts,
        seats=list(seats),
        mode=mode,  # type: ignore[arg-type]
        table_id=table_id,
        turn_seconds=turn_seconds,
        bot_think_millis=bot_think_millis,
    )


async def open_bot_table(parts: EngineParts, table_id: str, think_millis: int = 0) -> int:
    """Open a Pika table of four medium bots that think ``think_millis`` (the path of a
    formed match, no caller needed); its version after opening."""
    seats = [SeatInfo(s, bot=True, bot_level="medium") for s in range(4)]
    setup = build_setup(
        table_id=table_id,
        game="pika",
        options={},
        seats=seats,
        mode="online",
        bot_filled=True,
        bot_think_millis=think_millis,
    )
    return (await parts.engine.app.open_setup(setup)).version


@dataclass
class EngineParts:
    """The engine's use cases on a real database, without gRPC, with its loops running."""

    engine: Engine
    pool: asyncpg.Pool
    tasks: list[asyncio.Task[None]]


@contextlib.asynccontextmanager
async def engine_parts(
    database_url: str, *, loops: bool = True, pool_size: int = 10
) -> AsyncIterator[EngineParts]:
    # Throwaway test data: commits need not wait for the disk (as the embedded test
    # server runs with fsync off); otherwise the services' own pool.
    pool = await create_pool(
        database_url,
        min_size=1,
        max_size=pool_size,
        server_settings={"synchronous_commit": "off"},
    )
    try:
        engine = await build_engine(pool, timer_poll_seconds=0.05)
        tasks = []
        if loops:
            tasks = [
                asyncio.create_task(engine.timers.run()),
                asyncio.create_task(engine.notifications.run()),
            ]
        try:
            yield EngineParts(engine, pool, tasks)
        finally:
            for task in tasks:
                task.cancel()
            for task in tasks:
                with contextlib.suppress(asyncio.CancelledError):
                    await task
    finally:
        await pool.close()


async def play_seat(
    stub: engine_pb2_grpc.EngineStub,
    table_id: str,
    player_id: str,
    rng: random.Random,
    received: list[engine_pb2.TableView] | None = None,
) -> engine_pb2.TableView:
    """A client for one seat: watch the table, answer every view that offers this seat
    something with a random legal action, until the table closes; the last view."""
    who = auth(player_id)
    acted = 0
    last = engine_pb2.TableView()
    request = engine_pb2.WatchTableRequest(table_id=table_id)
    async for view in stub.WatchTable(request, metadata=who):
        last = view
        if received is not None:
            received.append(view)
        if view.status != engine_pb2.TABLE_STATUS_PLAYING:
            return view
        if view.version < acted or not view.legal_actions:
            continue
        act = engine_pb2.ActRequest(
            table_id=table_id,
            action=rng.choice(view.legal_actions),
            expected_version=view.version,
            request_id=uuid.uuid4().hex,
        )
        try:
            reply = await stub.Act(act, metadata=who)
        except grpc.aio.AioRpcError as exc:
            # Another seat moved first (a call, a stack): a newer view is on its way.
            if exc.code() not in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                raise
            continue
        if received is not None:
            received.append(reply.view)
        acted = reply.view.version
    return last
