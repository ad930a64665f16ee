"""The leaderboard's use cases: the only place that decides.

Projecting: a ``TableFinished`` payload is parsed, kept in the append-only history and
turned into projection changes, all on the caller's connection and transaction, so the
idempotent consumer can record the message in the same commit (a redelivery changes
nothing). Rebuilding replays that history through the same rules.

Reading: any signed-in caller may read any ranking or player's statistics; leagues are
public. Rebuilding is for operators.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field

import asyncpg
import structlog

from tavolo.leaderboard import queries, store
from tavolo.leaderboard.config import LeaderboardConfig
from tavolo.leaderboard.model import FinishedTable
from tavolo.leaderboard.projection import ALL_GAMES, ProjectionDelta, aggregate
from tavolo.leaderboard.ranking import (
    RankedRow,
    around_size,
    decode_token,
    encode_token,
    next_cursor,
    page_size,
    rank_page,
)
from tavolo.leaderboard.rating_replay import RatedTable, RatingReplay, rated_table
from tavolo.leaderboard.ratings import (
    BotRatings,
    Rating,
    RatingChange,
    rate_table,
    rated_players,
)
from tavolo.leaderboard.rules import TableEffects, effects_of
from tavolo.leaderboard.sides import table_sides
from tavolo.leaderboard.weeks import IsoWeek, checked_week, week_of
from tavolo.leaderboard.wire import MalformedEvent, parse_table_finished, parse_tournament_paid
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import InvalidArgument, NotFound

log = structlog.get_logger("tavolo.leaderboard")

MAX_PLAYER_ID_LENGTH = 200
Clock = Callable[[], dt.datetime]
# Told of each rated table inside its transaction (the ratings outbox), or nobody.
TellRated = Callable[[asyncpg.Connection, RatedTable], Awaitable[None]]


async def tell_nobody(conn: asyncpg.Connection, rated: RatedTable) -> None:
    return None


@dataclass(frozen=True, slots=True)
class LeaguePage:
    week: IsoWeek
    entries: list[RankedRow]
    next_page_token: str


@dataclass(frozen=True, slots=True)
class Standing:
    week: IsoWeek
    player: RankedRow | None
    neighbours: list[RankedRow]


@dataclass(frozen=True, slots=True)
class GameStats:
    game: str
    games: int
    wins: int
    places: list[int]  # places[i] = times in place i + 1
    rating: Rating | None = None  # None: no rated table in this game yet


@dataclass(frozen=True, slots=True)
class PlayerStats:
    player_id: str
    xp: int
    level: int
    xp_to_next_level: int
    games: list[GameStats]
    tournaments: queries.TournamentTotals = field(default_factory=queries.TournamentTotals.none)


@dataclass(frozen=True, slots=True)
class RankingPage:
    entries: list[RankedRow]
    next_page_token: str


@dataclass(frozen=True, slots=True)
class GameRating:
    game: str
    rating: Rating


@dataclass(frozen=True, slots=True)
class HistoryPage:
    changes: list[queries.HistoryRow]
    next_page_token: str


@dataclass(frozen=True, slots=True)
class RatedEntry:
    rank: int
    player_id: str
    rating: Rating


@dataclass(frozen=True, slots=True)
class TopRatingsPage:
    entries: list[RatedEntry]
    next_page_token: str


def utc_now() -> dt.datetime:
    return dt.datetime.now(dt.UTC)


class Leaderboard:
    """XP, levels, the weekly league and all-time rankings (MODE-1..3, MODE-5)."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        config: LeaderboardConfig,
        games: frozenset[str],
        clock: Clock = utc_now,
        tell_rated: TellRated = tell_nobody,
        bots: BotRatings | None = None,
    ) -> None:
        self._pool = pool
        self._config = config
        self._games = games
        self._clock = clock
        self._tell_rated = tell_rated
        self._bots = bots or BotRatings()

    # -- projecting -------------------------------------------------------------------

    def effects(self, payload: bytes) -> TableEffects:
        """What a TableFinished payload is worth to each player (MalformedEvent if unreadable)."""
        table = parse_table_finished(payload)
        return effects_of(table, self._config.rules, self._config.time_zone)

    async def project_table_finished(self, conn: asyncpg.Connection, payload: bytes) -> bool:
        """Record and project one TableFinished inside the caller's transaction.

        False when the event, or another report of the same table, was handled before:
        then nothing changes. MalformedEvent when it can never be projected.
        """
        table = parse_table_finished(payload)
        effects = effects_of(table, self._config.rules, self._config.time_zone)
        players = rated_players(table)
        position = await store.append_received(conn, table, payload, players)
        if position is None:
            log.info("table already counted", table_id=table.table_id, event_id=table.event_id)
            return False
        await store.apply_delta(conn, aggregate([effects]))
        if players:
            current = await store.current_ratings(conn, table.game, players)
            changes = self.rate(table, current)
            if changes:
                rated = rated_table(position, table, changes)
                await store.apply_rated_table(conn, rated)
                await self._tell_rated(conn, rated)
        return True

    async def project_tournament_paid(self, conn: asyncpg.Connection, payload: bytes) -> int:
        """Record a finished tournament's places and the prizes the wallet paid (PCG-7);
        how many were new."""
        return await store.record_tournament(conn, parse_tournament_paid(payload))

    def rate(self, table: FinishedTable, current: Mapping[str, Rating]) -> list[RatingChange]:
        """What ``table`` does to the ratings of its people (RATE-1)."""
        return rate_table(table, current, table_sides, self._bots)

    def rating_replay(self) -> RatingReplay:
        """Ratings replayed from the history, with the rules live projecting uses."""

        def parse(payload: bytes) -> FinishedTable | None:
            try:
                return parse_table_finished(payload)
            except MalformedEvent:
                return None

        return RatingReplay(self.rate, parse)

    async def project_now(self, payload: bytes) -> bool:
        """`project_table_finished` in a transaction of its own (tools, benchmarks)."""
        async with self._pool.acquire() as conn, conn.transaction():
            return await self.project_table_finished(conn, payload)

    def _replay(self, payloads: Sequence[bytes]) -> ProjectionDelta:
        batch: list[TableEffects] = []
        for payload in payloads:
            try:
                batch.append(self.effects(payload))
            except MalformedEvent as exc:  # accepted once, refused by today's rules
                log.warning("history event skipped in rebuild", reason=str(exc))
        return aggregate(batch)

    async def rebuild(self, principal: Principal) -> int:
        """Rebuild the projections from the whole history; operators only."""
        principal.require(Role.OPERATOR)
        return await self.replay_history()

    async def replay_history(self) -> int:
        """Replay the whole history beside the live projection, then swap it in
        (RebuildProjection, tools); the live consumer keeps projecting meanwhile."""
        replayed = await store.rebuild(self._pool, self._replay, ratings=self.rating_replay())
        log.info("projection rebuilt", events=replayed)
        return replayed

    # -- reading ----------------------------------------------------------------------

    def current_week(self) -> IsoWeek:
        return week_of(self._clock(), self._config.time_zone)

    def _week(self, requested: tuple[int, int] | None) -> IsoWeek:
        return self.current_week() if requested is None else checked_week(*requested)

    def _game(self, game: str, *, required: bool) -> str:
        if not game:
            if required:
                raise InvalidArgument(
                    "name a game, e.g. 'pika'", reason="FIELD_REQUIRED", metadata={"field": "game"}
                )
            return ALL_GAMES
        if game not in self._games:
            offered = ", ".join(sorted(self._games))
            raise InvalidArgument(
                f"unknown game {game!r}; games offered: {offered}",
                reason="GAME_UNKNOWN",
                metadata={"game": game, "allowed": offered},
            )
        return game

    @staticmethod
    def _player(requested: str, principal: Principal) -> str:
        player_id = requested or principal.player_id
        if len(player_id) > MAX_PLAYER_ID_LENGTH:
            raise InvalidArgument(
                f"player_id is longer than {MAX_PLAYER_ID_LENGTH} characters",
                reason="FIELD_INVALID",
                metadata={"field": "player_id"},
            )
        return player_id

    async def league(
        self, week: tuple[int, int] | None, game: str, size: int, token: str
    ) -> LeaguePage:
        """One page of a week's league (MODE-3), ties sharing a rank."""
        the_week = self._week(week)
        the_game = self._game(game, required=False)
        limit = page_size(size)
        scope = f"league:{the_week.key}:{the_game}"
        after = decode_token(token, scope)
        async with self._pool.acquire() as conn:
            rows = await queries.league_page(
                conn, the_week.key, the_game, None if after is None else after.row, limit + 1
            )
        entries = rank_page(rows[:limit], after)
        more = len(rows) > limit
        next_token = encode_token(next_cursor(scope, entries, after)) if more else ""
        return LeaguePage(the_week, entries, next_token)

    async def standing(
        self,
        principal: Principal,
        player_id: str,
        week: tuple[int, int] | None,
        game: str,
        around: int,
    ) -> Standing:
        """A player's rank in a week's league and the players around them."""
        the_player = self._player(player_id, principal)
        the_week = self._week(week)
        the_game = self._game(game, required=False)
        span = around_size(around)
        async with self._pool.acquire() as conn:
            window = await queries.standing_window(conn, the_week.key, the_game, the_player, span)
        ranked = [RankedRow(rank, r.player_id, r.points_x2, r.games) for r, rank in window]
        mine = next((r for r in ranked if r.player_id == the_player), None)
        return Standing(the_week, mine, ranked if mine is not None else [])

    async def player_stats(self, principal: Principal, player_id: str) -> PlayerStats:
        """XP, level and per-game statistics; zeros for a player with no finished table."""
        the_player = self._player(player_id, principal)
        async with self._pool.acquire() as conn, conn.transaction(isolation="repeatable_read"):
            xp = await queries.player_xp(conn, the_player)
            counts = await queries.place_counts(conn, the_player)
            tournaments = await queries.tournament_totals(conn, the_player)
            ratings = dict(await queries.player_ratings(conn, the_player, None))
        by_game: dict[str, list[int]] = {}
        for count in counts:
            places = by_game.setdefault(count.game, [])
            places.extend([0] * (count.place - len(places)))
            places[count.place - 1] += count.times
        curve = self._config.rules.levels
        return PlayerStats(
            player_id=the_player,
            xp=xp,
            level=curve.level(xp),
            xp_to_next_level=curve.xp_to_next_level(xp),
            games=[
                GameStats(game, sum(places), places[0] if places else 0, places, ratings.get(game))
                for game, places in sorted(by_game.items())
            ],
            tournaments=tournaments,
        )

    async def all_time(self, game: str, size: int, token: str) -> RankingPage:
        """All-time ranking of a game by wins at league tables, paged."""
        the_game = self._game(game, required=True)
        limit = page_size(size)
        scope = f"alltime:{the_game}"
        after = decode_token(token, scope)
        async with self._pool.acquire() as conn:
            rows = await queries.alltime_page(
                conn, the_game, None if after is None else after.row, limit + 1
            )
        entries = rank_page(rows[:limit], after)
        more = len(rows) > limit
        next_token = encode_token(next_cursor(scope, entries, after)) if more else ""
        return RankingPage(entries, next_token)

    # -- ratings (RATE-1) -------------------------------------------------------------

    async def player_ratings(
        self, principal: Principal, player_id: str, game: str
    ) -> list[GameRating]:
        """A player's ratings, one per game rated (or the one game named); NotFound when
        there is none, so "no rating yet" is never shown as a rating of 0."""
        the_player = self._player(player_id, principal)
        the_game = self._game(game, required=False)
        async with self._pool.acquire() as conn:
            rows = await queries.player_ratings(conn, the_player, the_game or None)
        if not rows:
            where = f" in {the_game}" if the_game else ""
            raise NotFound(
                f"player {the_player!r} has no rating{where} yet: ratings start with the"
                " first finished online or stake table",
                reason="RATING_NOT_FOUND",
                metadata={"player_id": the_player, "game": the_game},
            )
        return [GameRating(game, rating) for game, rating in rows]

    async def rating_history(
        self, principal: Principal, player_id: str, game: str, size: int, token: str
    ) -> HistoryPage:
        """A player's rated tables in one game, newest first, paged."""
        the_player = self._player(player_id, principal)
        the_game = self._game(game, required=True)
        limit = page_size(size)
        scope = f"ratings:{the_game}:{the_player}"
        after = decode_token(token, scope)
        before = None if after is None else after.points_x2  # continue below this position
        async with self._pool.acquire() as conn:
            rows = await queries.rating_history(conn, the_player, the_game, before, limit + 1)
            if (
                not rows
                and after is None
                and not await queries.has_rating(conn, the_player, the_game)
            ):
                raise NotFound(
                    f"player {the_player!r} has no rating in {the_game} yet",
                    reason="RATING_NOT_FOUND",
                    metadata={"player_id": the_player, "game": the_game},
                )
        more = len(rows) > limit
        rows = rows[:limit]
        next_token = ""
        if more:
            last = RankedRow(1, the_player, rows[-1].position, 0)
            next_token = encode_token(next_cursor(scope, [last], after))
        return HistoryPage(rows, next_token)

    async def top_ratings(self, game: str, size: int, token: str) -> TopRatingsPage:
        """The highest shown ratings of a game, paged; equal ratings share a rank."""
        the_game = self._game(game, required=True)
        limit = page_size(size)
        scope = f"top:{the_game}"
        after = decode_token(token, scope)
        async with self._pool.acquire() as conn:
            rows = await queries.top_ratings(
                conn, the_game, None if after is None else after.row, limit + 1
            )
        ranked = rank_page([r.score_row() for r in rows[:limit]], after)
        by_player = {r.player_id: r.rating for r in rows}
        entries = [RatedEntry(e.rank, e.player_id, by_player[e.player_id]) for e in ranked]
        more = len(rows) > limit
        next_token = encode_token(next_cursor(scope, ranked, after)) if more else ""
        return TopRatingsPage(entries, next_token)
