"""The lobby's PostgreSQL schema: connection handling shared by the store modules.

Each store module (``accounts_store``, ``queue_store``, ``tables_store``,
``rooms_store``, ``chat_store``) holds the SQL of one group of tables and takes an
asyncpg connection, so a use case can put several of them, and its events, into one
transaction. Only the lobby's schema is touched (PLAT-2).
"""

from __future__ import annotations

import contextlib
import json
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import asyncpg

from tavolo.servicekit.migrations import apply_migrations

SCHEMA = "lobby"
S = f'"{SCHEMA}"'  # quoted, for the SQL of the store modules
MIGRATIONS = Path(__file__).parent / "migrations"

Connection = Any  # an asyncpg connection (asyncpg ships no type information)


class Database:
    """The pool, and transactions over it."""

    def __init__(self, pool: asyncpg.Pool) -> None:
        self.pool = pool

    async def migrate(self) -> list[str]:
        return await apply_migrations(self.pool, SCHEMA, MIGRATIONS)

    @contextlib.asynccontextmanager
    async def transaction(self) -> AsyncIterator[Connection]:
        """One READ COMMITTED transaction (the event store's appends need that level)."""
        async with self.pool.acquire() as conn, conn.transaction():
            yield conn

    @contextlib.asynccontextmanager
    async def connection(self) -> AsyncIterator[Connection]:
        """A connection for reads that need no transaction."""
        async with self.pool.acquire() as conn:
            yield conn


def to_json(value: Mapping[str, Any]) -> str:
    return json.dumps(dict(value), sort_keys=True, separators=(",", ":"))


def from_json(value: Any) -> dict[str, Any]:
    if isinstance(value, str):
        loaded: dict[str, Any] = json.loads(value)
        return loaded
    return dict(value)
