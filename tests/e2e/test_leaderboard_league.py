"""The leaderboard service over real gRPC, fed TableFinished events through real NATS the
way the engine's outbox publishes them (MODE-1..3, MODE-5; DESIGN guarantees 6, 8, 9).
"""

from __future__ import annotations

import asyncio
import datetime as dt
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass
from typing import TypeVar

import grpc
import nats
import pytest

from tavolo.leaderboard.bootstrap import make_assemble
from tavolo.leaderboard.config import LeaderboardConfig
from tavolo.leaderboard.model import Mode
from tavolo.messaging import Topology, publish_with_id
from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.servicekit.error_details import refusal_from_error
from tavolo.servicekit.runtime import RunningService, start_service
from tavolo.servicekit.settings import Settings
from tavolo.v1 import common_pb2
from tavolo.v1 import leaderboard_pb2 as pb
from tavolo.v1 import leaderboard_pb2_grpc as pb_grpc
from tests.secret import TEST_CHECKPOINT_KEY, TEST_TOKEN_SECRET

from ..unit.leaderboard.tables import finished, payload, seat

pytestmark = pytest.mark.e2e

NOW = dt.datetime(2025, 3, 12, 9, 0, tzinfo=dt.UTC)  # ISO 2025-W11
T = TypeVar("T")


@dataclass
class Platform:
    service: RunningService
    stub: pb_grpc.LeaderboardAsyncStub
    signer: TokenSigner
    publish: Callable[[bytes, str], Awaitable[None]]

    def auth(self, player: str, *roles: Role) -> tuple[tuple[str, str], ...]:
        token, _ = self.signer.issue(player, roles or (Role.PLAYER,))
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
    assemble = make_assemble(LeaderboardConfig(), clock=lambda: NOW, games=frozenset({"pika"}))
    service = await start_service("leaderboard", assemble, settings, port=0)
    nc = await nats.connect(nats_url)
    js = nc.jetstream()
    subject = Topology(namespace).table_finished

    async def publish(data: bytes, msg_id: str) -> None:
        await publish_with_id(js, subject, data, msg_id=msg_id)

    channel = grpc.aio.insecure_channel(f"127.0.0.1:{service.port}")
    try:
        yield Platform(
            service,
            pb_grpc.LeaderboardStub(channel),  # type: ignore[arg-type]
            TokenSigner(settings.token_secret),
            publish,
        )
    finally:
        await channel.close()
        await nc.close()
        await service.stop(0)


async def eventually(probe: Callable[[], Awaitable[T]], done: Callable[[T], bool]) -> T:
    """Poll until ``done`` holds (the consumer works in the background); fail after 30 s."""
    for _ in range(300):
        value = await probe()
        if done(value):
            return value
        await asyncio.sleep(0.1)
    raise AssertionError(f"never reached the expected state; last seen: {value}")


def rows(
    response: pb.GetLeagueResponse | pb.GetAllTimeRankingResponse,
) -> list[tuple[int, str, int]]:
    return [(e.rank, e.player_id, e.points_x2) for e in response.entries]


async def test_mode3_finished_tables_show_in_the_league_with_the_right_points(
    platform: Platform,
) -> None:
    ann = platform.auth("ann")
    tables = [
        finished([seat("ann", 2), seat("bob", 1), seat("cyd", 3), seat("dan", 4)]),
        finished([seat("ann", 1), seat(None, 2)], bot_filled=True),  # counts half
        finished([seat("ann", 1, booster=True), seat("bob", 2)], mode=Mode.VERSUS_FRIENDS),
        finished([seat("cyd", 1), seat(None, 2)], mode=Mode.VERSUS_COMPUTER),
    ]
    for table in tables:
        await platform.publish(payload(table), table.event_id)

    async def cyd_stats() -> pb.PlayerStats:
        return await platform.stub.GetPlayerStats(
            pb.GetPlayerStatsRequest(player_id="cyd"), metadata=ann
        )

    await eventually(cyd_stats, lambda s: sum(g.games for g in s.games) == 2)
    league = await platform.stub.GetLeague(pb.GetLeagueRequest(), metadata=ann)
    assert (league.week.year, league.week.week) == (2025, 11)
    # ann: 10 (2nd of 4) + 3 (bot-filled win of 2, half of 6); bob 14; cyd 6; dan 2.
    assert rows(league) == [(1, "bob", 14), (2, "ann", 13), (3, "cyd", 6), (4, "dan", 2)]

    standing = await platform.stub.GetStanding(pb.GetStandingRequest(around=1), metadata=ann)
    assert (standing.player.rank, standing.player.points_x2, standing.player.games) == (2, 13, 2)
    assert [e.player_id for e in standing.neighbours] == ["bob", "ann", "cyd"]

    stats = await platform.stub.GetPlayerStats(pb.GetPlayerStatsRequest(), metadata=ann)
    # 75 (2nd of 4) + 100 (won a 2-seat table) + 50 x 2 (friends win with a booster)
    assert (stats.player_id, stats.xp, stats.level, stats.xp_to_next_level) == ("ann", 275, 2, 25)
    assert [(g.game, g.games, g.wins, list(g.places)) for g in stats.games] == [
        ("pika", 3, 2, [2, 1])
    ]
    alltime = await platform.stub.GetAllTimeRanking(
        pb.GetAllTimeRankingRequest(game="pika"), metadata=ann
    )
    assert rows(alltime) == [(1, "ann", 2), (1, "bob", 2), (3, "cyd", 0), (3, "dan", 0)]

    rebuilt = await platform.stub.RebuildProjection(
        pb.RebuildProjectionRequest(), metadata=platform.auth("op", Role.OPERATOR)
    )
    assert rebuilt.events_replayed == 4
    again = await platform.stub.GetLeague(pb.GetLeagueRequest(), metadata=ann)
    assert rows(again) == rows(league)


async def test_a_redelivered_or_malformed_event_neither_counts_twice_nor_blocks(
    platform: Platform,
) -> None:
    ann = platform.auth("ann")
    first = finished([seat("ann", 1), seat("bob", 2)])
    await platform.publish(payload(first), first.event_id)
    # The same fact again under another message id (JetStream cannot drop it): the
    # leaderboard recognises the event itself. Then garbage, then one more real table.
    await platform.publish(payload(first), str(uuid.uuid4()))
    await platform.publish(b"\x08\xff\xff not protobuf", str(uuid.uuid4()))
    last = finished([seat("cyd", 1), seat("dan", 2)])
    await platform.publish(payload(last), last.event_id)

    async def league() -> pb.GetLeagueResponse:
        return await platform.stub.GetLeague(pb.GetLeagueRequest(), metadata=ann)

    seen = await eventually(league, lambda r: len(r.entries) == 4)
    assert rows(seen) == [(1, "ann", 6), (1, "cyd", 6), (3, "bob", 2), (3, "dan", 2)]


# API-1: the reason, and the field it names, of each refusal of BAD_REQUESTS by its words.
REASONS = {
    "weeks 1 to 52": ("FIELD_INVALID", "week"),
    "unknown game": ("GAME_UNKNOWN", ""),
    "page_size": ("FIELD_INVALID", "page_size"),
    "page_token": ("PAGE_TOKEN_INVALID", "page_token"),
    "around": ("FIELD_INVALID", "around"),
    "name a game": ("FIELD_REQUIRED", "game"),
    "longer than 200": ("FIELD_INVALID", "player_id"),
    "operator": ("ROLE_REQUIRED", ""),
}

BAD_REQUESTS = [
    (
        "GetLeague",
        pb.GetLeagueRequest(week=pb.IsoWeek(year=2025, week=53)),
        grpc.StatusCode.INVALID_ARGUMENT,
        "weeks 1 to 52",
    ),
    (
        "GetLeague",
        pb.GetLeagueRequest(game="chess"),
        grpc.StatusCode.INVALID_ARGUMENT,
        "unknown game",
    ),
    (
        "GetLeague",
        pb.GetLeagueRequest(page=common_pb2.PageRequest(page_size=501)),
        grpc.StatusCode.INVALID_ARGUMENT,
        "page_size",
    ),
    (
        "GetLeague",
        pb.GetLeagueRequest(page=common_pb2.PageRequest(page_token="x")),
        grpc.StatusCode.INVALID_ARGUMENT,
        "page_token",
    ),
    (
        "GetStanding",
        pb.GetStandingRequest(around=99),
        grpc.StatusCode.INVALID_ARGUMENT,
        "around",
    ),
    (
        "GetAllTimeRanking",
        pb.GetAllTimeRankingRequest(),
        grpc.StatusCode.INVALID_ARGUMENT,
        "name a game",
    ),
    (
        "GetPlayerStats",
        pb.GetPlayerStatsRequest(player_id="x" * 201),
        grpc.StatusCode.INVALID_ARGUMENT,
        "longer than 200",
    ),
    (
        "RebuildProjection",
        pb.RebuildProjectionRequest(),
        grpc.StatusCode.PERMISSION_DENIED,
        "operator",
    ),
]


async def test_bad_requests_get_clear_statuses_and_change_nothing(platform: Platform) -> None:
    """Guarantee 8: each refusal has its status and a message that says what to do."""
    table = finished([seat("ann", 1), seat("bob", 2)])
    await platform.publish(payload(table), table.event_id)
    ann = platform.auth("ann")

    async def league() -> pb.GetLeagueResponse:
        return await platform.stub.GetLeague(pb.GetLeagueRequest(), metadata=ann)

    before = await eventually(league, lambda r: len(r.entries) == 2)
    for call, request, code, message in BAD_REQUESTS:
        with pytest.raises(grpc.aio.AioRpcError) as caught:
            await getattr(platform.stub, call)(request, metadata=ann)
        assert (call, caught.value.code()) == (call, code)
        assert message in (caught.value.details() or ""), (call, caught.value.details())
        refusal = refusal_from_error(caught.value)
        assert refusal is not None, (call, message)
        assert (refusal.reason, refusal.metadata.get("field", "")) == REASONS[message], message
        if refusal.metadata.get("field"):  # API-1: the field named in a BadRequest too
            assert set(refusal.fields) == {refusal.metadata["field"]}
    assert await league() == before


async def test_every_call_needs_a_session_token(platform: Platform) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await platform.stub.GetLeague(pb.GetLeagueRequest())
    assert caught.value.code() == grpc.StatusCode.UNAUTHENTICATED
