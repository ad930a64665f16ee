"""Composition root: builds the wallet from the infrastructure at start-up.

Migrations, the processed-messages table and the events stream are ensured here, once,
before the gRPC server says SERVING; importing any module of the service does nothing.
Background loops: the events consumer, the sweeper that voids expired holds, the outbox
relay that publishes what happens to holds (``StakeHoldChanged``), the signed checkpoints
of that log's head (as the lobby and the engine publish theirs), and the pruner of handled
message ids.
"""

from __future__ import annotations

import asyncio
import contextlib

import structlog

from tavolo.eventlog import PostgresEventStore
from tavolo.eventlog.checkpoint import CheckpointPublisher, signing_key
from tavolo.eventlog.relay import OutboxRelay
from tavolo.messaging import (
    ProcessedMessagesPruner,
    Topology,
    ensure_streams,
    install_processed_messages,
)
from tavolo.servicekit.runtime import Assemble, Infrastructure, ServiceApp
from tavolo.wallet import store
from tavolo.wallet.app import Clock, WalletApp, utc_now
from tavolo.wallet.config import WalletConfig
from tavolo.wallet.consumers import wallet_consumer
from tavolo.wallet.grpc_api import wallet_service
from tavolo.wallet.hold_events import HoldEvents, WalletEncoder
from tavolo.wallet.settlement import Settlement
from tavolo.wallet.welcome import Welcome

log = structlog.get_logger("tavolo.wallet")

RELAY_STOP_SECONDS = 10.0  # at most one batch and one publish timeout


def make_assemble(config: WalletConfig | None = None, clock: Clock = utc_now) -> Assemble:
    """An ``assemble`` with the given config (default: from the environment) and clock."""

    async def assemble(infra: Infrastructure) -> ServiceApp:
        settings = config if config is not None else WalletConfig.from_env()
        await store.migrate(infra.pool)
        async with infra.pool.acquire() as conn:
            await install_processed_messages(conn, store.SCHEMA)
        topology = Topology(infra.settings.namespace, replicas=infra.settings.stream_replicas)
        await ensure_streams(infra.js, topology)
        events = PostgresEventStore(infra.pool, store.SCHEMA)
        holds = HoldEvents(events)
        relay = OutboxRelay(events, infra.js, WalletEncoder(topology), name="wallet")
        wallet = WalletApp(infra.pool, settings, clock, holds)
        consumer = wallet_consumer(
            infra.js,
            infra.pool,
            topology,
            Settlement(settings, clock, holds),
            Welcome(settings.welcome_coins),
            ack_wait=settings.ack_wait,
        )

        async def sweep_expired_holds() -> None:
            while True:
                await wallet.sweep_expired_holds()
                await asyncio.sleep(settings.sweep_seconds)

        async def publish_hold_facts() -> None:
            """The relay, asked to stop after its batch rather than cancelled mid-publish."""
            running = asyncio.create_task(relay.run())
            try:
                await asyncio.shield(running)
            except asyncio.CancelledError:
                relay.stop()
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(running, RELAY_STOP_SECONDS)
                raise

        return ServiceApp(
            grpc_services=[wallet_service(wallet)],
            background=[
                publish_hold_facts,
                consumer.run,
                sweep_expired_holds,
                CheckpointPublisher(
                    events,
                    infra.nats,
                    service="wallet",
                    namespace=infra.settings.namespace,
                    key=signing_key(infra.settings.checkpoint_key),
                    interval=infra.settings.checkpoint_seconds,
                ).run,
                ProcessedMessagesPruner.configured(infra.pool, store.SCHEMA, infra.settings).run,
            ],
        )

    return assemble


assemble = make_assemble()
