"""A commit wakes the timer loop only when it leaves something due before the loop's next
regular look (PLAT-3): a bot with no think time moves at once, and a player's action at a
table of people, whose turn timers run for seconds, costs the database no timer query."""

from __future__ import annotations

import asyncio
import contextlib
import time
from collections.abc import AsyncIterator
from datetime import timedelta

import asyncpg

from tavolo.engine.bootstrap import Engine, build_engine
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.connect import create_pool
from tavolo.tablelog.setup import SeatInfo, build_setup
from tests.unit.engine.play import friends_setup

POLL = 5.0
"""Far longer than any wait below: whatever happens at once was woken by the commit."""


@contextlib.asynccontextmanager
async def slow_polling_engine(database_url: str, statements: list[str]) -> AsyncIterator[Engine]:
    async def log_queries(conn: asyncpg.Connection) -> None:
        conn.add_query_logger(lambda logged: statements.append(logged.query))

    pool = await create_pool(database_url, min_size=1, max_size=4, init=log_queries)
    try:
        engine = await build_engine(pool, timer_poll_seconds=POLL)
        loop = asyncio.create_task(engine.timers.run())
        try:
            yield engine
        finally:
            loop.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await loop
    finally:
        await pool.close()


def _timer_queries(statements: list[str]) -> int:
    return sum("FROM" in s and "deadlines" in s and "DELETE" not in s for s in statements)


async def test_a_players_action_at_a_table_of_people_wakes_no_timer_query(
    database_url: str,
) -> None:
    statements: list[str] = []
    async with slow_polling_engine(database_url, statements) as engine:
        table = await engine.app.open_setup(friends_setup("people", turn_seconds=30))
        await asyncio.sleep(0.3)  # the loop's first look, after its start
        for _ in range(3):
            seat = min(table.game.to_act(table.state))
            player = Principal(table.seats[seat].player_id, frozenset({Role.PLAYER}))
            statements.clear()
            view = await engine.app.act(
                player, "people", table.game.legal_actions(table.state, seat)[0]
            )
            await asyncio.sleep(0.3)
            assert _timer_queries(statements) == 0, statements
            table = (await engine.repo.live("people")).table
            assert table.version == view.version
        assert table.deadlines and all(
            d.due - engine.store.clock.now() > timedelta(seconds=20) for d in table.deadlines
        )


async def test_a_bot_with_no_think_time_moves_at_once_after_a_players_action(
    database_url: str,
) -> None:
    statements: list[str] = []
    async with slow_polling_engine(database_url, statements) as engine:
        seats = [SeatInfo(0, "ann"), SeatInfo(1, bot=True, bot_level="easy")]
        setup = build_setup(
            table_id="versus", game="pika", options={}, seats=seats, mode="versus_computer"
        )
        await engine.app.open_setup(setup)
        ann = Principal("ann", frozenset({Role.PLAYER}))
        moved = 0
        for _ in range(3):
            started = time.monotonic()
            live = await engine.repo.live("versus")
            while 0 not in live.table.game.to_act(live.table.state) and live.table.playing:
                assert time.monotonic() - started < 2, "the bot did not move at once"
                await asyncio.sleep(0.01)
            if not live.table.playing:
                break
            table = live.table
            view = await engine.app.act(ann, "versus", table.game.legal_actions(table.state, 0)[0])
            moved += 1
            assert view.version > table.version
        assert moved >= 1
