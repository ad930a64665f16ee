"""Ratings from games played through the platform (RATE-1): the engine runs real Pika
tables over gRPC, its outbox publishes TableFinished, the leaderboard rates them, and its
ratings RPCs, GetPlayerStats and ``tavolo rating`` show the same numbers; bad requests
get a clear status."""

from __future__ import annotations

import asyncio
from pathlib import Path

import grpc
import pytest

from tavolo.cli import session as sessions
from tavolo.cli.main import main as tavolo
from tavolo.v1 import common_pb2
from tavolo.v1 import leaderboard_pb2 as pb

from .test_leaderboard_platform import Platform, bot, human, platform, play

pytestmark = pytest.mark.e2e
__all__ = ["platform"]


async def ratings_of(board: Platform, player: str, tables: int) -> pb.PlayerRatings:
    for _ in range(300):
        try:
            found: pb.PlayerRatings = await board.leaderboard.GetPlayerRatings(
                pb.GetPlayerRatingsRequest(player_id=player), metadata=board.auth(player)
            )
            if found.ratings and found.ratings[0].rated_tables >= tables:
                return found
        except grpc.aio.AioRpcError as exc:
            assert exc.code() == grpc.StatusCode.NOT_FOUND
        await asyncio.sleep(0.05)
    raise AssertionError(f"{player} never had {tables} rated tables")


async def test_rate_1_tables_played_through_the_platform_are_rated_and_shown(
    platform: Platform,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    """RATE-1: an online table and a bot-filled one rate ann; a versus-computer table
    does not. Her ratings, history, the top and GetPlayerStats agree, and the CLI
    prints them."""
    await play(platform, [human(0, "ann"), human(1, "bob")], common_pb2.MODE_ONLINE, seed=1)
    await play(platform, [human(0, "ann"), bot(1)], common_pb2.MODE_ONLINE, bot_filled=True, seed=2)
    await play(platform, [human(0, "ann"), bot(1)], common_pb2.MODE_VERSUS_COMPUTER, seed=3)
    me = platform.auth("ann")
    for _ in range(300):  # until the three tables are projected
        stats = await platform.leaderboard.GetPlayerStats(pb.GetPlayerStatsRequest(), metadata=me)
        if stats.games and stats.games[0].games == 3:
            break
        await asyncio.sleep(0.05)
    found = await ratings_of(platform, "ann", 2)
    (rating,) = found.ratings
    assert (rating.game, rating.rated_tables, rating.provisional) == ("pika", 2, True)
    assert rating.rating == max(0.0, rating.mu - 3 * rating.sigma)
    history = await platform.leaderboard.GetRatingHistory(
        pb.GetRatingHistoryRequest(game="pika"), metadata=me
    )
    assert len(history.changes) == 2
    assert history.changes[0].after.mu == rating.mu
    assert history.changes[1].after.mu == history.changes[0].before.mu
    stats = await platform.leaderboard.GetPlayerStats(pb.GetPlayerStatsRequest(), metadata=me)
    (pika,) = stats.games
    assert (pika.rating, pika.provisional, pika.rated_tables) == (rating.rating, True, 2)
    assert pika.games == 3  # the versus-computer table counts as played, not as rated
    top = await platform.leaderboard.GetTopRatings(
        pb.GetTopRatingsRequest(game="pika"), metadata=me
    )
    assert {e.player_id for e in top.entries} == {"ann", "bob"}

    token = me[0][1].removeprefix("Bearer ")
    monkeypatch.setenv("TAVOLO_CLIENT_DIR", str(tmp_path))
    monkeypatch.setenv("TAVOLO_LEADERBOARD_ADDRESS", platform.leaderboard_address)
    sessions.save(sessions.SavedSession("ann", "ann", token, ""))
    assert await asyncio.to_thread(tavolo, ["rating", "--as", "ann"]) == 0
    assert "pika" in capsys.readouterr().out
    assert await asyncio.to_thread(tavolo, ["rating", "pika", "--as", "ann"]) == 0
    printed = capsys.readouterr().out
    assert f"{rating.rating:6.1f} provisional" in printed and printed.count("table ") == 2
    assert await asyncio.to_thread(tavolo, ["rating", "top", "pika", "--as", "ann"]) == 0
    assert "   1. " in capsys.readouterr().out
    assert await asyncio.to_thread(tavolo, ["rating", "top", "chess", "--as", "ann"]) == 1
    assert "unknown game 'chess'" in capsys.readouterr().out


@pytest.mark.parametrize(
    ("call", "code", "words"),
    [
        ("GetTopRatings", grpc.StatusCode.INVALID_ARGUMENT, "unknown game"),
        ("GetTopRatings-negative", grpc.StatusCode.INVALID_ARGUMENT, "page_size"),
        ("GetRatingHistory-negative", grpc.StatusCode.INVALID_ARGUMENT, "page_size"),
        ("GetPlayerRatings", grpc.StatusCode.NOT_FOUND, "no rating"),
        ("GetRatingHistory", grpc.StatusCode.NOT_FOUND, "no rating in pika"),
    ],
)
async def test_rate_1_bad_requests_get_a_clear_status(
    platform: Platform, call: str, code: grpc.StatusCode, words: str
) -> None:
    """RATE-1: an unknown game, a negative page size, a player with no rating."""
    board, me = platform.leaderboard, platform.auth("nobody")
    requests = {
        "GetTopRatings": lambda: board.GetTopRatings(
            pb.GetTopRatingsRequest(game="chess"), metadata=me
        ),
        "GetTopRatings-negative": lambda: board.GetTopRatings(
            pb.GetTopRatingsRequest(game="pika", page=common_pb2.PageRequest(page_size=-1)),
            metadata=me,
        ),
        "GetRatingHistory-negative": lambda: board.GetRatingHistory(
            pb.GetRatingHistoryRequest(game="pika", page=common_pb2.PageRequest(page_size=-3)),
            metadata=me,
        ),
        "GetPlayerRatings": lambda: board.GetPlayerRatings(
            pb.GetPlayerRatingsRequest(), metadata=me
        ),
        "GetRatingHistory": lambda: board.GetRatingHistory(
            pb.GetRatingHistoryRequest(game="pika"), metadata=me
        ),
    }
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await requests[call]()
    assert refused.value.code() == code
    assert words in (refused.value.details() or "")
