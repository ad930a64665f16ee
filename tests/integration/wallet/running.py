"""A wallet service running on real NATS and PostgreSQL, for tests that publish events."""

from __future__ import annotations

import contextlib
from collections.abc import AsyncIterator
from dataclasses import dataclass
from typing import Any

import asyncpg
import nats

from tavolo.messaging import Topology
from tavolo.servicekit.runtime import RunningService, start_service
from tavolo.servicekit.settings import Settings
from tavolo.wallet import store
from tavolo.wallet.app import WalletApp
from tavolo.wallet.bootstrap import make_assemble
from tavolo.wallet.config import WalletConfig
from tests.secret import TEST_CHECKPOINT_KEY, TEST_TOKEN_SECRET
from tests.waiting import eventually


@dataclass
class Running:
    service: RunningService
    pool: asyncpg.Pool
    wallet: WalletApp
    js: Any
    topology: Topology

    async def handled(self, *message_ids: str) -> None:
        """Wait until the wallet's consumer has recorded every id as handled."""
        async with self.pool.acquire() as conn:
            await eventually(
                lambda: conn.fetchval(
                    "SELECT count(*) = $1 FROM wallet.processed_messages"
                    " WHERE message_id = ANY($2::text[])",
                    len(message_ids),
                    list(message_ids),
                )
            )


@contextlib.asynccontextmanager
async def wallet_on_nats(
    database_url: str, nats_url: str, namespace: str, config: WalletConfig
) -> AsyncIterator[Running]:
    """The wallet service, its pool and a JetStream context, stopped afterwards."""
    settings = Settings(
        database_url=database_url,
        nats_url=nats_url,
        namespace=namespace,
        token_secret=TEST_TOKEN_SECRET,
        checkpoint_key=TEST_CHECKPOINT_KEY,
    )
    service = await start_service("wallet", make_assemble(config), settings, port=0)
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=4)
    nc = await nats.connect(nats_url)
    try:
        await store.migrate(pool)
        yield Running(service, pool, WalletApp(pool, config), nc.jetstream(), Topology(namespace))
    finally:
        await nc.close()
        await pool.close()
        await service.stop(0.5)
