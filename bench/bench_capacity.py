"""Engine capacity: live tables one process holds, reopening them after a restart, and
replay + verify over a large log, each beside a reference measured in the same run.

    .venv/bin/python bench/bench_capacity.py [--tables 10000] [--log-events 1000000]

Uses TAVOLO_DATABASE_URL when set, else starts embedded PostgreSQL (durable defaults).

- **live tables**: ``--tables`` Pika tables of one person and three bots are opened in
  one engine process (the bots move until it is the person's turn; no turn limit, so the
  table then rests, as a table whose player is thinking does). Memory per table is the
  Python heap the process holds for them (tracemalloc), and its resident set growth.
- **restart**: a second engine on the same database (an empty cache, as after a restart)
  loads every table again from the log; reference: reading the same events bare.
- **replay + verify**: the log is filled to ``--log-events`` events (real tables as above,
  then rows of other streams copied in bulk), and what ``tavolo audit verify`` does is
  timed: fetch the table's log and the whole log's index over gRPC, replay the table,
  check every position. References: reading the index straight from PostgreSQL, and
  fetching it as one message per entry (the format before columns).
"""

from __future__ import annotations

import argparse
import asyncio
import gc
import os
import time
import tracemalloc
import uuid

import asyncpg
import grpc

from tavolo.cli.audit.checks import check_table
from tavolo.cli.audit.command import INDEX_CHANNEL_OPTIONS, fetch_index, fetch_with_facts
from tavolo.engine.bootstrap import Engine, assemble, build_engine
from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.servicekit.embedded import run_on_servers, scratch_database
from tavolo.servicekit.runtime import start_service
from tavolo.servicekit.settings import DEV_TOKEN_SECRET, Settings
from tavolo.tablelog.replay import audit_table
from tavolo.tablelog.setup import SeatInfo, build_setup
from tavolo.v1 import engine_pb2_grpc

SCHEMA = "engine"


def resident_bytes() -> int:
    with open("/proc/self/statm") as statm:
        return int(statm.read().split()[1]) * os.sysconf("SC_PAGE_SIZE")


async def open_tables(engine: Engine, count: int, prefix: str, *, people: int = 1) -> list[str]:
    """Open ``count`` tables (``people`` persons, bots in the other seats), 32 at a time."""
    ids = [f"{prefix}{n}" for n in range(count)]
    slots = asyncio.Semaphore(32)

    async def one(table_id: str) -> None:
        setup = build_setup(
            table_id=table_id,
            game="pika",
            options={},
            seats=[
                SeatInfo(s, f"{table_id}-{s}", bot=s >= people, bot_level="easy") for s in range(4)
            ],
            mode="versus_computer",
            turn_seconds=0,
            bot_think_millis=0,
        )
        async with slots:
            await engine.app.open_setup(setup)

    await asyncio.gather(*(one(t) for t in ids))
    return ids


async def bots_settled(engine: Engine) -> None:
    """Fire bot moves until none is due: every table waits for its person."""
    while True:
        fired = await engine.timers.fire_due()
        if not fired and await engine.store.next_due() is None:
            return


async def live_tables(url: str, tables: int) -> tuple[list[str], list[str]]:
    """The ids of the live tables opened, and of bot tables played to the end before."""
    pool = await asyncpg.create_pool(url, min_size=4, max_size=16)
    try:
        engine = await build_engine(pool, schema=SCHEMA)
        engine.repo.cache.capacity = max(engine.repo.cache.capacity, tables + 300)
        finished = await open_tables(engine, 200, "bots-", people=0)
        await bots_settled(engine)
        # The Python heap per table from the first tables (tracemalloc slows everything
        # down), the resident set growth over all of them.
        sample = min(tables, 1000)
        gc.collect()
        rss_before = resident_bytes()
        started = time.perf_counter()
        tracemalloc.start()
        heap_before = tracemalloc.get_traced_memory()[0]
        ids = await open_tables(engine, sample, "t")
        await bots_settled(engine)
        gc.collect()
        heap_after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        ids += await open_tables(engine, tables - sample, "u")
        await bots_settled(engine)
        opened = time.perf_counter() - started
        gc.collect()
        rss_after = resident_bytes()
        print(
            f"{f'open {tables} tables, bots moved':<46} {tables / opened:9.0f} tables/s"
            f"   ({opened:.1f} s, the first {sample} with tracemalloc on)"
        )
        print(
            f"{'memory per live table (Python heap)':<46} "
            f"{(heap_after - heap_before) / sample / 1024:9.1f} KiB"
            f"   (resident set growth over all: {(rss_after - rss_before) / tables / 1024:.1f}"
            " KiB)"
        )
        return ids, finished
    finally:
        await pool.close()


async def restart(url: str, ids: list[str]) -> None:
    pool = await asyncpg.create_pool(url, min_size=4, max_size=16)
    try:
        engine = await build_engine(pool, schema=SCHEMA)
        engine.repo.cache.capacity = max(engine.repo.cache.capacity, len(ids) + 1)
        slots = asyncio.Semaphore(16)

        async def bare(table_id: str) -> int:
            async with slots:
                return len(await engine.store.read_events(table_id))

        started = time.perf_counter()
        events = sum(await asyncio.gather(*(bare(t) for t in ids)))
        bare_seconds = time.perf_counter() - started

        async def load(table_id: str) -> None:
            async with slots:
                await engine.repo.live(table_id)

        started = time.perf_counter()
        await asyncio.gather(*(load(t) for t in ids))
        seconds = time.perf_counter() - started
        assert len(engine.repo.cache) == len(ids)
        print(
            f"{f'restart: reopen all {len(ids)} tables':<46} {len(ids) / seconds:9.0f} tables/s"
            f"   ({seconds:.1f} s, {events} events)"
        )
        print(
            f"{'reference: read their events bare':<46} {len(ids) / bare_seconds:9.0f} tables/s"
            f"   ({bare_seconds:.1f} s)"
        )
    finally:
        await pool.close()


async def fill_log(url: str, target: int) -> int:
    """Copy rows of filler streams in until the log holds ``target`` events."""
    conn = await asyncpg.connect(url)
    try:
        head = int(await conn.fetchval(f"SELECT {SCHEMA}.sequence_events(100000)"))
        sample = await conn.fetchrow(
            f"SELECT type, data::text, metadata::text, recorded_at FROM {SCHEMA}.events LIMIT 1"
        )
        stream = 0
        while head < target:
            rows = []
            for n in range(min(100_000, target - head)):
                version = n % 100 + 1
                if version == 1:
                    stream += 1
                rows.append(
                    (
                        head + n + 1,
                        f"filler-{stream}",
                        version,
                        uuid.uuid4(),
                        sample["type"],
                        sample["data"],
                        sample["metadata"],
                        sample["recorded_at"],
                        bytes(32),
                        os.urandom(32),
                    )
                )
            async with conn.transaction():
                await conn.copy_records_to_table(
                    "events",
                    schema_name=SCHEMA,
                    records=rows,
                    columns=[
                        "position",
                        "stream_id",
                        "version",
                        "event_id",
                        "type",
                        "data",
                        "metadata",
                        "recorded_at",
                        "prev_hash",
                        "hash",
                    ],
                )
                await conn.copy_records_to_table(
                    "event_positions",
                    schema_name=SCHEMA,
                    records=[(r[0], r[1], r[2]) for r in rows],
                    columns=["position", "stream_id", "version"],
                )
                head += len(rows)
                await conn.execute(f"UPDATE {SCHEMA}.event_log_head SET position = $1", head)
        await conn.execute(f"VACUUM ANALYZE {SCHEMA}.events")
        await conn.execute(f"VACUUM ANALYZE {SCHEMA}.event_positions")
        return head
    finally:
        await conn.close()


async def verify(url: str, nats_url: str, table_id: str, log_events: int) -> None:
    head = await fill_log(url, log_events)
    conn = await asyncpg.connect(url)
    try:
        started = time.perf_counter()
        rows = await conn.fetch(
            f"SELECT p.position, p.stream_id, p.version, e.hash FROM {SCHEMA}.event_positions p"
            f" JOIN {SCHEMA}.events e USING (stream_id, version) ORDER BY p.position"
        )
        bare = time.perf_counter() - started
        assert len(rows) == head
        del rows
        # What GetLogIndex reads now: a deleted event's place kept (LEFT JOIN, zero hash).
        started = time.perf_counter()
        rows = await conn.fetch(
            f"SELECT p.position, p.stream_id, p.version,"
            f" coalesce(e.hash, decode(repeat('00', 32), 'hex'))"
            f" FROM {SCHEMA}.event_positions p"
            f" LEFT JOIN {SCHEMA}.events e USING (stream_id, version) ORDER BY p.position"
        )
        kept = time.perf_counter() - started
        assert len(rows) == head
        del rows
    finally:
        await conn.close()
    settings = Settings(
        database_url=url,
        nats_url=nats_url,
        namespace=f"capacity{uuid.uuid4().hex[:6]}",
        development=True,
    )
    service = await start_service("engine", assemble, settings, port=0)
    try:
        token, _ = TokenSigner(DEV_TOKEN_SECRET).issue("auditor", (Role.AUDITOR,), ttl_seconds=3600)
        started = time.perf_counter()
        events, facts = await fetch_with_facts(f"127.0.0.1:{service.port}", token, table_id)
        fetched = time.perf_counter() - started
        verdict = check_table(table_id, events, facts)
        seconds = time.perf_counter() - started
        started = time.perf_counter()
        async with grpc.aio.insecure_channel(
            f"127.0.0.1:{service.port}", options=INDEX_CHANNEL_OPTIONS
        ) as channel:
            metadata = (("authorization", f"Bearer {token}"),)
            stub = engine_pb2_grpc.EngineStub(channel)
            per_entry, _ = await fetch_index(stub, metadata, columnar=False)
        entries = time.perf_counter() - started
        assert per_entry == facts.index
    finally:
        await service.stop(grace=1)
    assert verdict.ok, verdict.lines()
    print(
        f"{f'audit verify, log of {head} events':<46} {head / seconds:9.0f} events/s"
        f"   ({seconds:.1f} s: {fetched:.1f} s fetching the index, the rest checking)"
    )
    print(f"{'reference: the index read bare from PostgreSQL':<46} {head / bare:9.0f} events/s")
    print(
        f"{'the same, keeping the places of deleted events':<46} {head / kept:9.0f} events/s"
        "   (LEFT JOIN, as GetLogIndex reads it)"
    )
    print(
        f"{'reference: the index fetched one entry a message':<46} {head / entries:9.0f} events/s"
        f"   (columns: {entries / fetched:.1f}x faster)"
    )


async def replay_rate(url: str, ids: list[str]) -> None:
    pool = await asyncpg.create_pool(url, min_size=2, max_size=4)
    try:
        engine = await build_engine(pool, schema=SCHEMA)
        logs = [await engine.store.read_events(t) for t in ids]
    finally:
        await pool.close()
    events = sum(len(log) for log in logs)
    started = time.perf_counter()
    for log in logs:
        audit_table(log)
    seconds = time.perf_counter() - started
    print(
        f"{f'replay + chain check of {len(logs)} tables':<46} {events / seconds:9.0f} events/s"
        f"   ({events} events)"
    )


async def run(server_url: str, nats_url: str, args: argparse.Namespace) -> None:
    async with scratch_database(server_url, "bench_capacity") as url:
        ids, finished = await live_tables(url, args.tables)
        await restart(url, ids)
        await replay_rate(url, finished)
        await verify(url, nats_url, finished[0], args.log_events)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--tables", type=int, default=10_000)
    parser.add_argument("--log-events", type=int, default=1_000_000)
    args = parser.parse_args()
    run_on_servers(lambda database_url, nats_url: run(database_url, nats_url, args), show_load=True)


if __name__ == "__main__":
    main()
