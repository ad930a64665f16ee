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
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

import asyncpg
import structlog

from tavolo.leaderboard import queries, store
from tavolo.leaderboard.config import LeaderboardConfig
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
from tavolo.leaderboard.rules import TableEffects, effects_of
from tavolo.leaderboard.weeks import IsoWeek, checked_week, week_of
from tavolo.leaderboard.wire import MalformedEvent, parse_table_finished, parse_tournament_paid
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import InvalidArgument

log = structlog.get_logger("tavolo.leaderboard")

MAX_PLAYER_ID_LENGTH = 200
Clock = Callable[[], dt.datetime]


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
    ) -> None:
        self._pool = pool
        self._config = config
        self._games = games
        self._clock = clock

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
        if not await store.append_received(conn, table, payload):
            log.info("table already counted", table_id=table.table_id, event_id=table.event_id)
            return False
        await store.apply_delta(conn, aggregate([effects]))
        return True

    async def project_tournament_paid(self, conn: asyncpg.Connection, payload: bytes) -> int:
        """Record a finished tournament's places and the prizes the wallet paid (PCG-7);
        how many were new."""
        return await store.record_tournament(conn, parse_tournament_paid(payload))

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
        replayed = await store.rebuild(self._pool, self._replay)
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
                GameStats(game, sum(places), places[0] if places else 0, places)
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
