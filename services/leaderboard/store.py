"""The leaderboard's tables: the append-only log of received ``TableFinished`` events and
the projections built from it (schema ``leaderboard``, see ``migrations/``).

Writes only. Each write takes the caller's connection so that the idempotent consumer
records the handled message in the same transaction as the effect (DESIGN guarantee 6).
Every statement touches rows in key order, so two replicas projecting at once wait for
each other instead of deadlocking.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path

import asyncpg

from tavolo.leaderboard.model import FinishedTable, TournamentResult
from tavolo.leaderboard.projection import ProjectionDelta
from tavolo.leaderboard.rating_replay import RatedTable, RatingReplay
from tavolo.leaderboard.ratings import Rating, shown_rating
from tavolo.servicekit.errors import FailedPrecondition
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
        "player_ratings",
        "rating_history",
    )
)

# The rated players' locks are taken (in the order of the lock keys, so two tables never
# wait on each other in a circle) before the row, and so its position, is made.
_APPEND = f"""
WITH locked AS (
    SELECT count(pg_advisory_xact_lock(hashtext($5), k)) AS locks
    FROM (SELECT DISTINCT hashtext($6 || '|' || p) AS k FROM unnest($7::text[]) AS p
          ORDER BY 1) AS keys
)
INSERT INTO {LOG_TABLE} (event_id, table_id, occurred_at, payload)
SELECT $1, $2, $3, $4 FROM locked
ON CONFLICT DO NOTHING
RETURNING position
"""
RATING_LOCK = "tavolo.leaderboard.rating"


@dataclass(frozen=True, slots=True)
class _Writes:
    """The statements that add a delta to one set of projection tables."""

    players: str
    league: str
    emptied: str


def _writes(suffix: str) -> _Writes:
    """The statements for the live tables (``suffix`` "") or their rebuild shadows."""
    # The per-player tables in one statement (data-modifying CTEs all run, each sorted by key).
    players = f"""
WITH xp AS (
    INSERT INTO {SCHEMA}.player_xp{suffix} AS x (player_id, xp)
    SELECT * FROM unnest($1::text[], $2::bigint[]) ORDER BY 1
    ON CONFLICT (player_id) DO UPDATE SET xp = x.xp + excluded.xp
), places AS (
    INSERT INTO {SCHEMA}.player_place_counts{suffix} AS c (player_id, game, place, times)
    SELECT * FROM unnest($3::text[], $4::text[], $5::integer[], $6::bigint[]) ORDER BY 1, 2, 3
    ON CONFLICT (player_id, game, place) DO UPDATE SET times = c.times + excluded.times
)
INSERT INTO {SCHEMA}.alltime_scores{suffix} AS a (game, player_id, wins, games)
SELECT * FROM unnest($7::text[], $8::text[], $9::bigint[], $10::bigint[]) ORDER BY 1, 2
ON CONFLICT (game, player_id) DO UPDATE
    SET wins = a.wins + excluded.wins, games = a.games + excluded.games
"""
    # League rows and the points histogram in one statement. A row whose games exceed the
    # delta's existed before: it leaves the bucket of its old points (new minus the delta's)
    # and enters the new one; a new row only enters. Moves are netted per bucket first, since
    # one INSERT may not touch a row twice. Buckets left at zero come back for deletion.
    league = f"""
WITH delta AS (
    SELECT * FROM unnest($1::integer[], $2::text[], $3::text[], $4::bigint[], $5::bigint[])
        AS d(week, game, player_id, points_x2, games)
), totals AS (
    INSERT INTO {SCHEMA}.league_scores{suffix} AS s (week, game, player_id, points_x2, games)
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
INSERT INTO {SCHEMA}.league_points_histogram{suffix} AS h (week, game, points_x2, players)
SELECT * FROM net ORDER BY 1, 2, 3
ON CONFLICT (week, game, points_x2) DO UPDATE SET players = h.players + excluded.players
RETURNING week, game, points_x2, players
"""
    emptied = f"""
DELETE FROM {SCHEMA}.league_points_histogram{suffix} AS h
USING unnest($1::integer[], $2::text[], $3::bigint[]) AS t(week, game, points_x2)
WHERE h.week = t.week AND h.game = t.game AND h.points_x2 = t.points_x2 AND h.players = 0
"""
    return _Writes(players, league, emptied)


LIVE = _writes("")
SHADOW_SUFFIX = "_rebuild"
SHADOW = _writes(SHADOW_SUFFIX)
# What the rebuild has replayed into the shadows so far, by history position.
REPLAYED = f"{SCHEMA}.rebuild_replayed"
REBUILD_LOCK = "tavolo.leaderboard.rebuild"

_HISTORY_PAGE = f"""
SELECT position, payload FROM {LOG_TABLE} WHERE position > $1 ORDER BY position LIMIT $2
"""


async def migrate(pool: asyncpg.Pool) -> list[str]:
    """Create or update the leaderboard's schema."""
    return await apply_migrations(pool, SCHEMA, MIGRATIONS)


async def append_received(
    conn: asyncpg.Connection,
    table: FinishedTable,
    payload: bytes,
    rated_players: Sequence[str] = (),
) -> int | None:
    """Keep a received event in the history: its position there, or None when it (or its
    table) is there already.

    A second event for a table already recorded is refused as well: a table finishes once,
    so its result must never count twice, whatever id the second report carries.

    ``rated_players``' ratings in the table's game are locked until the transaction ends,
    before the event takes its position. Ratings are applied in the history's order so
    that a rebuild finds the same numbers: a table waits for any earlier table sharing one
    of its players to commit, and only then takes its place, after that table's.
    """
    position = await conn.fetchval(
        _APPEND,
        table.event_id,
        table.table_id,
        table.occurred_at,
        payload,
        RATING_LOCK,
        table.game,
        list(rated_players),
    )
    return None if position is None else int(position)


# -- ratings ----------------------------------------------------------------------------


async def current_ratings(
    conn: asyncpg.Connection, game: str, players: Sequence[str]
) -> dict[str, Rating]:
    rows = await conn.fetch(
        f"SELECT player_id, mu, sigma, rated_tables FROM {SCHEMA}.player_ratings"
        " WHERE game = $1 AND player_id = ANY($2::text[])",
        game,
        list(players),
    )
    return {r[0]: Rating(r[1], r[2], r[3]) for r in rows}


def _ratings_upsert(suffix: str, first: int = 1) -> str:
    """The upsert of ratings, its six arrays numbered from ``$first``."""
    n = [f"${first + i}" for i in range(6)]
    return f"""
INSERT INTO {SCHEMA}.player_ratings{suffix} AS r
    (game, player_id, mu, sigma, rating, rated_tables)
SELECT * FROM unnest({n[0]}::text[], {n[1]}::text[], {n[2]}::float8[], {n[3]}::float8[],
                     {n[4]}::float8[], {n[5]}::bigint[]) ORDER BY 1, 2
ON CONFLICT (game, player_id) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,
    rating = excluded.rating, rated_tables = excluded.rated_tables
"""


def _history_insert(suffix: str) -> str:
    return f"""
INSERT INTO {SCHEMA}.rating_history{suffix} (player_id, game, position, table_id, finished_at,
    mu_before, sigma_before, mu_after, sigma_after, tables_after)
SELECT * FROM unnest($1::text[], $2::text[], $3::bigint[], $4::text[], $5::timestamptz[],
                     $6::float8[], $7::float8[], $8::float8[], $9::float8[], $10::bigint[])
"""


async def write_history(
    conn: asyncpg.Connection, rated: Sequence[RatedTable], suffix: str = ""
) -> None:
    """Add each table's rows (before and after) to the rating history."""
    rows = [(t, c) for t in rated for c in t.changes]
    if not rows:
        return
    await conn.execute(
        _history_insert(suffix),
        [c.player_id for _, c in rows],
        [t.game for t, _ in rows],
        [t.position for t, _ in rows],
        [t.table_id for t, _ in rows],
        [t.finished_at for t, _ in rows],
        [c.before.mu for _, c in rows],
        [c.before.sigma for _, c in rows],
        [c.after.mu for _, c in rows],
        [c.after.sigma for _, c in rows],
        [c.after.tables for _, c in rows],
    )


async def write_ratings(
    conn: asyncpg.Connection, ratings: Sequence[tuple[str, str, Rating]], suffix: str = ""
) -> None:
    """Set these (game, player) ratings."""
    if not ratings:
        return
    await conn.execute(
        _ratings_upsert(suffix),
        [g for g, _, _ in ratings],
        [p for _, p, _ in ratings],
        [r.mu for _, _, r in ratings],
        [r.sigma for _, _, r in ratings],
        [shown_rating(r.mu, r.sigma) for _, _, r in ratings],
        [r.tables for _, _, r in ratings],
    )


_APPLY_RATED = f"""
WITH history AS ({_history_insert("")})
{_ratings_upsert("", first=11)}
"""


async def apply_rated_table(conn: asyncpg.Connection, rated: RatedTable) -> None:
    """One live table's rating changes, in one statement: the history rows and the new
    ratings."""
    changes = rated.changes
    await conn.execute(
        _APPLY_RATED,
        [c.player_id for c in changes],
        [rated.game] * len(changes),
        [rated.position] * len(changes),
        [rated.table_id] * len(changes),
        [rated.finished_at] * len(changes),
        [c.before.mu for c in changes],
        [c.before.sigma for c in changes],
        [c.after.mu for c in changes],
        [c.after.sigma for c in changes],
        [c.after.tables for c in changes],
        [rated.game] * len(changes),
        [c.player_id for c in changes],
        [c.after.mu for c in changes],
        [c.after.sigma for c in changes],
        [shown_rating(c.after.mu, c.after.sigma) for c in changes],
        [c.after.tables for c in changes],
    )


async def apply_delta(
    conn: asyncpg.Connection, delta: ProjectionDelta, into: _Writes = LIVE
) -> None:
    """Add ``delta`` to every projection table (call inside a transaction); ``into`` the
    live tables, or the rebuild's shadows.

    Two statements (three when a histogram bucket empties): per-event cost is mostly
    round trips, so the tables are grouped rather than written one by one.
    """
    if delta.empty:
        return
    xp = sorted(delta.xp.items())
    places = sorted(delta.places.items())
    alltime = sorted(delta.alltime.items())
    await conn.execute(
        into.players,
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
        into.league,
        [k[0] for k, _ in league],
        [k[1] for k, _ in league],
        [k[2] for k, _ in league],
        [v[0] for _, v in league],
        [v[1] for _, v in league],
    )
    emptied = [b for b in buckets if b["players"] == 0]
    if emptied:
        await conn.execute(
            into.emptied,
            [b["week"] for b in emptied],
            [b["game"] for b in emptied],
            [b["points_x2"] for b in emptied],
        )


async def rebuild(
    pool: asyncpg.Pool,
    project: Callable[[Sequence[bytes]], ProjectionDelta],
    *,
    ratings: RatingReplay,
    batch_size: int = 1000,
) -> int:
    """Replay the whole history into shadow tables beside the live projection, then swap
    them in at once; the events replayed.

    The live consumer keeps appending to the history and projecting into the live tables
    meanwhile, and readers keep reading them: the replay locks neither. Only the last step
    holds the history in SHARE mode (new events wait, readers do not) while it replays
    the events that arrived during the rebuild, which the shadows have not seen, and
    renames the shadows into place. Every event is in the result once: the shadows record
    each history position they replayed, so a late commit with a low position is not lost.

    Ratings follow the history's order (``ratings`` carries them between pages). A late
    commit with a position below one already rated would be applied out of that order, so
    then the ratings alone are replayed again from the start inside the last step.
    """
    async with pool.acquire() as conn:
        if not await conn.fetchval("SELECT pg_try_advisory_lock(hashtext($1))", REBUILD_LOCK):
            raise FailedPrecondition(
                "a rebuild is already running: wait for it to finish", reason="REBUILD_RUNNING"
            )
        try:
            await _create_shadows(conn)
            ratings.reset()
            replayed = 0
            after = 0
            while True:
                async with conn.transaction():
                    rows = await conn.fetch(_HISTORY_PAGE, after, batch_size)
                    if not rows:
                        break
                    await _replay(conn, rows, project, ratings)
                replayed += len(rows)
                after = rows[-1]["position"]
            async with conn.transaction():
                await conn.execute(f"LOCK TABLE {LOG_TABLE} IN SHARE MODE")
                late = await conn.fetch(_NOT_REPLAYED)
                in_order = all(r["position"] > ratings.last_position for r in late)
                for start in range(0, len(late), batch_size):
                    page = late[start : start + batch_size]
                    await _replay(conn, page, project, ratings if in_order else None)
                replayed += len(late)
                if not in_order:
                    await _replay_ratings_again(conn, ratings, batch_size)
                await write_ratings(conn, ratings.ratings(), SHADOW_SUFFIX)
                await _swap_shadows_in(conn)
        finally:
            await _drop_shadows(conn)  # after a swap, only the bookkeeping is left
            await conn.execute("SELECT pg_advisory_unlock(hashtext($1))", REBUILD_LOCK)
    return replayed


_NOT_REPLAYED = f"""
SELECT position, payload FROM {LOG_TABLE} AS l
WHERE NOT EXISTS (SELECT 1 FROM {REPLAYED} AS r WHERE r.position = l.position)
ORDER BY position
"""


async def _replay(
    conn: asyncpg.Connection,
    rows: Sequence[asyncpg.Record],
    project: Callable[[Sequence[bytes]], ProjectionDelta],
    ratings: RatingReplay | None,
) -> None:
    await apply_delta(conn, project([r["payload"] for r in rows]), SHADOW)
    if ratings is not None:
        rated = [ratings.apply_payload(r["position"], r["payload"]) for r in rows]
        await write_history(conn, [t for t in rated if t is not None], SHADOW_SUFFIX)
    await conn.execute(
        f"INSERT INTO {REPLAYED} SELECT unnest($1::bigint[])", [r["position"] for r in rows]
    )


async def _replay_ratings_again(
    conn: asyncpg.Connection, ratings: RatingReplay, batch_size: int
) -> None:
    """The ratings alone, from the first table, in position order (history held still)."""
    await conn.execute(f"TRUNCATE {SCHEMA}.rating_history{SHADOW_SUFFIX}")
    ratings.reset()
    after = 0
    while rows := await conn.fetch(_HISTORY_PAGE, after, batch_size):
        rated = [ratings.apply_payload(r["position"], r["payload"]) for r in rows]
        await write_history(conn, [t for t in rated if t is not None], SHADOW_SUFFIX)
        after = rows[-1]["position"]


async def _create_shadows(conn: asyncpg.Connection) -> None:
    """Empty shadows shaped like the live tables (indexes included), and the bookkeeping."""
    async with conn.transaction():
        await _drop_shadows(conn)
        for table in PROJECTION_TABLES:
            await conn.execute(f"CREATE TABLE {table}{SHADOW_SUFFIX} (LIKE {table} INCLUDING ALL)")
        await conn.execute(f"CREATE TABLE {REPLAYED} (position bigint PRIMARY KEY)")


async def _swap_shadows_in(conn: asyncpg.Connection) -> None:
    """Inside the final transaction: every live table replaced by its shadow at once."""
    for table in PROJECTION_TABLES:
        name = table.rsplit(".", 1)[1]
        await conn.execute(f"DROP TABLE {table}")
        await conn.execute(f"ALTER TABLE {table}{SHADOW_SUFFIX} RENAME TO {name}")


async def _drop_shadows(conn: asyncpg.Connection) -> None:
    for table in PROJECTION_TABLES:
        await conn.execute(f"DROP TABLE IF EXISTS {table}{SHADOW_SUFFIX}")
    await conn.execute(f"DROP TABLE IF EXISTS {REPLAYED}")


async def record_tournament(conn: asyncpg.Connection, results: Sequence[TournamentResult]) -> int:
    """Record a finished tournament's results; how many were new (0 for a redelivery)."""
    added = 0
    for r in results:
        status = await conn.execute(
            f"INSERT INTO {SCHEMA}.tournament_results"
            " (tournament_id, player_id, game, place, prize) VALUES ($1, $2, $3, $4, $5)"
            " ON CONFLICT (tournament_id, player_id) DO NOTHING",
            r.tournament_id,
            r.player_id,
            r.game,
            r.place,
            r.prize,
        )
        added += status.endswith(" 1")
    return added
