"""A command is decided on the cached table and committed by one statement that checks it
still holds (guarantee 2): what happens when it does not, on real PostgreSQL."""

from __future__ import annotations

import asyncio

import pytest

from tavolo.cardgames import Action, ActionKind
from tavolo.engine.bootstrap import build_engine
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import InvalidArgument
from tavolo.tablelog.replay import audit_table, tables_by_version
from tavolo.tablelog.setup import SeatInfo, build_setup
from tests.integration.engine.helpers import EngineParts, engine_parts

ANN = Principal("ann", frozenset({Role.PLAYER}))
BOB = Principal("bob", frozenset({Role.PLAYER}))


async def _friends_table(parts: EngineParts, table_id: str) -> int:
    """Open a Pika table of two friends, Ann and Bob; its version once dealt."""
    setup = build_setup(
        table_id=table_id,
        game="pika",
        options={},
        seats=[SeatInfo(0, "ann"), SeatInfo(1, "bob")],
        mode="versus_friends",
    )
    return (await parts.engine.app.open_setup(setup)).version


def _reorder(parts: EngineParts, table_id: str, seat: int) -> Action:
    live = parts.engine.repo.cache.get(table_id)
    assert live is not None
    return Action(ActionKind.REORDER, cards=tuple(reversed(live.table.state.hands[seat])))


async def test_an_action_a_stale_copy_refuses_is_decided_again_on_the_caught_up_table(
    database_url: str,
) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        await _friends_table(parts, "t-behind")
        other = await build_engine(parts.pool)  # a second replica on the same database
        await other.repo.live("t-behind")
        stale = (await parts.engine.repo.live("t-behind")).table.version
        await other.app.act(BOB, "t-behind", _reorder(parts, "t-behind", 1))
        # Bob saw the new version (from the other replica); this replica's copy is one
        # behind and refuses his expected version, until one read shows it is behind.
        view = await parts.engine.app.act(
            BOB, "t-behind", _reorder(parts, "t-behind", 1), expected_version=stale + 1
        )
        assert view.version == stale + 2
        events = await parts.engine.store.read_events("t-behind")
        assert [e.version for e in events] == list(range(1, stale + 3))
        assert audit_table(events).chain.ok
        assert await parts.engine.store.version("t-behind") == stale + 2


async def test_a_refusal_on_a_current_copy_is_the_tables_own_and_writes_nothing(
    database_url: str,
) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        version = await _friends_table(parts, "t-refused")
        with pytest.raises(InvalidArgument, match=f"at version {version}; it has no version 99"):
            await parts.engine.app.act(
                ANN, "t-refused", _reorder(parts, "t-refused", 0), expected_version=99
            )
        assert await parts.engine.store.version("t-refused") == version


async def test_a_retry_that_reaches_another_replica_gets_the_first_answer(
    database_url: str,
) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        await _friends_table(parts, "t-retry")
        other = await build_engine(parts.pool)
        await other.repo.live("t-retry")  # its copy will be one version behind
        action = _reorder(parts, "t-retry", 0)
        first = await parts.engine.app.act(ANN, "t-retry", action, request_id="r-7")
        again = await other.app.act(ANN, "t-retry", action, request_id="r-7")
        assert (again.version, again.hand) == (first.version, first.hand)
        events = await parts.engine.store.read_events("t-retry")
        assert len(events) == first.version  # written once


async def test_a_players_command_waits_for_a_transaction_holding_the_table(
    database_url: str,
) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        version = await _friends_table(parts, "t-held")
        async with parts.pool.acquire() as holder:
            held = holder.transaction()
            await held.start()
            await holder.execute("SELECT 1 FROM engine.tables WHERE table_id = 't-held' FOR UPDATE")
            acting = asyncio.create_task(
                parts.engine.app.act(ANN, "t-held", _reorder(parts, "t-held", 0))
            )
            await asyncio.sleep(0.3)
            assert not acting.done()  # waiting, not refused and not skipped
            await held.rollback()
            view = await asyncio.wait_for(acting, 10)
        assert view.version == version + 1


async def test_a_decision_of_two_events_keeps_both_versions_for_the_watchers(
    database_url: str,
) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        await _friends_table(parts, "t-two")
        await parts.engine.app.leave(ANN, "t-two")
        live = await parts.engine.repo.live("t-two")
        before = live.table.version
        watcher = asyncio.Event()
        live.watchers.add(watcher)  # someone is watching the table
        await parts.engine.app.leave(BOB, "t-two")  # the last human leaves: seat taken, aborted
        assert live.table.version == before + 2
        between = live.at(before + 1)  # in memory: a watcher needs no replay of the log
        assert between is not None
        events = await parts.engine.store.read_events("t-two")
        replayed = list(tables_by_version(events, live.seed))[before]
        assert (between.version, between.last_event, between.seats, between.status) == (
            replayed.version,
            replayed.last_event,
            replayed.seats,
            replayed.status,
        )
        # Once no one watches the closed table, it keeps only its last version.
        live.watchers.discard(watcher)
        live.settle()
        assert [t.version for t in live.history] == [before + 2]
        assert live.at(before + 1) is None
        assert (await parts.engine.repo.table_at(live, before + 1)).version == before + 1
        # A watcher resuming after the trim still sees every version, from the log.
        seen = [view.version async for view in parts.engine.app.watch(ANN, "t-two", before)]
        assert seen == [before + 1, before + 2]
        assert [t.version for t in live.history] == [before + 2]
