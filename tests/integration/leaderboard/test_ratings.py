"""Ratings as the leaderboard keeps them (RATE-1): once per table, rebuilt to the same
numbers, read back by player, history and top, and bad requests refused."""

from __future__ import annotations

import asyncio
import datetime as dt
import random
import threading
from collections.abc import Sequence

import asyncpg
import pytest

from tavolo.leaderboard import store
from tavolo.leaderboard.app import Leaderboard
from tavolo.leaderboard.projection import ProjectionDelta
from tavolo.leaderboard.ratings import RATED_MODES
from tavolo.servicekit.errors import InvalidArgument, NotFound

from ...unit.leaderboard.tables import MONDAY, finished, payload, seat
from .conftest import PLAYER, snapshot
from .test_rebuild import random_history

RATING_TABLES = ("leaderboard.player_ratings", "leaderboard.rating_history")


async def test_rate_1_replaying_the_log_twice_gives_every_rating_to_the_last_bit(
    leaderboard: Leaderboard, pool: asyncpg.Pool
) -> None:
    """RATE-1: rebuilt twice from the history, every rating and history row is equal, float
    for float, to what live projecting gave; redeliveries rate nobody twice."""
    history = random_history(random.Random(41), 250)
    for table in history:
        await leaderboard.project_now(payload(table))
    for table in history[:30]:
        assert not await leaderboard.project_now(payload(table))
    live = {t: rows for t, rows in (await snapshot(pool)).items() if t in RATING_TABLES}
    assert len(live["leaderboard.player_ratings"]) > 20
    assert len(live["leaderboard.rating_history"]) > 100
    for _ in range(2):
        assert await leaderboard.replay_history() == 250
        again = {t: rows for t, rows in (await snapshot(pool)).items() if t in RATING_TABLES}
        assert again == live


async def test_rate_1_a_rebuild_after_a_recalibration_gives_the_ratings_live_rating_gave(
    leaderboard: Leaderboard, pool: asyncpg.Pool, monkeypatch: pytest.MonkeyPatch
) -> None:
    """RATE-1: the bots were recalibrated midway through the history (live rating used the
    old levels before, the new after), then recalibrated again for a time to come; the
    rebuild rates every table with the levels in force when it finished, so every rating
    comes back to the last bit."""
    from tavolo.leaderboard.bot_levels import CALIBRATIONS

    def levels(easy: float, medium: float, hard: float) -> dict[str, float]:
        return {"random": 16.5, "easy": easy, "medium": medium, "hard": hard}

    history = random_history(random.Random(44), 200)
    first, second = MONDAY.isoformat(), (MONDAY + dt.timedelta(days=60)).isoformat()
    for game, old, new in (("pika", 20.0, 28.0), ("spades", 19.0, 26.0)):
        monkeypatch.setitem(
            CALIBRATIONS,
            game,
            [
                {"levels": levels(old - 2, old, old + 2), "in_force_from": None},
                {"levels": levels(new - 2, new, new + 2), "in_force_from": first},
            ],
        )
    bot_tables = [t for t in history if any(s.bot for s in t.seats) and t.mode in RATED_MODES]
    assert any(t.occurred_at < MONDAY for t in bot_tables)
    assert any(t.occurred_at >= MONDAY for t in bot_tables)
    for table in history:
        await leaderboard.project_now(payload(table))
    live = {t: rows for t, rows in (await snapshot(pool)).items() if t in RATING_TABLES}
    for game in ("pika", "spades"):  # a recalibration deployed, in force from a time to come
        entries = CALIBRATIONS[game]
        monkeypatch.setitem(
            CALIBRATIONS,
            game,
            [*entries, {"levels": levels(40.0, 45.0, 50.0), "in_force_from": second}],
        )
    assert await leaderboard.replay_history() == 200
    again = {t: rows for t, rows in (await snapshot(pool)).items() if t in RATING_TABLES}
    assert again == live


async def test_rate_1_ratings_history_and_top_read_back(leaderboard: Leaderboard) -> None:
    """RATE-1: a winner's rating rises above the loser's; the history has one row per
    rated table (before, after, table id), newest first; the top is paged."""
    tables = [finished([seat("ann", 1), seat("bob", 2)], table_id=f"t{i}") for i in range(3)]
    for table in tables:
        await leaderboard.project_now(payload(table))
    [ann] = await leaderboard.player_ratings(PLAYER, "ann", "pika")
    assert ann.rating.tables == 3 and ann.rating.provisional
    page = await leaderboard.rating_history(PLAYER, "ann", "pika", 2, "")
    assert [c.table_id for c in page.changes] == ["t2", "t1"]
    assert page.changes[0].before == page.changes[1].after
    rest = await leaderboard.rating_history(PLAYER, "ann", "pika", 2, page.next_page_token)
    assert [c.table_id for c in rest.changes] == ["t0"] and rest.next_page_token == ""
    top = await leaderboard.top_ratings("pika", 1, "")
    assert [(e.rank, e.player_id) for e in top.entries] == [(1, "ann")]
    second = await leaderboard.top_ratings("pika", 1, top.next_page_token)
    assert [(e.rank, e.player_id) for e in second.entries] == [(2, "bob")]
    stats = await leaderboard.player_stats(PLAYER, "bob")
    assert stats.games[0].rating is not None and stats.games[0].rating.tables == 3


async def test_rate_1_bad_requests_are_refused_and_change_nothing(
    leaderboard: Leaderboard, pool: asyncpg.Pool
) -> None:
    await leaderboard.project_now(payload(finished([seat("ann", 1), seat("bob", 2)])))
    before = await snapshot(pool)
    with pytest.raises(InvalidArgument, match="unknown game"):
        await leaderboard.top_ratings("chess", 10, "")
    with pytest.raises(InvalidArgument, match="page_size"):
        await leaderboard.top_ratings("pika", -1, "")
    with pytest.raises(InvalidArgument, match="page_size"):
        await leaderboard.rating_history(PLAYER, "ann", "pika", -5, "")
    with pytest.raises(NotFound, match="no rating"):
        await leaderboard.player_ratings(PLAYER, "nobody", "")
    with pytest.raises(NotFound, match="no rating in spades"):
        await leaderboard.rating_history(PLAYER, "ann", "spades", 10, "")
    with pytest.raises(InvalidArgument, match="name a game"):
        await leaderboard.rating_history(PLAYER, "ann", "", 10, "")
    assert await snapshot(pool) == before


async def test_rate_1_a_late_commit_below_a_rated_position_is_rated_in_log_order(
    leaderboard: Leaderboard, pool: asyncpg.Pool, database_url: str
) -> None:
    """RATE-1: table X takes its place in the history but commits only after the rebuild
    has read the tables after it, and table Z, sharing a player with X, commits after X
    (it waits on X's rating locks). The rebuild meets Z before X; it must rate X before
    Z all the same, as a replay from scratch does."""
    history = random_history(random.Random(3), 40)
    for table in history:
        await leaderboard.project_now(payload(table))
    x = finished([seat("ann", 1), seat("bob", 2)])
    # Another week: X holds its week's league rows until it commits, and Y must not wait.
    y = finished([seat("cy", 1), seat("dee", 2)], at=MONDAY + dt.timedelta(days=14))
    z = finished([seat("ann", 2), seat("cy", 1)])
    inserted, go, done = threading.Event(), threading.Event(), threading.Event()
    failures: list[BaseException] = []

    def late_writer() -> None:
        async def write() -> None:
            conn = await asyncpg.connect(database_url)
            try:
                async with conn.transaction():
                    assert await leaderboard.project_table_finished(conn, payload(x))
                    inserted.set()
                    await asyncio.to_thread(go.wait, 30)
                second = await asyncpg.connect(database_url)
                try:
                    async with second.transaction():
                        assert await leaderboard.project_table_finished(second, payload(z))
                finally:
                    await second.close()
            finally:
                await conn.close()

        try:
            asyncio.run(write())
        except BaseException as exc:
            failures.append(exc)
        finally:
            inserted.set()
            done.set()

    threading.Thread(target=late_writer).start()
    await asyncio.to_thread(inserted.wait, 30)
    await leaderboard.project_now(payload(y))  # after X in the history, committed first
    pages = 0

    def replay_then_let_x_and_z_commit(payloads: Sequence[bytes]) -> ProjectionDelta:
        nonlocal pages
        pages += 1
        if pages == 1:
            go.set()
            done.wait(30)
        return leaderboard._replay(payloads)

    assert (
        await store.rebuild(
            pool, replay_then_let_x_and_z_commit, ratings=leaderboard.rating_replay()
        )
        == 43
    )
    assert not failures, failures
    rebuilt = await snapshot(pool)
    assert await leaderboard.replay_history() == 43
    assert await snapshot(pool) == rebuilt
