"""Bots with no think time play on in the commit of the move that was due (MODE-1, MODE-3,
PLAT-3): one statement for several versions, each its own event in the log, every version
in the cache for watchers; bots that think still move one at a time, as do all bots while
players act; and the timer loop gives way to players."""

from __future__ import annotations

import asyncio
import contextlib
import time

import pytest
from prometheus_client import REGISTRY

from tavolo.engine.app import BOT_RUN, PLAYERS_ACTIVE_SECONDS
from tavolo.engine.store import DeadlineRow
from tavolo.servicekit.auth import Principal, Role
from tavolo.tablelog.replay import tables_by_version
from tavolo.tablelog.table import ACTION, BY_BOT
from tests.integration.engine.helpers import EngineParts, engine_parts, open_bot_table

AUDITOR = Principal("auditor", frozenset({Role.AUDITOR}))


async def _due_row(parts: EngineParts, table_id: str) -> DeadlineRow:
    for _ in range(200):
        rows, _ = await parts.engine.store.due(100)
        mine = [r for r in rows if r.table_id == table_id]
        if mine:
            return mine[0]
        await asyncio.sleep(0.01)
    raise AssertionError(f"no move of {table_id} came due")


async def test_a_bots_move_and_the_bots_answers_commit_in_one_statement(
    database_url: str,
) -> None:
    async with engine_parts(database_url, loops=False, pool_size=1) as parts:
        app, store = parts.engine.app, parts.engine.store
        before = await open_bot_table(parts, "run")
        live = await parts.engine.repo.live("run")
        row = await _due_row(parts, "run")
        statements: list[str] = []
        async with parts.pool.acquire() as conn:
            conn.add_query_logger(lambda logged: statements.append(str(logged.query)))
        assert await app.fire(row)
        await asyncio.sleep(0.01)  # query loggers are called soon after, not at once
        writes = [s for s in statements if "commit_command" in s]
        assert len(writes) == 1
        after = await store.version("run")
        assert after is not None and 2 <= after - before <= BOT_RUN
        # each move its own event, by the bots in turn
        events = await store.read_events("run")
        moves = [e for e in events[before:] if e.type == ACTION]
        assert len(moves) == after - before
        assert all(e.data["by"] == BY_BOT for e in moves)
        assert moves[0].data["seat"] == row.seat
        # the cache holds every version of the run, each the log's own
        replayed = {t.version: t for t in tables_by_version(events, live.seed)}
        for version in range(before, after + 1):
            cached = live.at(version)
            assert cached is not None
            assert (cached.state, cached.seats) == (
                replayed[version].state,
                replayed[version].seats,
            )
        assert (await store.events.verify_stream("table-run")).ok
        # the next bot's move is due, as after a move fired alone
        assert (await _due_row(parts, "run")).table_id == "run"


async def test_a_watcher_sees_every_version_of_a_run(database_url: str) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        app = parts.engine.app
        before = await open_bot_table(parts, "watched")
        seen: list[int] = []
        target = asyncio.Event()

        async def watch() -> None:
            async for view in app.watch(AUDITOR, "watched", before):
                seen.append(view.version)
                target.set()

        watcher = asyncio.create_task(watch())
        try:
            await asyncio.sleep(0.05)  # the watcher is in before the run commits
            assert await app.fire(await _due_row(parts, "watched"))
            after = await parts.engine.store.version("watched")
            assert after is not None
            async with asyncio.timeout(5):
                while not seen or seen[-1] < after:
                    target.clear()
                    await target.wait()
            assert seen == list(range(before + 1, after + 1))
            assert len(seen) >= 2
        finally:
            watcher.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await watcher


async def test_bots_that_think_move_one_at_a_time(database_url: str) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        before = await open_bot_table(parts, "thinking", think_millis=5)
        for step in range(1, 4):
            assert await parts.engine.app.fire(await _due_row(parts, "thinking"))
            assert await parts.engine.store.version("thinking") == before + step


def _gave_way() -> float:
    sample = REGISTRY.get_sample_value("tavolo_timer_gave_way_seconds_total", {"service": "engine"})
    return sample or 0.0


async def test_the_timer_loop_gives_way_after_a_batch_during_which_players_acted(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        app, timers = parts.engine.app, parts.engine.timers
        ids = [f"way{n}" for n in range(3)]
        for table_id in ids:
            await open_bot_table(parts, table_id)

        async def due() -> list[DeadlineRow]:
            return [await _due_row(parts, table_id) for table_id in ids]

        before = _gave_way()
        await timers._fire_rows(await due())  # bots alone: no pause
        assert _gave_way() == before
        fire_together = app.fire_together

        async def a_player_acts_meanwhile(
            rows: list[DeadlineRow],
        ) -> tuple[int, list[DeadlineRow]]:
            app._player_acts()
            return await fire_together(rows)

        monkeypatch.setattr(app, "fire_together", a_player_acts_meanwhile)
        await timers._fire_rows(await due())
        assert _gave_way() > before


async def test_while_players_act_bots_move_one_at_a_time(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A run is one long step of the event loop: only when no player is acting."""
    async with engine_parts(database_url, loops=False) as parts:
        app, store = parts.engine.app, parts.engine.store
        before = await open_bot_table(parts, "busy")
        app._player_acts()  # a player acts, at some table of this replica
        assert app.players_active()
        assert await app.fire(await _due_row(parts, "busy"))
        assert await store.version("busy") == before + 1
        quiet_since = time.monotonic() - PLAYERS_ACTIVE_SECONDS
        monkeypatch.setattr(app, "player_acted_at", quiet_since)
        assert not app.players_active()
        assert await app.fire(await _due_row(parts, "busy"))
        after = await store.version("busy")
        assert after is not None and after - (before + 1) >= 2
