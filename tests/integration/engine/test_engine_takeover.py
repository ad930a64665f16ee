"""A table's timers belong to the replica that made its latest commit (PLAT-3): another
replica moving it on takes it over, and a stopped replica's tables are taken over by the
others and played to the end."""

from __future__ import annotations

import asyncio

from prometheus_client import REGISTRY

from tavolo.servicekit.auth import Principal, Role
from tavolo.tablelog.setup import SeatInfo, build_setup
from tests.integration.engine.helpers import EngineParts, engine_parts, open_bot_table

AUDITOR = Principal("auditor", frozenset({Role.AUDITOR}))


def _takeovers() -> float:
    return REGISTRY.get_sample_value("tavolo_timer_takeovers_total", {"service": "engine"}) or 0.0


async def _until(check: object, what: str, seconds: float = 10.0) -> None:
    assert callable(check)
    for _ in range(int(seconds / 0.02)):
        if check():
            return
        await asyncio.sleep(0.02)
    raise AssertionError(f"still not so after {seconds} s: {what}")


async def _act(parts: EngineParts, table_id: str) -> None:
    """The seat to act plays its first legal action through ``parts``' replica."""
    live = await parts.engine.repo.live(table_id)
    table = await parts.engine.repo.refresh(live)
    seat = min(table.game.to_act(table.state))
    player = Principal(f"p{seat}", frozenset({Role.PLAYER}))
    legal = table.game.legal_actions(table.state, seat)
    await parts.engine.app.act(player, table_id, legal[0], expected_version=table.version)


async def test_the_replica_that_commits_owns_the_table_and_the_other_lets_it_go(
    database_url: str,
) -> None:
    async with engine_parts(database_url) as one, engine_parts(database_url) as two:
        setup = build_setup(
            table_id="shared",
            game="pika",
            options={},
            seats=[SeatInfo(s, f"p{s}") for s in range(4)],
            mode="versus_friends",
        )
        await one.engine.app.open_setup(setup)
        assert one.engine.repo.cache.owns("shared")
        await two.engine.repo.live("shared")  # loaded to be watched: not its own
        assert not two.engine.repo.cache.owns("shared")

        await _act(two, "shared")
        assert two.engine.repo.cache.owns("shared")
        await _until(lambda: not one.engine.repo.cache.owns("shared"), "the first let go")

        await _act(one, "shared")
        assert one.engine.repo.cache.owns("shared")
        await _until(lambda: not two.engine.repo.cache.owns("shared"), "the second let go")


async def test_a_stopped_replicas_bot_table_is_taken_over_and_played_to_the_end(
    database_url: str,
) -> None:
    before = _takeovers()
    async with engine_parts(database_url, loops=False) as stopped:
        opened = await open_bot_table(stopped, "orphan", think_millis=0)
        assert stopped.engine.repo.cache.owns("orphan")
        async with engine_parts(database_url) as other:
            # the stopped replica fires nothing: the other takes the table over
            await _until(lambda: other.engine.repo.cache.owns("orphan"), "the other took it", 20)
            assert _takeovers() > before
            live = await other.engine.repo.live("orphan")
            await _until(lambda: not live.table.playing, "the table ended", 60)
            assert live.table.version > opened + 1
            assert (await other.engine.store.events.verify_stream("table-orphan")).ok


async def test_a_replica_that_keeps_up_leaves_the_others_tables_alone(
    database_url: str,
) -> None:
    """Two replicas, each playing its own tables of bots to the end: neither loads the
    other's (a table taken over would be in its cache)."""
    async with engine_parts(database_url) as one, engine_parts(database_url) as two:
        mine = [(one, ["a0", "a1", "a2"]), (two, ["b0", "b1", "b2"])]
        for parts, tables in mine:
            for table_id in tables:
                await open_bot_table(parts, table_id, think_millis=20)
        for parts, tables in mine:
            for table_id in tables:
                live = await parts.engine.repo.live(table_id)
                await _until(lambda live=live: not live.table.playing, "tables ended", 120)
        assert not any(one.engine.repo.cache.holds(t) for t in mine[1][1])
        assert not any(two.engine.repo.cache.holds(t) for t in mine[0][1])
