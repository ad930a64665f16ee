"""The engine's composition root: build everything from the infrastructure, at start-up.

`build_engine` wires the parts that need only PostgreSQL (tests use it to drive the
use cases directly); `assemble` adds NATS: the outbox relay publishing TableStarted,
TableFinished and TableAborted, and the MatchFormed consumer.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg
import grpc

from tavolo.cardgames import InvalidOptions, MalformedAction, RuleError
from tavolo.engine.app import EngineApp
from tavolo.engine.consumers import MatchFormedHandler
from tavolo.engine.grpc_api import engine_service
from tavolo.engine.live import LiveTable
from tavolo.engine.notifications import TableAnnouncer, TableNotifications
from tavolo.engine.outbox import EngineEncoder
from tavolo.engine.repository import TableRepository
from tavolo.engine.scheduler import TimerLoop
from tavolo.engine.store import DeadlineRow, TableStore
from tavolo.eventlog.checkpoint import CheckpointPublisher, signing_key
from tavolo.eventlog.relay import OutboxRelay
from tavolo.messaging import (
    DeadLetters,
    IdempotentHandler,
    ProcessedMessagesPruner,
    Topology,
    ensure_streams,
    install_processed_messages,
    run_consumer,
)
from tavolo.servicekit.interceptors import ErrorMap
from tavolo.servicekit.metrics import TABLES_IN_PLAY
from tavolo.servicekit.runtime import Infrastructure, ServiceApp
from tavolo.tablelog.table import ABORTED, FINISHED, OPENED, SEAT_TAKEN, Decision

SCHEMA = "engine"
RELAY_STOP_SECONDS = 5.0
PUBLISHED = frozenset({OPENED, FINISHED, ABORTED, SEAT_TAKEN})

# The rules' refusals, as status codes (NotYourTurn and GameOver are RuleErrors).
RULE_ERRORS: ErrorMap = {
    RuleError: grpc.StatusCode.FAILED_PRECONDITION,
    MalformedAction: grpc.StatusCode.INVALID_ARGUMENT,
    InvalidOptions: grpc.StatusCode.INVALID_ARGUMENT,
}


@dataclass
class Engine:
    """The engine's parts, wired."""

    store: TableStore
    repo: TableRepository
    app: EngineApp
    timers: TimerLoop
    notifications: TableNotifications
    announcer: TableAnnouncer
    relay: OutboxRelay | None = None


async def build_engine(
    pool: asyncpg.Pool,
    *,
    schema: str = SCHEMA,
    timer_poll_seconds: float = 0.25,
) -> Engine:
    """Install the schema and wire the use cases, the timer loop and notifications."""
    store = TableStore(pool, schema)
    await store.install()
    engine: Engine

    def on_commit(_live: LiveTable, decision: Decision, wanted: Sequence[DeadlineRow]) -> None:
        engine.announcer.announce(decision.table.table_id, decision.table.version)
        engine.timers.committed(wanted)
        if engine.relay is not None and any(e.type in PUBLISHED for e in decision.events):
            engine.relay.wake()

    repo = TableRepository(store, on_commit=on_commit)
    app = EngineApp(repo)
    timers = TimerLoop(store, app, poll_seconds=timer_poll_seconds)
    notifications = TableNotifications(pool, store.channel, repo.cache)
    announcer = TableAnnouncer(pool, store.channel)
    engine = Engine(store, repo, app, timers, notifications, announcer)
    return engine


async def assemble(infra: Infrastructure) -> ServiceApp:
    engine = await build_engine(infra.pool)
    TABLES_IN_PLAY.labels("engine").set_function(engine.repo.cache.in_play)
    topology = Topology(infra.settings.namespace, replicas=infra.settings.stream_replicas)
    await ensure_streams(infra.js, topology)
    async with infra.pool.acquire() as conn:
        await install_processed_messages(conn, SCHEMA)
    relay = OutboxRelay(engine.store.events, infra.js, EngineEncoder(topology), name="engine")
    engine.relay = relay
    durable = topology.consumer_name("engine", "match_formed")
    handler = IdempotentHandler(infra.pool, SCHEMA, durable, MatchFormedHandler(engine.app))

    async def consume_matches() -> None:
        await run_consumer(
            infra.nats,
            stream=topology.events_stream,
            durable=durable,
            subjects=[topology.match_formed],
            handler=handler,
            dead_letters=DeadLetters(infra.js, topology),
        )

    async def publish_events() -> None:
        """Run the relay; at shutdown let it finish its batch instead of cancelling it
        in the middle of a publish or of releasing its lock."""
        running = asyncio.create_task(relay.run())
        try:
            await asyncio.shield(running)
        except asyncio.CancelledError:
            relay.stop()
            with contextlib.suppress(Exception, asyncio.CancelledError):
                await asyncio.wait_for(running, RELAY_STOP_SECONDS)
            raise

    checkpoints = CheckpointPublisher(
        engine.store.events,
        infra.nats,
        service="engine",
        namespace=infra.settings.namespace,
        key=signing_key(infra.settings.checkpoint_key),
        interval=infra.settings.checkpoint_seconds,
    )
    return ServiceApp(
        grpc_services=[engine_service(engine.app)],
        background=[
            publish_events,
            engine.timers.run,
            engine.notifications.run,
            consume_matches,
            checkpoints.run,
            ProcessedMessagesPruner.configured(infra.pool, SCHEMA, infra.settings).run,
        ],
        extra_errors=RULE_ERRORS,
        on_stop=[engine.announcer.close],
    )
