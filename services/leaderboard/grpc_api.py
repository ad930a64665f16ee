"""The ``tavolo.v1.Leaderboard`` servicer: protobuf in, a use case, protobuf out.

Nothing is decided here; refusals are DomainErrors raised by the use cases, which the
shared interceptor maps to status codes.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

import grpc

from tavolo.leaderboard.app import GameStats, Leaderboard, PlayerStats
from tavolo.leaderboard.ranking import RankedRow
from tavolo.leaderboard.ratings import Rating
from tavolo.leaderboard.weeks import IsoWeek
from tavolo.servicekit.auth import caller
from tavolo.servicekit.grpc_server import GrpcService
from tavolo.v1 import leaderboard_pb2 as pb
from tavolo.v1 import leaderboard_pb2_grpc as pb_grpc

Context = grpc.aio.ServicerContext[Any, Any]
SERVICE_NAME = pb.DESCRIPTOR.services_by_name["Leaderboard"].full_name


def _week(message: pb.IsoWeek, present: bool) -> tuple[int, int] | None:
    return (message.year, message.week) if present else None


def _week_out(week: IsoWeek) -> pb.IsoWeek:
    return pb.IsoWeek(year=week.year, week=week.week)


def _entries(rows: Iterable[RankedRow]) -> list[pb.RankingEntry]:
    return [
        pb.RankingEntry(rank=r.rank, player_id=r.player_id, points_x2=r.points_x2, games=r.games)
        for r in rows
    ]


def _rating_out(game: str, rating: Rating) -> pb.GameRating:
    return pb.GameRating(
        game=game,
        rating=rating.shown,
        mu=rating.mu,
        sigma=rating.sigma,
        rated_tables=rating.tables,
        provisional=rating.provisional,
    )


def _game_stats_out(g: GameStats) -> pb.GameStats:
    rating = g.rating
    return pb.GameStats(
        game=g.game,
        games=g.games,
        wins=g.wins,
        places=g.places,
        rating=rating.shown if rating else 0.0,
        provisional=rating.provisional if rating else True,
        rated_tables=rating.tables if rating else 0,
    )


def _stats_out(stats: PlayerStats) -> pb.PlayerStats:
    return pb.PlayerStats(
        player_id=stats.player_id,
        xp=stats.xp,
        level=stats.level,
        xp_to_next_level=stats.xp_to_next_level,
        games=[_game_stats_out(g) for g in stats.games],
        tournaments=pb.TournamentStats(
            played=stats.tournaments.played,
            wins=stats.tournaments.wins,
            finals=stats.tournaments.finals,
            prize_coins=stats.tournaments.prize_coins,
        ),
    )


class LeaderboardServicer(pb_grpc.LeaderboardServicer):
    """Translates ``tavolo.v1.Leaderboard`` calls to :class:`Leaderboard` use cases."""

    def __init__(self, leaderboard: Leaderboard) -> None:
        self._leaderboard = leaderboard

    async def GetLeague(
        self, request: pb.GetLeagueRequest, context: Context
    ) -> pb.GetLeagueResponse:
        page = await self._leaderboard.league(
            _week(request.week, request.HasField("week")),
            request.game,
            request.page.page_size,
            request.page.page_token,
        )
        response = pb.GetLeagueResponse(week=_week_out(page.week), entries=_entries(page.entries))
        response.page.next_page_token = page.next_page_token
        return response

    async def GetStanding(
        self, request: pb.GetStandingRequest, context: Context
    ) -> pb.GetStandingResponse:
        standing = await self._leaderboard.standing(
            caller(),
            request.player_id,
            _week(request.week, request.HasField("week")),
            request.game,
            request.around,
        )
        response = pb.GetStandingResponse(
            week=_week_out(standing.week), neighbours=_entries(standing.neighbours)
        )
        if standing.player is not None:
            response.player.CopyFrom(_entries([standing.player])[0])
        return response

    async def GetPlayerStats(
        self, request: pb.GetPlayerStatsRequest, context: Context
    ) -> pb.PlayerStats:
        return _stats_out(await self._leaderboard.player_stats(caller(), request.player_id))

    async def GetAllTimeRanking(
        self, request: pb.GetAllTimeRankingRequest, context: Context
    ) -> pb.GetAllTimeRankingResponse:
        page = await self._leaderboard.all_time(
            request.game, request.page.page_size, request.page.page_token
        )
        response = pb.GetAllTimeRankingResponse(entries=_entries(page.entries))
        response.page.next_page_token = page.next_page_token
        return response

    async def RebuildProjection(
        self, request: pb.RebuildProjectionRequest, context: Context
    ) -> pb.RebuildProjectionResponse:
        replayed = await self._leaderboard.rebuild(caller())
        return pb.RebuildProjectionResponse(events_replayed=replayed)

    async def GetPlayerRatings(
        self, request: pb.GetPlayerRatingsRequest, context: Context
    ) -> pb.PlayerRatings:
        found = await self._leaderboard.player_ratings(caller(), request.player_id, request.game)
        return pb.PlayerRatings(
            player_id=request.player_id or caller().player_id,
            ratings=[_rating_out(r.game, r.rating) for r in found],
        )

    async def GetRatingHistory(
        self, request: pb.GetRatingHistoryRequest, context: Context
    ) -> pb.GetRatingHistoryResponse:
        page = await self._leaderboard.rating_history(
            caller(),
            request.player_id,
            request.game,
            request.page.page_size,
            request.page.page_token,
        )
        response = pb.GetRatingHistoryResponse()
        for row in page.changes:
            change = response.changes.add(
                table_id=row.table_id,
                before=_rating_out(request.game, row.before),
                after=_rating_out(request.game, row.after),
            )
            change.finished_at.FromDatetime(row.finished_at)
        response.page.next_page_token = page.next_page_token
        return response

    async def GetTopRatings(
        self, request: pb.GetTopRatingsRequest, context: Context
    ) -> pb.GetTopRatingsResponse:
        page = await self._leaderboard.top_ratings(
            request.game, request.page.page_size, request.page.page_token
        )
        response = pb.GetTopRatingsResponse(
            entries=[
                pb.RatedPlayer(
                    rank=e.rank, player_id=e.player_id, rating=_rating_out(request.game, e.rating)
                )
                for e in page.entries
            ]
        )
        response.page.next_page_token = page.next_page_token
        return response


def leaderboard_service(leaderboard: Leaderboard) -> GrpcService:
    servicer = LeaderboardServicer(leaderboard)
    return GrpcService(
        SERVICE_NAME, lambda server: pb_grpc.add_LeaderboardServicer_to_server(servicer, server)
    )
