"""Reads of the leaderboard's projections: league pages, ranks, neighbours, statistics.

Every league query walks the ``(week, game, -points_x2, player_id)`` index, and a rank is
a sum over the points histogram (a few hundred rows at most), so neither costs more with a
million players in a week.
"""

from __future__ import annotations

import datetime as dt
import struct
from collections.abc import Sequence
from dataclasses import dataclass

import asyncpg

from tavolo.leaderboard.ratings import Rating
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
# A player's row, the rows just above and below (LATERAL makes each an index range scan
# starting at the player), and each distinct points value's rank from the histogram: one
# statement, so one round trip and one consistent snapshot.
_STANDING = f"""
WITH me AS (
    SELECT player_id, points_x2, games FROM {SCHEMA}.league_scores
    WHERE week = $1 AND game = $2 AND player_id = $3
), around AS (
    SELECT above.* FROM me, LATERAL (
        SELECT s.player_id, s.points_x2, s.games FROM {SCHEMA}.league_scores s
        WHERE s.week = $1 AND s.game = $2
          AND (-s.points_x2, s.player_id) < (-me.points_x2, me.player_id)
        ORDER BY -s.points_x2 DESC, s.player_id DESC LIMIT $4
    ) AS above
    UNION ALL SELECT * FROM me
    UNION ALL SELECT below.* FROM me, LATERAL (
        SELECT s.player_id, s.points_x2, s.games FROM {SCHEMA}.league_scores s
        WHERE s.week = $1 AND s.game = $2
          AND (-s.points_x2, s.player_id) > (-me.points_x2, me.player_id)
        ORDER BY -s.points_x2, s.player_id LIMIT $4
    ) AS below
), ranks AS (
    SELECT v.points_x2, 1 + coalesce((
        SELECT sum(h.players) FROM {SCHEMA}.league_points_histogram h
        WHERE h.week = $1 AND h.game = $2 AND h.points_x2 > v.points_x2), 0)::bigint AS rank
    FROM (SELECT DISTINCT points_x2 FROM around) AS v
)
SELECT a.player_id, a.points_x2, a.games, r.rank
FROM around a JOIN ranks r USING (points_x2)
ORDER BY -a.points_x2, a.player_id
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


async def standing_window(
    conn: asyncpg.Connection, week: int, game: str, player_id: str, around: int
) -> list[tuple[ScoreRow, int]]:
    """The player's row with up to ``around`` rows on each side, in league order, with ranks;
    empty when the player has no row that week."""
    records = await conn.fetch(_STANDING, week, game, player_id, around)
    return [(ScoreRow(r[0], r[1], r[2]), r[3]) for r in records]


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


@dataclass(frozen=True, slots=True)
class TournamentTotals:
    played: int
    wins: int
    finals: int
    prize_coins: int

    @classmethod
    def none(cls) -> TournamentTotals:
        return cls(0, 0, 0, 0)


_TOURNAMENTS = f"""
SELECT count(*), count(*) FILTER (WHERE place = 1), count(*) FILTER (WHERE place <= 2),
       coalesce(sum(prize), 0)
FROM {SCHEMA}.tournament_results WHERE player_id = $1
"""


async def tournament_totals(conn: asyncpg.Connection, player_id: str) -> TournamentTotals:
    row = await conn.fetchrow(_TOURNAMENTS, player_id)
    return TournamentTotals(int(row[0]), int(row[1]), int(row[2]), int(row[3]))


# -- ratings (RATE-1) -------------------------------------------------------------------


def rating_key(rating: float) -> int:
    """A shown rating (never negative) as a whole number in the same order: its IEEE-754
    bits, so a page token can carry it exactly."""
    return int(struct.unpack(">q", struct.pack(">d", rating))[0])


def rating_from_key(key: int) -> float:
    return float(struct.unpack(">d", struct.pack(">q", key))[0])


@dataclass(frozen=True, slots=True)
class RatedRow:
    player_id: str
    rating: Rating

    def score_row(self) -> ScoreRow:
        return ScoreRow(self.player_id, rating_key(self.rating.shown), self.rating.tables)


@dataclass(frozen=True, slots=True)
class HistoryRow:
    table_id: str
    position: int
    finished_at: dt.datetime
    before: Rating
    after: Rating


_PLAYER_RATINGS = f"""
SELECT game, mu, sigma, rated_tables FROM {SCHEMA}.player_ratings
WHERE player_id = $1 AND ($2::text IS NULL OR game = $2) ORDER BY game
"""
_HAS_RATING = f"""
SELECT EXISTS (SELECT 1 FROM {SCHEMA}.player_ratings WHERE game = $1 AND player_id = $2)
"""
_HISTORY = f"""
SELECT table_id, position, finished_at, mu_before, sigma_before, mu_after, sigma_after,
       tables_after
FROM {SCHEMA}.rating_history
WHERE player_id = $1 AND game = $2 AND ($3::bigint IS NULL OR position < $3)
ORDER BY position DESC LIMIT $4
"""
_TOP_FIRST = f"""
SELECT player_id, mu, sigma, rated_tables FROM {SCHEMA}.player_ratings
WHERE game = $1 ORDER BY -rating, player_id LIMIT $2
"""
_TOP_AFTER = f"""
SELECT player_id, mu, sigma, rated_tables FROM {SCHEMA}.player_ratings
WHERE game = $1 AND (-rating, player_id) > (-$2::float8, $3::text)
ORDER BY -rating, player_id LIMIT $4
"""


async def player_ratings(
    conn: asyncpg.Connection, player_id: str, game: str | None
) -> list[tuple[str, Rating]]:
    rows = await conn.fetch(_PLAYER_RATINGS, player_id, game)
    return [(r[0], Rating(r[1], r[2], r[3])) for r in rows]


async def has_rating(conn: asyncpg.Connection, player_id: str, game: str) -> bool:
    return bool(await conn.fetchval(_HAS_RATING, game, player_id))


async def rating_history(
    conn: asyncpg.Connection, player_id: str, game: str, before: int | None, limit: int
) -> list[HistoryRow]:
    """Newest first, below history position ``before`` (None = from the newest)."""
    rows = await conn.fetch(_HISTORY, player_id, game, before, limit)
    return [
        HistoryRow(
            r[0],
            r[1],
            r[2],
            Rating(r[3], r[4], r[7] - 1),
            Rating(r[5], r[6], r[7]),
        )
        for r in rows
    ]


async def top_ratings(
    conn: asyncpg.Connection, game: str, after: ScoreRow | None, limit: int
) -> list[RatedRow]:
    """Highest shown rating first, starting after ``after`` (its points carry the key)."""
    if after is None:
        rows = await conn.fetch(_TOP_FIRST, game, limit)
    else:
        rating = rating_from_key(after.points_x2)
        rows = await conn.fetch(_TOP_AFTER, game, rating, after.player_id, limit)
    return [RatedRow(r[0], Rating(r[1], r[2], r[3])) for r in rows]
