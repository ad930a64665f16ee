"""Tell this replica's watchers when another replica moves one of their tables on.

Each command's transaction runs ``pg_notify('<schema>_tables', '<table id> <version>')``;
PostgreSQL delivers it to every listening replica on commit, and only then. Watchers of
that table wake and catch up from the log. A notification lost while the listening
connection is being re-established is covered by each watcher's periodic re-read.
"""

from __future__ import annotations

import asyncio
from typing import Any

import structlog

from tavolo.engine.live import LiveTables

log = structlog.get_logger("tavolo.engine.notifications")


class TableNotifications:
    """LISTENs on one pooled connection for as long as the service runs."""

    def __init__(self, pool: Any, channel: str, cache: LiveTables) -> None:
        self._pool = pool
        self._channel = channel
        self._cache = cache

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        table_id, _, version = payload.partition(" ")
        live = self._cache.get(table_id)
        if live is not None and version.isdigit():
            live.announce(int(version))

    async def run(self) -> None:
        while True:
            closed = asyncio.Event()
            async with self._pool.acquire() as conn:
                conn.add_termination_listener(lambda _conn, ev=closed: ev.set())
                await conn.add_listener(self._channel, self._on_notify)
                try:
                    await closed.wait()
                finally:
                    if not conn.is_closed():
                        await conn.remove_listener(self._channel, self._on_notify)
            log.warning("notification connection closed; listening again")
            await asyncio.sleep(0.5)
