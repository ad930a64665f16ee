"""Start, run and stop one service: the shared part of every service's composition root.

A service supplies an ``assemble`` coroutine that builds its servicers and background
loops from the infrastructure (pool, NATS, signer). This module owns the order of
start-up and shutdown, so all four services behave alike:

start: settings (the token secret checked) → logging → PostgreSQL pool and NATS (clear
errors if unreachable) → assemble (migrations, streams) → revoked sessions loaded → gRPC
server SERVING → background loops (the revocation feed among them) → metrics.

stop (SIGTERM/SIGINT): health NOT_SERVING → ``server.stop(grace)`` lets calls finish →
background loops cancelled → NATS drained → pool closed.
"""

from __future__ import annotations

import asyncio
import contextlib
import gc
import signal
import sys
from collections.abc import Awaitable, Callable, Coroutine, Iterable
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import structlog
from nats.aio.client import Client as NATS
from nats.js import JetStreamContext

from tavolo.messaging import Topology
from tavolo.servicekit.auth import TokenSigner
from tavolo.servicekit.connect import StartupError, connect_nats, create_pool
from tavolo.servicekit.grpc_server import GrpcService, RunningServer, start_grpc_server
from tavolo.servicekit.interceptors import ErrorMap
from tavolo.servicekit.logging import configure_logging
from tavolo.servicekit.metrics import serve_metrics, watch_pool
from tavolo.servicekit.parent import stop_with_parent
from tavolo.servicekit.revocation import Revocations
from tavolo.servicekit.revocation_feed import RevocationFeed
from tavolo.servicekit.settings import (
    Settings,
    SettingsError,
    checkpoint_key_problem,
    token_secret_problem,
)
from tavolo.servicekit.tracing import configure_tracing
from tavolo.servicekit.tracing import shutdown as shutdown_tracing

log = structlog.get_logger("tavolo.runtime")

FULL_COLLECTION_EVERY = 1000
"""Middle-generation passes between two full passes of the garbage collector in a
service's own process (CPython's default is 10): see `calm_collector`."""


@dataclass
class Infrastructure:
    """What every service is built from."""

    settings: Settings
    pool: asyncpg.Pool
    nats: NATS
    js: JetStreamContext
    signer: TokenSigner
    # Suspended accounts whose tokens every call refuses (filled by RevocationFeed).
    revocations: Revocations = field(default_factory=Revocations)


@dataclass
class ServiceApp:
    """What a service's ``assemble`` returns."""

    grpc_services: list[GrpcService]
    background: list[Callable[[], Coroutine[Any, Any, None]]] = field(default_factory=list)
    extra_errors: ErrorMap = field(default_factory=dict)
    on_stop: list[Callable[[], Awaitable[None]]] = field(default_factory=list)


Assemble = Callable[[Infrastructure], Awaitable[ServiceApp]]


@dataclass
class RunningService:
    """A started service: its port, and how to stop it gracefully."""

    name: str
    infra: Infrastructure
    server: RunningServer
    app: ServiceApp
    tasks: list[asyncio.Task[None]]

    @property
    def port(self) -> int:
        return self.server.port

    async def stop(self, grace: float | None = None) -> None:
        await self.server.stop(
            self.infra.settings.shutdown_grace_seconds if grace is None else grace
        )
        await cancel_and_wait(self.tasks)
        for hook in self.app.on_stop:
            await hook()
        with contextlib.suppress(Exception):
            await self.infra.nats.drain()
        await self.infra.pool.close()


async def cancel_and_wait(tasks: Iterable[asyncio.Task[Any]], resend: float = 1.0) -> None:
    """Cancel ``tasks`` and wait until every one has ended, cancelling again each
    ``resend`` seconds one that is still running.

    A single cancel is not enough on Python 3.11: ``asyncio.wait_for`` returns its inner
    result when that completes in the same turn as the cancellation, and the cancellation
    is lost. nats-py's ``next_msg`` waits that way, so a loop reading a subscription could
    carry on for ever and hold a service's stop (seen as a test run hanging in shutdown).
    """
    pending = {task for task in tasks if not task.done()}
    for task in pending:
        task.cancel()
    while pending:
        _, pending = await asyncio.wait(pending, timeout=resend)
        for task in pending:
            log.warning(
                "background task lost its cancellation; cancelling again", task=task.get_name()
            )
            task.cancel()
    for task in tasks:
        if not task.cancelled():
            task.exception()  # retrieved: _supervise has logged what went wrong


async def open_infrastructure(settings: Settings) -> Infrastructure:
    problem = token_secret_problem(settings) or checkpoint_key_problem(settings)
    if problem is not None:
        raise StartupError(problem)
    pool = await create_pool(settings.database_url)
    try:
        nc = await connect_nats(settings.nats_url)
    except BaseException:
        await pool.close()
        raise
    return Infrastructure(settings, pool, nc, nc.jetstream(), TokenSigner(settings.token_secret))


async def start_service(
    name: str,
    assemble: Assemble,
    settings: Settings,
    *,
    port: int | None = None,
    freeze: bool = False,
) -> RunningService:
    """Start ``name`` on ``port`` (default: its configured port; 0 picks a free one).

    ``freeze`` (a service's own process) calms the garbage collector (`calm_collector`).
    Tests that start many services in one process leave it off (what they froze would
    never be collected).
    """
    infra = await open_infrastructure(settings)
    watch_pool(name, infra.pool)
    try:
        app = await assemble(infra)
        # The service's schema bears its name; revocations load before the first call.
        feed = RevocationFeed(
            infra.pool,
            infra.js,
            Topology(settings.namespace, replicas=settings.stream_replicas),
            name,
            infra.revocations,
        )
        await feed.load()
        server = await start_grpc_server(
            name,
            app.grpc_services,
            infra.signer,
            host=settings.grpc_host,
            port=settings.grpc_ports[name] if port is None else port,
            extra_errors=app.extra_errors,
            revocations=infra.revocations,
        )
    except BaseException:
        await infra.nats.close()
        await infra.pool.close()
        raise
    loops = [*app.background, feed.run]
    tasks = [asyncio.create_task(_supervise(name, loop)) for loop in loops]
    if freeze:
        calm_collector()
    return RunningService(name, infra, server, app, tasks)


def calm_collector() -> None:
    """Keep the garbage collector's full passes out of the calls' way.

    A full pass walks every tracked object and stops every call in flight meanwhile.
    First, every object made so far leaves the collector's sight (`gc.freeze`): modules,
    protobuf descriptors, the rules' tables live as long as the process (the engine at 200
    tables, `bench/bench_engine.py`: the longest pause 65-69 ms, 26-28 ms with them
    frozen). Then full passes come `FULL_COLLECTION_EVERY` middle passes apart instead of
    10: the engine's bench at 200 tables made two in every 8 seconds (each 24-85 ms on
    this shared machine), and none in 120 s after (206 middle passes: one full pass
    every 10 minutes or so). What it costs is the cyclic garbage that outlives the young
    passes, kept until the next full pass: after those 120 s a full pass found 5,680
    unreachable objects of 77,146 tracked. The young passes keep their default size, so
    each stays short (a young generation of 50,000 made each pass 12-27 ms).
    """
    gc.freeze()
    young, middle, _ = gc.get_threshold()
    gc.set_threshold(young, middle, FULL_COLLECTION_EVERY)


async def _supervise(name: str, loop: Callable[[], Coroutine[Any, Any, None]]) -> None:
    """Keep a background loop running: log a crash, wait a little, start it again."""
    delay = 0.5
    while True:
        try:
            await loop()
            return
        except asyncio.CancelledError:
            raise
        except Exception as exc:
            task = asyncio.current_task()
            if task is not None and task.cancelling():
                raise asyncio.CancelledError from exc  # a driver error hid our cancellation
            log.exception(
                "background loop crashed; restarting",
                service=name,
                loop=getattr(loop, "__qualname__", repr(loop)),
                retry_in=delay,
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, 10.0)


def run_service(name: str, assemble: Assemble) -> int:
    """Entry point of ``python -m tavolo.<name>``: run until SIGTERM/SIGINT, exit code."""
    try:
        settings = Settings.from_env()
    except SettingsError as exc:
        print(f"tavolo {name}: bad settings: {exc}", file=sys.stderr)
        return 2
    configure_logging(settings.log_format, settings.log_level)
    try:
        configure_tracing(name)
    except SettingsError as exc:
        print(f"tavolo {name}: bad settings: {exc}", file=sys.stderr)
        return 2
    if not stop_with_parent():
        print(f"tavolo {name}: the process that started it is gone; not starting", file=sys.stderr)
        return 1
    try:
        return asyncio.run(_run(name, assemble, settings))
    except StartupError as exc:
        print(f"tavolo {name}: cannot start: {exc}", file=sys.stderr)
        return 2
    finally:
        shutdown_tracing()


async def _run(name: str, assemble: Assemble, settings: Settings) -> int:
    service = await start_service(name, assemble, settings, freeze=True)
    serve_metrics(settings.metrics_ports[name], settings.grpc_host)
    log.info(
        "serving",
        service=name,
        grpc=f"{settings.grpc_host}:{service.port}",
        metrics=settings.metrics_ports[name],
    )
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGTERM, signal.SIGINT):
        loop.add_signal_handler(sig, stop.set)
    await stop.wait()
    log.info("stopping", service=name)
    await service.stop()
    log.info("stopped", service=name)
    return 0
