"""Rebuild: the history of received TableFinished events is the source of truth; emptying
the projections and replaying it gives exactly the same standings.
"""

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
from tavolo.leaderboard.config import LeaderboardConfig
from tavolo.leaderboard.model import FinishedTable, Mode
from tavolo.leaderboard.projection import ProjectionDelta
from tavolo.leaderboard.rules import PlacementTable, RewardRules
from tavolo.servicekit.errors import PermissionDenied

from ...unit.leaderboard.tables import MONDAY, finished, payload, seat
from .conftest import GAMES, NOW, OPERATOR, PLAYER, histogram_matches_scores, snapshot


def random_history(rng: random.Random, count: int) -> list[FinishedTable]:
    """Tables of every mode and size over three weeks, bots, ties and boosters included."""
    players = [f"player-{i:02d}" for i in range(25)]
    tables = []
    for _ in range(count):
        size = rng.choice([2, 3, 4])
        places = sorted(rng.randint(1, size) for _ in range(size))
        places = [min(p, i + 1) for i, p in enumerate(places)]  # valid shared places
        seats = [
            seat(
                None if rng.random() < 0.15 else player,
                place,
                booster=rng.random() < 0.2,
                vip=rng.random() < 0.2,
            )
            for player, place in zip(rng.sample(players, size), places, strict=True)
        ]
        tables.append(
            finished(
                seats,
                mode=rng.choice(list(Mode)),
                game=rng.choice(sorted(GAMES)),
                bot_filled=rng.random() < 0.3,
                at=MONDAY + dt.timedelta(minutes=rng.randint(-8000, 16000)),
            )
        )
    return tables


async def test_rebuild_gives_exactly_the_same_standings(
    leaderboard: Leaderboard, pool: asyncpg.Pool
) -> None:
    history = random_history(random.Random(11), 300)
    for table in history:
        await leaderboard.project_now(payload(table))
    for table in history[:40]:  # redeliveries change nothing
        assert not await leaderboard.project_now(payload(table))
    projected = await snapshot(pool)
    assert sum(len(rows) for rows in projected.values()) > 300  # the history is not trivial
    assert len({t[0] for t in projected["leaderboard.league_scores"]}) >= 3  # weeks

    async with pool.acquire() as conn:  # drop the projection altogether
        for table in projected:
            await conn.execute(f"DELETE FROM {table}")
    assert await leaderboard.replay_history() == 300
    assert await snapshot(pool) == projected
    assert await histogram_matches_scores(pool)


async def test_a_rebuild_applies_changed_rules_to_the_whole_history(
    pool: asyncpg.Pool,
) -> None:
    table = finished([seat("ann", 1), seat("bob", 2)])
    old = Leaderboard(pool, LeaderboardConfig(), GAMES, clock=lambda: NOW)
    await old.project_now(payload(table))
    rules = RewardRules(league_points=PlacementTable({2: (10, 4)}, "league"))
    new = Leaderboard(pool, LeaderboardConfig(rules=rules), GAMES, clock=lambda: NOW)
    await new.rebuild(OPERATOR)
    page = await new.league(None, "", 10, "")
    assert [(e.player_id, e.points_x2) for e in page.entries] == [("ann", 20), ("bob", 8)]


async def test_only_operators_may_rebuild(leaderboard: Leaderboard) -> None:
    with pytest.raises(PermissionDenied, match="operator"):
        await leaderboard.rebuild(PLAYER)


async def test_events_arriving_during_a_rebuild_are_neither_lost_nor_doubled(
    leaderboard: Leaderboard, pool: asyncpg.Pool
) -> None:
    rng = random.Random(5)
    history = random_history(rng, 120)
    for table in history[:80]:
        await leaderboard.project_now(payload(table))
    late = [leaderboard.project_now(payload(t)) for t in history[80:]]
    await asyncio.gather(leaderboard.replay_history(), *late)
    during = await snapshot(pool)
    assert await leaderboard.replay_history() == 120
    assert await snapshot(pool) == during


async def test_the_history_is_append_only(leaderboard: Leaderboard, pool: asyncpg.Pool) -> None:
    await leaderboard.project_now(payload(finished([seat("ann", 1), seat("bob", 2)])))
    async with pool.acquire() as conn:
        for statement in (
            "UPDATE leaderboard.table_finished_log SET table_id = 'x'",
            "DELETE FROM leaderboard.table_finished_log",
            "TRUNCATE leaderboard.table_finished_log",
        ):
            with pytest.raises(asyncpg.PostgresError, match="append-only"):
                await conn.execute(statement)
        assert await conn.fetchval("SELECT count(*) FROM leaderboard.table_finished_log") == 1


async def test_the_live_projection_keeps_projecting_while_a_rebuild_runs_beside_it(
    leaderboard: Leaderboard, pool: asyncpg.Pool, database_url: str
) -> None:
    """The rebuild stops in the middle of its replay until the live consumer has projected
    a new event on its own connection and thread: a rebuild that held the live projection
    (or the history) locked would keep that event waiting until it gave up."""
    history = random_history(random.Random(23), 60)
    for table in history[:59]:
        await leaderboard.project_now(payload(table))
    newcomer = payload(history[59])
    projected_meanwhile = threading.Event()
    outcome: list[object] = []

    def live_consumer() -> None:
        async def project() -> None:
            conn = await asyncpg.connect(database_url, server_settings={"lock_timeout": "5s"})
            try:
                async with conn.transaction():
                    outcome.append(await leaderboard.project_table_finished(conn, newcomer))
            except asyncpg.PostgresError as exc:
                outcome.append(exc)
            finally:
                await conn.close()

        asyncio.run(project())
        projected_meanwhile.set()

    pages = 0

    def replay_slowly(payloads: Sequence[bytes]) -> ProjectionDelta:
        nonlocal pages
        pages += 1
        if pages == 2:  # mid-rebuild: the live side must not be waiting on us
            threading.Thread(target=live_consumer).start()
            projected_meanwhile.wait(30)
        return leaderboard._replay(payloads)

    replayed = await store.rebuild(
        pool, replay_slowly, ratings=leaderboard.rating_replay(), batch_size=10
    )
    assert outcome == [True], f"the live projection was held up by the rebuild: {outcome}"
    assert replayed == 60  # the event projected meanwhile is in the rebuilt result too
    rebuilt = await snapshot(pool)
    async with pool.acquire() as conn:  # from scratch, with nothing running beside it
        for table in rebuilt:
            await conn.execute(f"DELETE FROM {table}")
    assert await leaderboard.replay_history() == 60
    assert await snapshot(pool) == rebuilt
    assert await histogram_matches_scores(pool)
