"""Apply a service's SQL migrations in order, once, even with several replicas starting.

Each service owns one PostgreSQL schema (DESIGN: no service reads another's tables) and a
``migrations/`` folder of files named ``NNN_description.sql``. Files are applied in name
order, all in one transaction; a transaction-scoped advisory lock serialises replicas
starting together, also through a PgBouncer pool in transaction mode.
"""

from __future__ import annotations

import hashlib
from pathlib import Path
from typing import Any

import asyncpg

from tavolo.servicekit.errors import DomainError


class MigrationError(DomainError):
    """An applied migration file was changed afterwards, or a file failed to apply."""


async def apply_migrations(pool: asyncpg.Pool, schema: str, directory: Path) -> list[str]:
    """Apply the files of ``directory`` not yet applied to ``schema``; return their names."""
    # Read before touching the database: a handful of small files at start-up.
    scripts = read_scripts(directory)
    # One transaction with a transaction-scoped lock: it holds through a PgBouncer pool in
    # transaction mode (a session lock would stay on whichever server connection the
    # pooler happened to lend, and be "released" on another), and a release's files land
    # all together or not at all.
    async with pool.acquire() as conn, conn.transaction():
        return await apply_scripts(conn, schema, scripts)


def read_scripts(directory: Path) -> list[tuple[str, str]]:
    """The ``*.sql`` files of ``directory`` as (name, text), in name order."""
    return [(p.name, p.read_text()) for p in sorted(directory.glob("*.sql"))]


async def apply_scripts(conn: Any, schema: str, scripts: list[tuple[str, str]]) -> list[str]:
    """Apply the scripts not yet recorded in ``schema``, inside the caller's transaction.

    Takes the schema's migration lock, so a library that keeps its own tables in a
    service's schema (the event log) migrates them in the same way and order.
    """
    applied_now: list[str] = []
    lock_key = int.from_bytes(
        hashlib.sha256(f"migrate:{schema}".encode()).digest()[:8], "big", signed=True
    )
    await conn.execute("SELECT pg_advisory_xact_lock($1)", lock_key)
    await conn.execute(f'CREATE SCHEMA IF NOT EXISTS "{schema}"')
    await conn.execute(
        f'CREATE TABLE IF NOT EXISTS "{schema}".schema_migrations ('
        " name text PRIMARY KEY, checksum text NOT NULL,"
        " applied_at timestamptz NOT NULL DEFAULT now())"
    )
    done = {
        r["name"]: r["checksum"]
        for r in await conn.fetch(f'SELECT name, checksum FROM "{schema}".schema_migrations')
    }
    await conn.execute(f'SET LOCAL search_path TO "{schema}", public')
    for name, sql in scripts:
        checksum = hashlib.sha256(sql.encode()).hexdigest()
        if name in done:
            if done[name] != checksum:
                raise MigrationError(
                    f"migration {name} of schema {schema} changed after it was applied",
                    reason="SCHEMA_MISMATCH",
                )
            continue
        await conn.execute(sql)
        await conn.execute(
            f'INSERT INTO "{schema}".schema_migrations (name, checksum) VALUES ($1, $2)',
            name,
            checksum,
        )
        applied_now.append(name)
    await conn.execute("SET LOCAL search_path TO DEFAULT")
    return applied_now
