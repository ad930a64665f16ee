"""Forgetting handled message ids once JetStream can no longer deliver them again.

Every service that records processed messages (``IdempotentHandler``) runs one
`ProcessedMessagesPruner` among its supervised background loops. Its retention must
outlast the events stream's ``max_age``: an id forgotten while the stream can still
redeliver its message would let that message take effect twice. `retention_for` refuses
a shorter one. Any replica may prune at any time: a DELETE by age needs no coordination.
"""

from __future__ import annotations

import asyncio
from datetime import timedelta
from typing import Protocol

import asyncpg
import structlog

from tavolo.messaging.idempotency import prune_processed_messages
from tavolo.messaging.topology import DEFAULT_MAX_AGE

log = structlog.get_logger("tavolo.messaging")

#: A day beyond the stream's own limit, for a redelivery in flight when the limit passes.
DEFAULT_RETENTION = timedelta(seconds=DEFAULT_MAX_AGE) + timedelta(days=1)
DEFAULT_INTERVAL_SECONDS = 3600.0


class PruneSettings(Protocol):
    """The two settings a pruner reads (``tavolo.servicekit.settings.Settings`` has them)."""

    @property
    def processed_retention_days(self) -> float: ...

    @property
    def prune_interval_seconds(self) -> float: ...


def retention_for(retention: timedelta, stream_max_age: float = DEFAULT_MAX_AGE) -> timedelta:
    """``retention``, refused when shorter than the stream keeps messages."""
    if retention.total_seconds() < stream_max_age:
        raise ValueError(
            f"processed messages must be kept at least as long as the events stream keeps"
            f" messages ({stream_max_age / 86400:g} days), not {retention}"
        )
    return retention


class ProcessedMessagesPruner:
    """Deletes ``<schema>.processed_messages`` rows older than ``retention``, every
    ``interval`` seconds."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        schema: str,
        *,
        retention: timedelta = DEFAULT_RETENTION,
        interval: float = DEFAULT_INTERVAL_SECONDS,
    ) -> None:
        if interval <= 0:
            raise ValueError(f"the pruning interval must be more than 0 seconds, not {interval}")
        self._pool = pool
        self._schema = schema
        self._retention = retention_for(retention)
        self._interval = interval

    @classmethod
    def configured(
        cls, pool: asyncpg.Pool, schema: str, settings: PruneSettings
    ) -> ProcessedMessagesPruner:
        """A pruner as the deployment's settings say (``TAVOLO_PROCESSED_RETENTION_DAYS``,
        ``TAVOLO_PRUNE_INTERVAL_SECONDS``)."""
        return cls(
            pool,
            schema,
            retention=timedelta(days=settings.processed_retention_days),
            interval=settings.prune_interval_seconds,
        )

    async def prune_once(self) -> int:
        """Prune now; how many ids were forgotten."""
        async with self._pool.acquire() as conn:
            pruned = await prune_processed_messages(conn, self._schema, self._retention)
        if pruned:
            log.info("processed messages pruned", schema=self._schema, rows=pruned)
        return pruned

    async def run(self) -> None:
        """Prune at start, then every ``interval`` seconds (a supervised background loop)."""
        while True:
            await self.prune_once()
            await asyncio.sleep(self._interval)
