"""Guarantees 2 and 6 across processes: several processes append to one log at once.

Each process appends to a stream of its own (some appends committing late) and races the
others for one shared stream, reloading on every conflict, while this process tails the
log. Nothing may be skipped or seen twice, each stream must come out in version order
with an intact chain, and the shared stream must hold every process's bids exactly once.
"""

from __future__ import annotations

import asyncio
import json
import os
import sys
from pathlib import Path

import asyncpg
import pytest

from tavolo.eventlog import PostgresEventStore
from tests.scale import scaled

from .appender_process import SCHEMA, SHARED
from .tailing import tail

pytestmark = [pytest.mark.integration, pytest.mark.load]

REPO = Path(__file__).resolve().parents[3]
PROCESSES = 3
APPENDS_PER_PROCESS = scaled(400, 5_000)


async def run_appender(database_url: str, name: str) -> dict[str, list[str]]:
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        "-m",
        "tests.integration.eventlog.appender_process",
        database_url,
        name,
        str(APPENDS_PER_PROCESS),
        cwd=REPO,
        env={**os.environ, "PYTHONPATH": str(REPO)},
        stdout=asyncio.subprocess.PIPE,
    )
    out, _ = await asyncio.wait_for(process.communicate(), 600)
    assert process.returncode == 0, f"appender {name} failed"
    result: dict[str, list[str]] = json.loads(out.decode().strip().splitlines()[-1])
    return result


async def test_processes_appending_at_once_lose_and_repeat_nothing(database_url: str) -> None:
    pool = await asyncpg.create_pool(database_url, min_size=2, max_size=2)
    try:
        store = PostgresEventStore(pool, SCHEMA)
        await store.install()
        done = asyncio.Event()
        reader = asyncio.create_task(tail(store, done))
        names = [f"process-{n}" for n in range(PROCESSES)]
        results = await asyncio.gather(*(run_appender(database_url, n) for n in names))
        done.set()
        seen = await reader
        chains = [await store.verify_stream(stream) for stream in [*names, SHARED]]
    finally:
        await pool.close()

    seen_ids = [str(e.event_id) for e in seen]
    assert len(seen_ids) == len(set(seen_ids)), "an event was seen twice"
    for name, result in zip(names, results, strict=True):
        assert [str(e.event_id) for e in seen if e.stream_id == name] == result["own"]
    shared = [e for e in seen if e.stream_id == SHARED]
    assert [e.version for e in shared] == list(range(1, len(shared) + 1))
    bids = sorted(i for result in results for i in result["shared"])
    assert sorted(str(e.event_id) for e in shared) == bids
    assert len(bids) == PROCESSES * (APPENDS_PER_PROCESS // 10)
    assert all(chain.ok for chain in chains), [str(c) for c in chains if not c.ok]
