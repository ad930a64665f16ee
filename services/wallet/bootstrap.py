"""Composition root: builds the wallet from the infrastructure at start-up.

Migrations, the processed-messages table and the events stream are ensured here, once,
before the gRPC server says SERVING; importing any module of the service does nothing.
Background loops: the events consumer and the sweeper that voids expired holds.
"""

from __future__ import annotations

import asyncio

import structlog

from tavolo.messaging import Topology, ensure_streams, install_processed_messages
from tavolo.servicekit.runtime import Assemble, Infrastructure, ServiceApp
from tavolo.wallet import store
from tavolo.wallet.app import Clock, WalletApp, utc_now
from tavolo.wallet.config import WalletConfig
from tavolo.wallet.consumers import wallet_consumer
from tavolo.wallet.grpc_api import wallet_service
from tavolo.wallet.settlement import Settlement
from tavolo.wallet.welcome import Welcome

log = structlog.get_logger("tavolo.wallet")


def make_assemble(config: WalletConfig | None = None, clock: Clock = utc_now) -> Assemble:
    """An ``assemble`` with the given config (default: from the environment) and clock."""

    async def assemble(infra: Infrastructure) -> ServiceApp:
        settings = config if config is not None else WalletConfig.from_env()
        await store.migrate(infra.pool)
        async with infra.pool.acquire() as conn:
            await install_processed_messages(conn, store.SCHEMA)
        topology = Topology(infra.settings.namespace, replicas=infra.settings.stream_replicas)
        await ensure_streams(infra.js, topology)
        wallet = WalletApp(infra.pool, settings, clock)
        consumer = wallet_consumer(
            infra.js,
            infra.pool,
            topology,
            Settlement(settings, clock),
            Welcome(settings.welcome_coins),
            ack_wait=settings.ack_wait,
        )

        async def sweep_expired_holds() -> None:
            while True:
                await wallet.sweep_expired_holds()
                await asyncio.sleep(settings.sweep_seconds)

        return ServiceApp(
            grpc_services=[wallet_service(wallet)],
            background=[consumer.run, sweep_expired_holds],
        )

    return assemble


assemble = make_assemble()
