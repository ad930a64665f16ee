"""A relay in its own process, for the test that kills it with SIGKILL mid-publish.

Run as ``python -m tests.integration.eventlog.relay_process DATABASE_URL NATS_URL NAMESPACE``.
Each encode sleeps a little so the kill lands inside a batch, after some publishes that
were acknowledged but not yet checkpointed.
"""

from __future__ import annotations

import asyncio
import sys
import time

import asyncpg
import nats

from tavolo.eventlog import PostgresEventStore, RecordedEvent
from tavolo.eventlog.relay import Encoded, OutboxRelay
from tavolo.messaging import Topology

from .relay_support import SCHEMA, make_encoder


async def main(database_url: str, nats_url: str, namespace: str) -> None:
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=2)
    nc = await nats.connect(nats_url)
    encode = make_encoder(Topology(namespace))

    def slow_encode(event: RecordedEvent) -> Encoded | None:
        time.sleep(0.003)
        return encode(event)

    relay = OutboxRelay(
        PostgresEventStore(pool, SCHEMA), nc.jetstream(), slow_encode, batch_size=100
    )
    await relay.run()


if __name__ == "__main__":
    asyncio.run(main(*sys.argv[1:4]))
