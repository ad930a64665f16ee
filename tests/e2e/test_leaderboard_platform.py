"""Games played through the platform reach the league with the right points (MODE-2,
MODE-3): the engine runs real Pika tables over gRPC, its outbox publishes TableFinished
on NATS, and the leaderboard's consumer projects it.

Human seats are played by this test through ``Engine.Act`` with random legal actions, as
a client would; bot seats are played by the engine.
"""

from __future__ import annotations

import asyncio
import datetime as dt
import random
from collections.abc import AsyncIterator
from dataclasses import dataclass
from zoneinfo import ZoneInfo

import grpc
import pytest

from tavolo.engine.bootstrap import assemble as engine_assemble
from tavolo.leaderboard.bootstrap import make_assemble
from tavolo.leaderboard.config import LeaderboardConfig
from tavolo.leaderboard.weeks import week_of
from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.servicekit.runtime import RunningService, start_service
from tavolo.servicekit.settings import Settings
from tavolo.v1 import common_pb2, engine_pb2, engine_pb2_grpc
from tavolo.v1 import leaderboard_pb2 as pb
from tavolo.v1 import leaderboard_pb2_grpc as pb_grpc
from tests.secret import TEST_CHECKPOINT_KEY, TEST_TOKEN_SECRET

pytestmark = pytest.mark.e2e

# League points of a 2-seat table, doubled (rules.py defaults): 3 for first, 1 for second.
TWO_SEAT_POINTS_X2 = {1: 6, 2: 2}


@dataclass
class Platform:
    engine: engine_pb2_grpc.EngineAsyncStub
    leaderboard: pb_grpc.LeaderboardAsyncStub
    signer: TokenSigner
    leaderboard_address: str = ""

    def auth(self, player: str, *roles: Role) -> tuple[tuple[str, str], ...]:
        token, _ = self.signer.issue(player, roles or (Role.PLAYER,), nickname=player)
        return (("authorization", f"Bearer {token}"),)


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    settings = Settings(
        database_url=database_url,
        nats_url=nats_url,
        namespace=namespace,
        token_secret=TEST_TOKEN_SECRET,
        checkpoint_key=TEST_CHECKPOINT_KEY,
    )
    services: list[RunningService] = []
    try:
        services.append(await start_service("engine", engine_assemble, settings, port=0))
        services.append(
            await start_service("leaderboard", make_assemble(LeaderboardConfig()), settings, port=0)
        )
        engine_channel = grpc.aio.insecure_channel(f"127.0.0.1:{services[0].port}")
        board_channel = grpc.aio.insecure_channel(f"127.0.0.1:{services[1].port}")
        async with engine_channel, board_channel:
            yield Platform(
                engine_pb2_grpc.EngineStub(engine_channel),  # type: ignore[arg-type]
                pb_grpc.LeaderboardStub(board_channel),  # type: ignore[arg-type]
                TokenSigner(settings.token_secret),
                f"127.0.0.1:{services[1].port}",
            )
    finally:
        for service in reversed(services):
            await service.stop(0.5)


def human(seat: int, player_id: str) -> common_pb2.Seat:
    return common_pb2.Seat(seat=seat, player_id=player_id, nickname=player_id)


def bot(seat: int) -> common_pb2.Seat:
    return common_pb2.Seat(seat=seat, bot=True, bot_level=common_pb2.BOT_LEVEL_EASY)


async def play(
    platform: Platform,
    seats: list[common_pb2.Seat],
    mode: int,
    *,
    bot_filled: bool = False,
    seed: int = 0,
) -> list[int]:
    """Open a table as the lobby would, play its human seats to the end; the places."""
    opened = await platform.engine.OpenTable(
        engine_pb2.OpenTableRequest(
            game="pika",
            seats=seats,
            mode=mode,
            bot_filled=bot_filled,  # type: ignore[arg-type]
        ),
        metadata=platform.auth("lobby", Role.SERVICE),
    )
    rng = random.Random(seed)
    humans = {s.seat: s.player_id for s in seats if not s.bot}
    request = engine_pb2.GetTableRequest(table_id=opened.table_id)
    for _ in range(5000):
        views = {
            seat: await platform.engine.GetTable(request, metadata=platform.auth(player))
            for seat, player in humans.items()
        }
        first = next(iter(views.values()))
        if first.status != engine_pb2.TABLE_STATUS_PLAYING:
            return list(first.outcome.places)
        movers = [seat for seat, view in views.items() if view.legal_actions]
        if not movers:
            await asyncio.sleep(0.02)  # a bot or a timer moves next
            continue
        seat = rng.choice(movers)
        view = views[seat]
        try:
            await platform.engine.Act(
                engine_pb2.ActRequest(
                    table_id=opened.table_id,
                    action=rng.choice(list(view.legal_actions)),
                    expected_version=view.version,
                ),
                metadata=platform.auth(humans[seat]),
            )
        except grpc.aio.AioRpcError as exc:  # a bot or a timer moved first: look again
            if exc.code() not in (grpc.StatusCode.ABORTED, grpc.StatusCode.FAILED_PRECONDITION):
                raise
    raise AssertionError("the table never finished")


async def test_games_played_through_the_platform_show_in_the_league_with_the_right_points(
    platform: Platform,
) -> None:
    utc = ZoneInfo("UTC")
    weeks = {week_of(dt.datetime.now(dt.UTC), utc)}
    online = await play(platform, [human(0, "ann"), human(1, "bob")], common_pb2.MODE_ONLINE)
    filled = await play(
        platform, [human(0, "ann"), bot(1)], common_pb2.MODE_ONLINE, bot_filled=True, seed=1
    )
    await play(platform, [human(0, "bob"), human(1, "cyd")], common_pb2.MODE_VERSUS_FRIENDS, seed=2)
    weeks.add(week_of(dt.datetime.now(dt.UTC), utc))

    expected = {
        "ann": TWO_SEAT_POINTS_X2[online[0]] + TWO_SEAT_POINTS_X2[filled[0]] // 2,
        "bob": TWO_SEAT_POINTS_X2[online[1]],
    }  # cyd played only versus friends: not in the league
    ann = platform.auth("ann")

    async def league() -> dict[str, int]:
        points: dict[str, int] = {}
        for week in weeks:  # the games may straddle a Monday midnight
            response = await platform.leaderboard.GetLeague(
                pb.GetLeagueRequest(week=pb.IsoWeek(year=week.year, week=week.week)),
                metadata=ann,
            )
            for entry in response.entries:
                points[entry.player_id] = points.get(entry.player_id, 0) + entry.points_x2
        return points

    async def cyd_games() -> int:
        stats = await platform.leaderboard.GetPlayerStats(
            pb.GetPlayerStatsRequest(player_id="cyd"), metadata=ann
        )
        return sum(g.games for g in stats.games)

    for _ in range(300):  # the relay and the consumer work in the background
        if await cyd_games() == 1:
            break
        await asyncio.sleep(0.1)
    assert await cyd_games() == 1  # the last table was projected, so all were
    assert await league() == expected
    stats = await platform.leaderboard.GetPlayerStats(pb.GetPlayerStatsRequest(), metadata=ann)
    assert [(g.game, g.games, g.wins) for g in stats.games] == [
        ("pika", 2, [online[0], filled[0]].count(1))
    ]
