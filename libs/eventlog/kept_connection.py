"""One pooled connection kept across commits that follow one another at once.

Group commit has one commit in flight per store at a time (`tavolo.eventlog.group_commit`),
and under a steady writer the next commit starts in the same turn of the event loop as
the last one ended. Taking a connection from asyncpg's pool and giving it back costs
about 60 µs of the event loop each time (a task to shield the release, a timer for the
idle lifetime), a tenth of a lone append here; so the connection a commit used is kept
for the loop's next two turns, and a commit that starts before then takes it again. It
goes back to the pool after them: an idle store holds no connection, and a closing pool
waits two turns at most for it.

A connection that failed, was cancelled mid-statement or is left inside a transaction is
never kept: it goes straight back to the pool, which knows how to clean it up.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

#: Turns of the event loop a connection waits for its next commit: the writers a commit
#: answered append again in the turn after it, and group commit takes their batch in the
#: turn after that.
KEEP_TURNS = 2


class KeptConnection:
    """Hands out one connection of ``pool`` at a time, kept between back-to-back uses.

    Not for concurrent use: its owner runs one commit at a time."""

    def __init__(self, pool: Any) -> None:
        self._pool = pool
        self._kept: Any = None
        self._turn = 0  # which keeping a scheduled give-back belongs to
        self._returning: set[asyncio.Task[None]] = set()

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Any]:
        conn, self._kept = self._kept, None
        if conn is None:
            conn = await self._pool.acquire()
        try:
            yield conn
        except BaseException:
            await self._pool.release(conn)
            raise
        if conn.is_closed() or conn.is_in_transaction():
            await self._pool.release(conn)
            return
        self._kept = conn
        self._turn += 1
        asyncio.get_running_loop().call_soon(self._give_back, self._turn, KEEP_TURNS)

    def _give_back(self, turn: int, turns: int) -> None:
        """``turns`` turns of the loop came and no commit took the connection again."""
        conn = self._kept
        if conn is None or turn != self._turn:
            return
        if turns > 1:
            asyncio.get_running_loop().call_soon(self._give_back, turn, turns - 1)
            return
        self._kept = None
        task = asyncio.get_running_loop().create_task(self._release_quietly(conn))
        self._returning.add(task)
        task.add_done_callback(self._returning.discard)

    async def _release_quietly(self, conn: Any) -> None:
        """Back to the pool in the background; a pool closed meanwhile closes it itself."""
        with contextlib.suppress(Exception):
            await self._pool.release(conn)
