"""What one action costs the database: every statement is a round trip on the action's
path and CPU on the primary, so the count is held here (see repository's docstring)."""

from __future__ import annotations

from typing import Any

import asyncpg

from tavolo.cardgames import Action, ActionKind
from tavolo.engine.bootstrap import build_engine
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.connect import create_pool
from tavolo.tablelog.setup import SeatInfo, build_setup


async def test_an_action_is_five_statements_and_a_request_id_two_more(
    database_url: str,
) -> None:
    statements: list[str] = []

    async def log_queries(conn: asyncpg.Connection) -> None:
        conn.add_query_logger(lambda logged: statements.append(logged.query))

    pool = await create_pool(database_url, min_size=1, max_size=2, init=log_queries)
    try:
        engine = await build_engine(pool)
        seats = [SeatInfo(0, "ann"), SeatInfo(1, "bob")]
        setup = build_setup(
            table_id="t-trips", game="pika", options={}, seats=seats, mode="versus_friends"
        )
        await engine.app.open_setup(setup)
        await engine.announcer.flush()

        async def reorder(request_id: str) -> list[str]:
            table = (await engine.repo.live("t-trips")).table
            hand = tuple(reversed(table.state.hands[1]))
            statements.clear()
            await engine.app.act(
                Principal("bob", frozenset({Role.PLAYER})),
                "t-trips",
                Action(ActionKind.REORDER, cards=hand),
                request_id=request_id,
            )
            await engine.announcer.flush()
            return [_first_word(s) for s in statements if "pg_notify" not in s]

        # BEGIN, the lock, the head and deadlines, the append (one round trip, savepoint
        # and all), COMMIT.
        assert await reorder("") == ["BEGIN", "SELECT", "WITH", "SELECT", "COMMIT"]
        # A request id is looked up and saved: two more.
        assert await reorder("r-1") == [
            "BEGIN",
            "SELECT",
            "SELECT",
            "INSERT",
            "WITH",
            "SELECT",
            "COMMIT",
        ]
        # A retry is answered from what was saved: nothing is written.
        assert await reorder("r-1") == ["BEGIN", "SELECT", "SELECT", "COMMIT"]
    finally:
        await pool.close()


def _first_word(statement: Any) -> str:
    return str(statement).split(None, 1)[0].upper().rstrip(";")
