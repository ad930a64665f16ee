"""The leaderboard's tables: the append-only log of received ``TableFinished`` events and
the projections built from it (schema ``leaderboard``, see ``migrations/``).

Writes only. Each write takes the caller's connection so that the idempotent consumer
records the handled message in the same transaction as the effect (DESIGN guarantee 6).
Every statement touches rows in key order, so two replicas projecting at once wait for
each other instead of deadlocking.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from pathlib import Path

import asyncpg

from tavolo.leaderboard.model import FinishedTable
from tavolo.leaderboard.projection import ProjectionDelta
from tavolo.servicekit.migrations import apply_migrations

SCHEMA = "leaderboard"
MIGRATIONS = Path(__file__).resolve().parent / "migrations"
LOG_TABLE = f"{SCHEMA}.table_finished_log"
PROJECTION_TABLES = tuple(
    f"{SCHEMA}.{name}"
    for name in (
        "player_xp",
        "player_place_counts",
        "league_scores",
        "league_points_histogram",
        "alltime_scores",
    )
)

_APPEND = f"""
INSERT INTO {LOG_TABLE} (event_id, table_id, occurred_at, payload)
VALUES ($1, $2, $3, $4)
ON CONFLICT DO NOTHING
RETURNING position
"""
# The per-player tables in one statement (data-modifying CTEs all run, each sorted by key).
_PLAYERS = f"""
WITH xp AS (
    INSERT INTO {SCHEMA}.player_xp AS x (player_id, xp)
    SELECT * FROM unnest($1::text[], $2::bigint[]) ORDER BY 1
    ON CONFLICT (player_id) DO UPDATE SET xp = x.xp + excluded.xp
), places AS (
    INSERT INTO {SCHEMA}.player_place_counts AS c (player_id, game, place, times)
    SELECT * FROM unnest($3::text[], $4::text[], $5::integer[], $6::bigint[]) ORDER BY 1, 2, 3
    ON CONFLICT (player_id, game, place) DO UPDATE SET times = c.times + excluded.times
)
INSERT INTO {SCHEMA}.alltime_scores AS a (game, player_id, wins, games)
SELECT * FROM unnest($7::text[], $8::text[], $9::bigint[], $10::bigint[]) ORDER BY 1, 2
ON CONFLICT (game, player_id) DO UPDATE
    SET wins = a.wins + excluded.wins, games = a.games + excluded.games
"""
# League rows and the points histogram in one statement. A row whose games exceed the
# delta's existed before: it leaves the bucket of its old points (new minus the delta's)
# and enters the new one; a new row only enters. Moves are netted per bucket first, since
# one INSERT may not touch a row twice. Buckets left at zero come back for deletion.
_LEAGUE = f"""
WITH delta AS (
    SELECT * FROM unnest($1::integer[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])
        AS d(week, game, player_id, points_x2, games)
), totals AS (
    INSERT INTO {SCHEMA}.league_scores AS s (week, game, player_id, points_x2, games)
    SELECT * FROM delta ORDER BY 1, 2, 3
    ON CONFLICT (week, game, player_id) DO UPDATE
        SET points_x2 = s.points_x2 + excluded.points_x2, games = s.games + excluded.games
    RETURNING week, game, player_id, points_x2, games
), moves AS (
    SELECT week, game, points_x2, 1 AS players FROM totals
    UNION ALL
    SELECT t.week, t.game, t.points_x2 - d.points_x2, -1
    FROM totals t JOIN delta d USING (week, game, player_id)
    WHERE t.games > d.games
), net AS (
    SELECT week, game, points_x2, sum(players)::bigint AS players
    FROM moves GROUP BY week, game, points_x2 HAVING sum(players) <> 0
)
INSERT INTO {SCHEMA}.league_points_histogram AS h (week, game, points_x2, players)
SELECT * FROM net ORDER BY 1, 2, 3
ON CONFLICT (week, game, points_x2) DO UPDATE SET players = h.players + excluded.players
RETURNING week, game, points_x2, players
"""
_HISTOGRAM_EMPTIED = f"""
DELETE FROM {SCHEMA}.league_points_histogram AS h
USING unnest($1::integer[], $2::text[], $3::bigint[]) AS t(week, game, points_x2)
WHERE h.week = t.week AND h.game = t.game AND h.points_x2 = t.points_x2 AND h.players = 0
"""
_HISTORY_PAGE = f"""
SELECT position, payload FROM {LOG_TABLE} WHERE position > $1 ORDER BY position LIMIT $2
"""


async def migrate(pool: asyncpg.Pool) -> list[str]:
    """Create or update the leaderboard's schema."""
    return await apply_migrations(pool, SCHEMA, MIGRATIONS)


async def append_received(conn: asyncpg.Connection, table: FinishedTable, payload: bytes) -> bool:
    """Keep a received event in the history; False when it (or its table) is there already.

    A second event for a table already recorded is refused as well: a table finishes once,
    so its result must never count twice, whatever id the second report carries.
    """
    position = await conn.fetchval(
        _APPEND, table.event_id, table.table_id, table.occurred_at, payload
    )
    return position is not None


async def apply_delta(conn: asyncpg.Connection, delta: ProjectionDelta) -> None:
    """Add ``delta`` to every projection table (call inside a transaction).

    Two statements (three when a histogram bucket empties): per-event cost is mostly
    round trips, so the tables are grouped rather than written one by one.
    """
    if delta.empty:
        return
    xp = sorted(delta.xp.items())
    places = sorted(delta.places.items())
    alltime = sorted(delta.alltime.items())
    await conn.execute(
        _PLAYERS,
        [p for p, _ in xp],
        [n for _, n in xp],
        [k[0] for k, _ in places],
        [k[1] for k, _ in places],
        [k[2] for k, _ in places],
        [n for _, n in places],
        [k[0] for k, _ in alltime],
        [k[1] for k, _ in alltime],
        [v[0] for _, v in alltime],
        [v[1] for _, v in alltime],
    )
    if not delta.league:
        return
    league = sorted(delta.league.items())
    buckets = await conn.fetch(
        _LEAGUE,
        [k[0] for k, _ in league],
        [k[1] for k, _ in league],
        [k[2] for k, _ in league],
        [v[0] for _, v in league],
        [v[1] for _, v in league],
    )
    emptied = [b for b in buckets if b["players"] == 0]
    if emptied:
        await conn.execute(
            _HISTOGRAM_EMPTIED,
            [b["week"] for b in emptied],
            [b["game"] for b in emptied],
            [b["points_x2"] for b in emptied],
        )


async def rebuild(
    pool: asyncpg.Pool,
    project: Callable[[Sequence[bytes]], ProjectionDelta],
    *,
    batch_size: int = 1000,
) -> int:
    """Empty every projection and replay the whole history into it; the events replayed.

    One transaction: readers keep the old standings until it commits, and the SHARE lock on
    the history holds new events back meanwhile, so none is missed or counted twice.
    """
    replayed = 0
    async with pool.acquire() as conn, conn.transaction():
        await conn.execute(f"LOCK TABLE {LOG_TABLE} IN SHARE MODE")
        for table in PROJECTION_TABLES:
            # DELETE rather than TRUNCATE: TRUNCATE's exclusive lock would stall every reader.
            await conn.execute(f"DELETE FROM {table}")
        after = 0
        while True:
            rows = await conn.fetch(_HISTORY_PAGE, after, batch_size)
            if not rows:
                break
            await apply_delta(conn, project([r["payload"] for r in rows]))
            replayed += len(rows)
            after = rows[-1]["position"]
    return replayed
