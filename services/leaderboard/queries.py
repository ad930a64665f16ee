"""Reads of the leaderboard's projections: league pages, ranks, neighbours, statistics.

Every league query walks the ``(week, game, -points_x2, player_id)`` index, and a rank is
a sum over the points histogram, so neither costs more with a million players in a week.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg

from tavolo.leaderboard.store import SCHEMA


@dataclass(frozen=True, slots=True)
class ScoreRow:
    """One player's line of a ranking: league points (doubled) or all-time wins."""

    player_id: str
    points_x2: int
    games: int


@dataclass(frozen=True, slots=True)
class PlaceCount:
    game: str
    place: int
    times: int


_LEAGUE_FIRST = f"""
SELECT player_id, points_x2, games FROM {SCHEMA}.league_scores
WHERE week = $1 AND game = $2
ORDER BY -points_x2, player_id LIMIT $3
"""
_LEAGUE_AFTER = f"""
SELECT player_id, points_x2, games FROM {SCHEMA}.league_scores
WHERE week = $1 AND game = $2 AND (-points_x2, player_id) > (-$3::bigint, $4::text)
ORDER BY -points_x2, player_id LIMIT $5
"""
_LEAGUE_BEFORE = f"""
SELECT player_id, points_x2, games FROM {SCHEMA}.league_scores
WHERE week = $1 AND game = $2 AND (-points_x2, player_id) < (-$3::bigint, $4::text)
ORDER BY -points_x2 DESC, player_id DESC LIMIT $5
"""
_LEAGUE_ROW = f"""
SELECT player_id, points_x2, games FROM {SCHEMA}.league_scores
WHERE week = $1 AND game = $2 AND player_id = $3
"""
_PLAYERS_ABOVE = f"""
SELECT v.points_x2, coalesce(
    (SELECT sum(h.players) FROM {SCHEMA}.league_points_histogram h
     WHERE h.week = $1 AND h.game = $2 AND h.points_x2 > v.points_x2), 0)::bigint
FROM unnest($3::bigint[]) AS v(points_x2)
"""
_XP = f"SELECT xp FROM {SCHEMA}.player_xp WHERE player_id = $1"
_PLACES = f"""
SELECT game, place, times FROM {SCHEMA}.player_place_counts
WHERE player_id = $1 ORDER BY game, place
"""
_ALLTIME_FIRST = f"""
SELECT player_id, wins * 2, games FROM {SCHEMA}.alltime_scores
WHERE game = $1 ORDER BY -wins, player_id LIMIT $2
"""
_ALLTIME_AFTER = f"""
SELECT player_id, wins * 2, games FROM {SCHEMA}.alltime_scores
WHERE game = $1 AND (-wins, player_id) > (-$2::bigint, $3::text)
ORDER BY -wins, player_id LIMIT $4
"""


def _rows(records: Sequence[asyncpg.Record]) -> list[ScoreRow]:
    return [ScoreRow(r[0], r[1], r[2]) for r in records]


async def league_page(
    conn: asyncpg.Connection, week: int, game: str, after: ScoreRow | None, limit: int
) -> list[ScoreRow]:
    """Up to ``limit`` rows in league order, starting after ``after`` (None = the top)."""
    if after is None:
        return _rows(await conn.fetch(_LEAGUE_FIRST, week, game, limit))
    return _rows(
        await conn.fetch(_LEAGUE_AFTER, week, game, after.points_x2, after.player_id, limit)
    )


async def league_before(
    conn: asyncpg.Connection, week: int, game: str, row: ScoreRow, limit: int
) -> list[ScoreRow]:
    """Up to ``limit`` rows just above ``row`` in league order, in league order."""
    records = await conn.fetch(_LEAGUE_BEFORE, week, game, row.points_x2, row.player_id, limit)
    return list(reversed(_rows(records)))


async def league_row(
    conn: asyncpg.Connection, week: int, game: str, player_id: str
) -> ScoreRow | None:
    record = await conn.fetchrow(_LEAGUE_ROW, week, game, player_id)
    return None if record is None else ScoreRow(record[0], record[1], record[2])


async def players_above(
    conn: asyncpg.Connection, week: int, game: str, points: Sequence[int]
) -> dict[int, int]:
    """For each points value, how many players of the league have more (histogram sums)."""
    records = await conn.fetch(_PLAYERS_ABOVE, week, game, sorted(set(points)))
    return {r[0]: r[1] for r in records}


async def player_xp(conn: asyncpg.Connection, player_id: str) -> int:
    value = await conn.fetchval(_XP, player_id)
    return 0 if value is None else int(value)


async def place_counts(conn: asyncpg.Connection, player_id: str) -> list[PlaceCount]:
    return [PlaceCount(r[0], r[1], r[2]) for r in await conn.fetch(_PLACES, player_id)]


async def alltime_page(
    conn: asyncpg.Connection, game: str, after: ScoreRow | None, limit: int
) -> list[ScoreRow]:
    """All-time rows by wins (``points_x2`` = wins x 2), starting after ``after``."""
    if after is None:
        return _rows(await conn.fetch(_ALLTIME_FIRST, game, limit))
    return _rows(
        await conn.fetch(_ALLTIME_AFTER, game, after.points_x2 // 2, after.player_id, limit)
    )
