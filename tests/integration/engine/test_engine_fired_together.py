"""Bot moves and timers of many tables fired in one statement (the timer loop's path under
load): the same checks and the same log as one at a time, in one round trip."""

from __future__ import annotations

import asyncio
from datetime import datetime

from tavolo.engine.bootstrap import build_engine
from tavolo.engine.store import DeadlineRow
from tavolo.tablelog.replay import tables_by_version
from tavolo.tablelog.table import Decision, Table
from tests.integration.engine.helpers import EngineParts, engine_parts, open_bot_table

TABLES = 6
THINK_MILLIS = 1


async def _bot_tables(parts: EngineParts, prefix: str, count: int = TABLES) -> list[str]:
    """Tables of four bots that think 1 ms: each has a bot move due almost at once, and
    each firing is one move (bots with no think time play on: test_engine_bots_play_on)."""
    ids = []
    for n in range(count):
        await open_bot_table(parts, f"{prefix}{n}", THINK_MILLIS)
        ids.append(f"{prefix}{n}")
    return ids


async def _due(parts: EngineParts) -> list[DeadlineRow]:
    await asyncio.sleep(5 * THINK_MILLIS / 1000)  # the bots' think time has run out
    rows, _ = await parts.engine.store.due(100)
    return rows


async def _versions(parts: EngineParts, ids: list[str]) -> list[int | None]:
    return [await parts.engine.store.version(t) for t in ids]


def _all_moved_but(before: list[int | None], after: list[int | None], stayed: int) -> None:
    """Every table moved one version on, but table ``stayed``, which is as it was."""
    assert after == [v if n == stayed else (v or 0) + 1 for n, v in enumerate(before)]


async def _replays_to_the_cache(parts: EngineParts, table_id: str) -> None:
    """The stored log replays to exactly the table the engine holds, chain intact."""
    store, live = parts.engine.store, await parts.engine.repo.live(table_id)
    events = await store.read_events(table_id)
    assert (await store.events.verify_stream(f"table-{table_id}")).ok
    *_, last = tables_by_version(events, live.seed)
    assert (last.version, last.state, last.seats) == (
        live.table.version,
        live.table.state,
        live.table.seats,
    )


async def test_the_bots_of_six_tables_move_in_one_statement(
    database_url: str,
) -> None:
    # one connection: the statement counted runs where the warm-up taught asyncpg its types
    async with engine_parts(database_url, loops=False, pool_size=1) as parts:
        ids = await _bot_tables(parts, "together")
        assert await parts.engine.app.fire_together(await _due(parts)) == (TABLES, [])
        before = await _versions(parts, ids)
        rows = await _due(parts)
        assert sorted(r.table_id for r in rows) == ids
        statements: list[str] = []
        async with parts.pool.acquire() as conn:
            conn.add_query_logger(lambda logged: statements.append(str(logged.query)))
        fired, alone = await parts.engine.app.fire_together(rows)
        await asyncio.sleep(0.01)  # query loggers are called soon after, not at once
        assert (fired, alone) == (TABLES, [])
        # no transaction across round trips: one statement locks, checks and writes all
        calls = [s for s in statements if "pg_notify" not in s]
        assert len(calls) == 1 and ".commit_commands(" in calls[0]
        assert await _versions(parts, ids) == [v + 1 for v in before if v is not None]
        for table_id in ids:
            await _replays_to_the_cache(parts, table_id)
        # each table's next bot is due, as after a move fired alone
        assert sorted(r.table_id for r in await _due(parts)) == ids


async def test_a_table_another_transaction_holds_is_left_due_and_the_others_move(
    database_url: str,
) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        ids = await _bot_tables(parts, "held")
        before = await _versions(parts, ids)
        rows = await _due(parts)
        async with parts.pool.acquire() as holder, holder.transaction():
            await holder.execute(
                "SELECT 1 FROM engine.tables WHERE table_id = $1 FOR UPDATE", ids[0]
            )
            fired, alone = await parts.engine.app.fire_together(rows)
        assert (fired, alone) == (TABLES - 1, [])
        _all_moved_but(before, await _versions(parts, ids), stayed=0)
        assert ids[0] in {r.table_id for r in await _due(parts)}


async def test_a_copy_another_replica_moved_on_is_caught_up_before_its_bot_decides(
    database_url: str,
) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        ids = await _bot_tables(parts, "stale")
        other = await build_engine(parts.pool)  # a second replica on the same database
        for row in await _due(parts):
            if row.table_id == ids[0]:
                assert await other.app.fire(row)  # moves table 0 past this replica's copy
        mine = (await parts.engine.repo.live(ids[0])).table.version
        rows = await _due(parts)
        fired, alone = await parts.engine.app.fire_together(rows)
        # decided on a copy one version behind: refused there, and fired alone, where the
        # copy is caught up under the table's lock first
        assert (fired, [r.table_id for r in alone]) == (TABLES - 1, [ids[0]])
        assert (await parts.engine.store.version(ids[0])) == mine + 1
        assert await parts.engine.app.fire(alone[0])
        assert (await parts.engine.store.version(ids[0])) == mine + 2
        await _replays_to_the_cache(parts, ids[0])


async def test_a_wrong_remembered_head_writes_nothing_for_that_table_and_it_fires_alone(
    database_url: str,
) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        ids = await _bot_tables(parts, "unlinked")
        before = await _versions(parts, ids)
        events = parts.engine.store.events
        version, _ = events._heads[f"table-{ids[1]}"]
        events._heads[f"table-{ids[1]}"] = (version, b"\x00" * 32)  # not the stream's head
        fired, alone = await parts.engine.app.fire_together(await _due(parts))
        assert (fired, [r.table_id for r in alone]) == (TABLES - 1, [ids[1]])
        # neither its events nor its head nor its timers
        _all_moved_but(before, await _versions(parts, ids), stayed=1)
        assert ids[1] in {r.table_id for r in await _due(parts)}
        assert await parts.engine.app.fire(alone[0])  # alone, the head is read again
        assert (await _versions(parts, ids))[1] == (before[1] or 0) + 1
        await _replays_to_the_cache(parts, ids[1])


async def test_one_tables_failing_command_leaves_it_as_it_was_and_the_others_move(
    database_url: str,
) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        ids = await _bot_tables(parts, "faulty")
        before = await _versions(parts, ids)
        repo = parts.engine.repo
        fired = []
        for row in await _due(parts):
            live = await repo.live(row.table_id)
            decide = parts.engine.app._decider(live, row)
            if row.table_id == ids[2]:

                def broken(table: Table, seed: bytes, now: datetime) -> Decision | None:
                    raise RuntimeError("a bug in one game's rules")

                decide = broken
            fired.append((live, row, decide))
        handled, alone = await repo.fire_together(fired)
        assert (handled, alone) == (TABLES - 1, [])
        _all_moved_but(before, await _versions(parts, ids), stayed=2)
