"""What one action costs the database: every statement is a round trip on the action's
path and CPU on the primary, so the count is held here (see repository's docstring)."""

from __future__ import annotations

import asyncio
from typing import Any

import asyncpg

from tavolo.cardgames import Action, ActionKind
from tavolo.engine.bootstrap import build_engine
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.connect import create_pool
from tavolo.tablelog.setup import SeatInfo, build_setup


async def test_an_action_is_one_statement_with_or_without_a_request_id(
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
        bob = Principal("bob", frozenset({Role.PLAYER}))

        async def act(action: Action, request_id: str, expected: int = 0) -> list[str]:
            await asyncio.sleep(0)  # asyncpg logs a statement a turn after its answer
            statements.clear()
            await engine.app.act(
                bob, "t-trips", action, request_id=request_id, expected_version=expected
            )
            await engine.announcer.flush()
            await asyncio.sleep(0)
            return [_called(s) for s in statements if "pg_notify" not in s]

        def reorder() -> Action:
            hand = engine.repo.cache.get("t-trips").table.state.hands[1]  # type: ignore[union-attr]
            return Action(ActionKind.REORDER, cards=tuple(reversed(hand)))

        # The lock, the checks, the events, deadlines, request id and head: one statement.
        assert await act(reorder(), "") == ["commit_commands"]
        version = await engine.store.version("t-trips")
        assert await act(reorder(), "r-1") == ["commit_commands"]
        assert await engine.store.version("t-trips") == (version or 0) + 1
        # A retry is answered from what was saved, in the same one statement: no write.
        assert await act(reorder(), "r-1") == ["commit_commands"]
        assert await engine.store.version("t-trips") == (version or 0) + 1
        # A retry the current table refuses (its expected version is past) is answered by
        # one read, which also shows the cached copy was current.
        assert await act(reorder(), "r-1", expected=version or 0) == ["head_and_request"]
        assert await engine.store.version("t-trips") == (version or 0) + 1
    finally:
        await pool.close()


def _called(statement: Any) -> str:
    """What a statement is: the engine function it calls, or the read it makes."""
    text = str(statement)
    if ".commit_command(" in text or ".commit_commands(" in text:
        return "commit_commands"
    if "requests AS q" in text and "max(e.version)" in text:
        return "head_and_request"
    return text.split(None, 1)[0].upper()
