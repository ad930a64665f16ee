"""A migrated leaderboard schema on a fresh database, and the use cases over it."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import asyncpg
import pytest

from tavolo.leaderboard import store
from tavolo.leaderboard.app import Leaderboard
from tavolo.leaderboard.config import LeaderboardConfig
from tavolo.servicekit.auth import Principal, Role

NOW = dt.datetime(2025, 3, 12, 9, 0, tzinfo=dt.UTC)  # Wednesday of ISO 2025-W11
GAMES = frozenset({"pika", "spades"})
PLAYER = Principal("ann", frozenset({Role.PLAYER}))
OPERATOR = Principal("op", frozenset({Role.OPERATOR}))


@pytest.fixture
async def pool(database_url: str) -> AsyncIterator[asyncpg.Pool]:
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=6)
    await store.migrate(pool)
    yield pool
    await pool.close()


@pytest.fixture
def leaderboard(pool: asyncpg.Pool) -> Leaderboard:
    return Leaderboard(pool, LeaderboardConfig(), GAMES, clock=lambda: NOW)


async def snapshot(pool: asyncpg.Pool) -> dict[str, list[tuple[object, ...]]]:
    """Every projection table's rows, sorted: equal snapshots mean equal standings."""
    tables: dict[str, list[tuple[object, ...]]] = {}
    async with pool.acquire() as conn:
        for table in store.PROJECTION_TABLES:
            rows = await conn.fetch(f"SELECT * FROM {table}")
            tables[table] = sorted(tuple(r.values()) for r in rows)
    return tables


async def histogram_matches_scores(pool: asyncpg.Pool) -> bool:
    """The points histogram holds exactly the counts of league_scores by points."""
    async with pool.acquire() as conn:
        differences = await conn.fetchval(
            """
            WITH counted AS (
                SELECT week, game, points_x2, count(*) AS players
                FROM leaderboard.league_scores GROUP BY week, game, points_x2
            )
            SELECT count(*) FROM (
                (SELECT * FROM counted EXCEPT SELECT * FROM leaderboard.league_points_histogram)
                UNION ALL
                (SELECT * FROM leaderboard.league_points_histogram EXCEPT SELECT * FROM counted)
            ) AS d
            """
        )
    return bool(differences == 0)
