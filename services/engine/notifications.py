"""Tell this replica's watchers when another replica moves one of their tables on.

After a command commits, `TableAnnouncer` sends ``'<table id> <version>'`` on the channel
``<schema>_tables``, one line per table, many tables in one ``pg_notify`` (announcements
made while one is being sent go out together in the next). Listening replicas wake the
watchers of those tables, which catch up from the log.

Why after the commit and not inside it: PostgreSQL serialises the commits of all
transactions that called NOTIFY (they queue on one lock while each flushes its WAL), so a
NOTIFY in every command made every command of every replica commit one at a time. Sent
afterwards, the notice can only ever be late, never early. A notice lost on the way (a
crash just after a commit, or while the listening connection is being re-established) is
covered by each watcher's periodic re-read, as before.
"""

from __future__ import annotations

import asyncio
import contextlib
from typing import Any

import structlog

from tavolo.engine.live import LiveTables

log = structlog.get_logger("tavolo.engine.notifications")

#: PostgreSQL refuses payloads of 8000 bytes or more.
MAX_PAYLOAD = 7900
#: How long a stopping replica keeps sending its last notices.
CLOSE_SECONDS = 2.0


class TableAnnouncer:
    """Sends committed table versions to the other replicas, batched."""

    def __init__(self, pool: Any, channel: str) -> None:
        self._pool = pool
        self._channel = channel
        self._pending: dict[str, int] = {}
        self._sending: asyncio.Task[None] | None = None

    def announce(self, table_id: str, version: int) -> None:
        """Queue the notice; the send runs in the background (call after the commit)."""
        self._pending[table_id] = max(version, self._pending.get(table_id, 0))
        if self._sending is None or self._sending.done():
            self._sending = asyncio.get_running_loop().create_task(self._send())

    async def flush(self) -> None:
        """Wait until every notice queued so far is sent (tests, shutdown)."""
        while self._sending is not None and not self._sending.done():
            await asyncio.shield(self._sending)

    async def close(self) -> None:
        """Send what is queued, for at most `CLOSE_SECONDS`, before the pool closes; what
        is left is dropped (the other replicas' periodic re-read covers it)."""
        with contextlib.suppress(TimeoutError):
            async with asyncio.timeout(CLOSE_SECONDS):
                await self.flush()
        if self._sending is not None and not self._sending.done():
            self._sending.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._sending

    async def _send(self) -> None:
        while self._pending:
            batch, self._pending = self._pending, {}
            try:
                async with self._pool.acquire() as conn:
                    await conn.execute(
                        "SELECT pg_notify($1, p) FROM unnest($2::text[]) AS p",
                        self._channel,
                        payloads(batch),
                    )
            except Exception as exc:  # the watchers' periodic re-read covers a lost notice
                log.warning("table notices not sent", tables=len(batch), error=repr(exc))


def payloads(versions: dict[str, int]) -> list[str]:
    """``table version`` lines, packed into as few payloads as PostgreSQL accepts."""
    chunks: list[str] = []
    lines: list[str] = []
    size = 0
    for table_id, version in versions.items():
        line = f"{table_id} {version}"
        if lines and size + len(line) + 1 > MAX_PAYLOAD:
            chunks.append("\n".join(lines))
            lines, size = [], 0
        lines.append(line)
        size += len(line) + 1
    if lines:
        chunks.append("\n".join(lines))
    return chunks


class TableNotifications:
    """LISTENs on one pooled connection for as long as the service runs."""

    def __init__(self, pool: Any, channel: str, cache: LiveTables) -> None:
        self._pool = pool
        self._channel = channel
        self._cache = cache

    def _on_notify(self, _conn: Any, _pid: int, _channel: str, payload: str) -> None:
        for line in payload.splitlines():
            table_id, _, version = line.partition(" ")
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
