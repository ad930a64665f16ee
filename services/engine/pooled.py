"""A pooled connection for one statement, given back without holding up its caller.

asyncpg's ``Pool.release`` shields the release in a task of its own and its caller
resumes only once that task is done: three turns of the event loop after the statement's
answer came. On a command's path they come between the commit and the watchers' views,
and under load each turn of the loop is every other table's bot moves, views and calls
(at 200 tables, a turn takes milliseconds). `one_statement` gives the connection back in
the background instead: the caller carries on in the turn the answer came. A statement
that failed or was cancelled gives its connection back as before, awaited, so the pool
cleans it up.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from typing import Any

_returning: set[asyncio.Task[None]] = set()
"""Releases under way (a task not referenced anywhere may be collected before it ends)."""


@contextlib.asynccontextmanager
async def one_statement(pool: Any) -> AsyncIterator[Any]:
    """A connection of ``pool`` for statements outside a transaction; released after."""
    conn = await pool.acquire()
    try:
        yield conn
    except BaseException:
        await pool.release(conn)
        raise
    if conn.is_in_transaction():  # a caller that opened one: the pool rolls it back
        await pool.release(conn)
        return
    task = asyncio.get_running_loop().create_task(_release_quietly(pool, conn))
    _returning.add(task)
    task.add_done_callback(_returning.discard)


async def _release_quietly(pool: Any, conn: Any) -> None:
    """Back to the pool; a pool closed meanwhile has closed the connection itself."""
    with contextlib.suppress(Exception):
        await pool.release(conn)
