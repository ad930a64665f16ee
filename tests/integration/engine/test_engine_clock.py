"""Timers are claimed against the database's clock, never a replica's own: replicas whose
clocks disagree still fire each deadline when it is due, and only then."""

from __future__ import annotations

from datetime import datetime, timedelta, tzinfo

import pytest

from tavolo.engine import repository, scheduler
from tests.integration.engine.helpers import engine_parts
from tests.unit.engine.play import friends_setup


class _HourAhead(datetime):
    """``datetime`` as a replica whose clock runs an hour fast reads it."""

    @classmethod
    def now(cls, tz: tzinfo | None = None) -> _HourAhead:  # type: ignore[override]
        real = datetime.now(tz) + timedelta(hours=1)
        return cls.fromtimestamp(real.timestamp(), tz)


async def test_a_replica_an_hour_fast_fires_no_turn_timer_before_the_database_says_so(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        app, store = parts.engine.app, parts.engine.store
        opened = await app.open_setup(friends_setup("skew", turn_seconds=60))
        for module in (repository, scheduler):
            monkeypatch.setattr(module, "datetime", _HourAhead, raising=False)
        assert await parts.engine.timers.fire_due() == 0
        assert await store.version("skew") == opened.version
        async with parts.pool.acquire() as conn:
            await conn.execute("UPDATE engine.deadlines SET due_at = now() - interval '1 second'")
        assert await parts.engine.timers.fire_due() == 1
        assert await store.version("skew") == opened.version + 1


async def test_a_table_opened_by_a_fast_replica_runs_its_turn_clock_from_the_database(
    database_url: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        monkeypatch.setattr(repository, "datetime", _HourAhead)
        await parts.engine.app.open_setup(friends_setup("fast", turn_seconds=60))
        async with parts.pool.acquire() as conn:
            late = await conn.fetchval("SELECT max(due_at) - now() FROM engine.deadlines")
        assert timedelta(seconds=0) < late <= timedelta(seconds=60)
