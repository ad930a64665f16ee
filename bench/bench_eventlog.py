"""Event log and outbox figures, each beside a plain reference measured in the same run.

    .venv/bin/python bench/bench_eventlog.py [--appends 4000] [--publishes 4000]

Uses TAVOLO_DATABASE_URL / TAVOLO_NATS_URL when set, else starts embedded PostgreSQL and
NATS (with PostgreSQL's durable defaults: fsync on, as `tavolo up` runs it).

What the references are: a plain asyncpg INSERT of the same rows into a table with the
same columns and primary key (no version check, no hash, no global position), through
the same pool as the services make it (no reset query on release), and a plain
``js.publish`` of the same payloads awaiting each ack. The ratio is what the event log's
guarantees cost.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import resource
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import nats

from tavolo.eventlog import NewEvent, PostgresEventStore, RecordedEvent
from tavolo.eventlog.relay import Encoded, OutboxRelay
from tavolo.messaging import MSG_ID_HEADER, Topology, ensure_streams
from tavolo.servicekit.connect import create_pool
from tavolo.servicekit.embedded import scratch_database, servers_from_env

SCHEMA = "bench"
PLAIN_TABLE = f"""
CREATE TABLE {SCHEMA}.plain_events (
    position bigserial, stream_id text NOT NULL, version integer NOT NULL,
    event_id uuid NOT NULL UNIQUE, type text NOT NULL, data json NOT NULL,
    metadata json NOT NULL, recorded_at timestamptz NOT NULL, prev_hash bytea NOT NULL,
    hash bytea NOT NULL, PRIMARY KEY (stream_id, version)
)
"""
PLAIN_INSERT = f"""
INSERT INTO {SCHEMA}.plain_events
    (stream_id, version, event_id, type, data, metadata, recorded_at, prev_hash, hash)
SELECT * FROM unnest($1::text[], $2::int[], $3::uuid[], $4::text[], $5::json[], $6::json[],
                     $7::timestamptz[], $8::bytea[], $9::bytea[])
"""


@dataclass
class Run:
    """One measured scenario: calls, events written, wall time and per-call latencies."""

    calls: int
    events: int
    seconds: float
    latencies: list[float]

    @property
    def rate(self) -> float:
        return self.events / self.seconds

    def pct(self, q: float) -> float:
        ordered = sorted(self.latencies)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


APPEND_ROUNDS = 9
"""Alternating rounds per append scenario. The disk's flushes stall now and then for a
whole round (one round of 16 writers ran at 0.14x its neighbours), and with three rounds
two stalls on one side moved the median: 16 writers measured 0.55-1.03x plain INSERT in
four runs of the same code, where twelve rounds gave a median of 1.05x."""


def event(stream: int, n: int) -> NewEvent:
    return NewEvent(
        "CardPlayed",
        {"table": stream, "seat": n % 4, "card": {"suit": "H", "rank": n % 13 + 1}, "n": n},
        event_id=uuid.uuid4(),
        metadata={"actor": f"player-{n % 4}"},
    )


async def timed(
    writers: int, calls_each: int, batch: int, call: Callable[[int, int], Awaitable[None]]
) -> Run:
    """Run ``writers`` coroutines, each making ``calls_each`` calls of ``batch`` events."""
    latencies: list[float] = []

    async def writer(w: int) -> None:
        for i in range(calls_each):
            started = time.perf_counter()
            await call(w, i)
            latencies.append(time.perf_counter() - started)

    started = time.perf_counter()
    await asyncio.gather(*(writer(w) for w in range(writers)))
    seconds = time.perf_counter() - started
    return Run(writers * calls_each, writers * calls_each * batch, seconds, latencies)


async def bench_appends(
    pool: asyncpg.Pool,
    store: PostgresEventStore,
    writers: int,
    total: int,
    batch: int,
    tag: str,
    rounds: int = APPEND_ROUNDS,
) -> tuple[Run, Run]:
    """Appends and the plain INSERTs of the same rows in alternating rounds; the median
    round of each counts (latencies over all rounds). One round each compared the
    machine's drift within the minute as much as the code: the log's run came first."""
    calls_each = max(1, total // writers // batch // rounds)
    log_runs: list[Run] = []
    plain_runs: list[Run] = []
    for round_ in range(rounds):
        recorded: dict[tuple[int, int], list[RecordedEvent]] = {}
        # The caller's events are made before the clock starts, as the plain side's rows
        # are: what is timed is the append alone.
        made = {
            (w, i): [event(w, i * batch + k) for k in range(batch)]
            for w in range(writers)
            for i in range(calls_each)
        }

        async def append(
            w: int, i: int, round_: int = round_, recorded: Any = recorded, made: Any = made
        ) -> None:
            stream = f"{tag}{round_}-{w}"
            recorded[(w, i)] = await store.append_events(stream, i * batch, made[(w, i)])

        async def plain(w: int, i: int, recorded: Any = recorded) -> None:
            rows = recorded[(w, i)]
            async with pool.acquire() as conn:
                await conn.execute(
                    PLAIN_INSERT,
                    [r.stream_id for r in rows],
                    [r.version for r in rows],
                    [r.event_id for r in rows],
                    [r.type for r in rows],
                    [json.dumps(r.data) for r in rows],
                    [json.dumps(r.metadata) for r in rows],
                    [r.recorded_at for r in rows],
                    [r.prev_hash for r in rows],
                    [r.hash for r in rows],
                )

        log_runs.append(await timed(writers, calls_each, batch, append))
        plain_runs.append(await timed(writers, calls_each, batch, plain))
    return pooled(log_runs), pooled(plain_runs)


def pooled(runs: list[Run]) -> Run:
    """The median round's rate, with the latencies of every round."""
    median = median_run(runs)
    latencies = [latency for run in runs for latency in run.latencies]
    return Run(median.calls, median.events, median.seconds, latencies)


def encoder(topology: Topology) -> Callable[[RecordedEvent], Encoded | None]:
    def encode(e: RecordedEvent) -> Encoded:
        return topology.subject_for(e.type), json.dumps(e.data).encode(), {}

    return encode


async def bench_outbox(
    store: PostgresEventStore, nc: Any, namespace: str, total: int, rounds: int = 3
) -> tuple[Run, Run]:
    """Relay and plain publishing in alternating rounds; the median round of each counts.

    Publishing rates swing with whatever else the machine runs, so one round each
    would compare luck as much as code.
    """
    js = nc.jetstream()
    # The log holds the appends made above (and the warm-up): the relay publishes the last
    # ``total`` of them, starting from a checkpoint set just before.
    first = max(0, await store.head_position() - total)
    events = await store.read_all(first, total)
    relay_runs: list[Run] = []
    plain_runs: list[Run] = []
    for round_ in range(rounds):
        relay_topology = Topology(f"{namespace}r{round_}")
        plain_topology = Topology(f"{namespace}p{round_}")
        await ensure_streams(js, relay_topology)
        await ensure_streams(js, plain_topology)
        name = f"bench{round_}"
        async with store.pool.acquire() as conn:
            await conn.execute(
                f"INSERT INTO {SCHEMA}.relay_checkpoints (relay, position) VALUES ($1, $2)",
                name,
                first,
            )
        relay = OutboxRelay(store, js, encoder(relay_topology), name=name, batch_size=500)
        started = time.perf_counter()
        published = await relay.publish_pending()
        relay_runs.append(Run(1, published, time.perf_counter() - started, []))

        encode = encoder(plain_topology)
        started = time.perf_counter()
        for e in events:
            subject, payload, _ = encode(e)
            await js.publish(subject, payload, headers={MSG_ID_HEADER: str(e.event_id)})
        plain_runs.append(Run(1, len(events), time.perf_counter() - started, []))
        for topology in (relay_topology, plain_topology):
            await js.delete_stream(topology.events_stream)
    return median_run(relay_runs), median_run(plain_runs)


def median_run(runs: list[Run]) -> Run:
    return sorted(runs, key=lambda run: run.rate)[len(runs) // 2]


async def warm_up(pool: asyncpg.Pool, store: PostgresEventStore, nc: Any) -> None:
    """Untimed: fill connection caches and JetStream's first allocations for both sides."""
    await bench_appends(pool, store, 4, 200, 1, "warm")
    topology = Topology("benchwarm")
    js = nc.jetstream()
    await ensure_streams(js, topology)
    for n in range(300):
        await js.publish(topology.match_formed, b"{}", headers={MSG_ID_HEADER: str(n)})
    await js.delete_stream(topology.events_stream)


def line(label: str, log: Run, plain: Run, unit: str = "events/s") -> None:
    ratio = log.rate / plain.rate
    lat = ""
    if log.latencies:
        lat = (
            f"  p50 {log.pct(0.5):6.2f} ms (plain {plain.pct(0.5):5.2f})"
            f"  p99 {log.pct(0.99):6.2f} ms (plain {plain.pct(0.99):5.2f})"
        )
    print(f"{label:<28}{log.rate:9.0f} {unit} vs plain {plain.rate:9.0f}  ratio {ratio:4.2f}{lat}")


async def main(appends: int, publishes: int) -> None:
    print(f"load average at start: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")
    with tempfile.TemporaryDirectory(prefix="tavolo-bench-") as scratch:
        pg_url, nats_url, stop = servers_from_env(Path(scratch))
        try:
            await run_all(pg_url, nats_url, appends, publishes)
        finally:
            stop()
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"peak memory (max RSS of this process): {peak_kib / 1024:.1f} MiB")
    print(f"load average at end: {' '.join(f'{x:.1f}' for x in os.getloadavg())}")


async def run_all(server_url: str, nats_url: str, appends: int, publishes: int) -> None:
    async with scratch_database(server_url, "bench_eventlog") as url:
        await run_on(url, nats_url, appends, publishes)


async def run_on(url: str, nats_url: str, appends: int, publishes: int) -> None:
    pool = await create_pool(url, min_size=17, max_size=17)  # the services' pool
    nc = await nats.connect(nats_url)
    try:
        store = PostgresEventStore(pool, SCHEMA)
        await store.install()
        async with pool.acquire() as conn:
            await conn.execute(PLAIN_TABLE)
            fsync = await conn.fetchval("SHOW fsync")
            version = await conn.fetchval("SHOW server_version")
        print(f"PostgreSQL {version} (fsync={fsync}), NATS {nc.connected_server_version}")
        print(
            f"{appends} events per append scenario, {publishes} for the outbox; each beside"
            f" its reference in {APPEND_ROUNDS} alternating rounds (the outbox in 3), the median"
            " round counting\n"
        )
        await warm_up(pool, store, nc)
        single = await bench_appends(pool, store, 1, appends, 1, "s")
        line("append, 1 writer", *single, unit="appends/s")
        concurrent = await bench_appends(pool, store, 16, appends, 1, "c")
        line("append, 16 writers", *concurrent, unit="appends/s")
        batched = await bench_appends(pool, store, 1, appends, 10, "b")
        line("append, batches of 10", *batched)
        line("outbox relay -> JetStream", *await bench_outbox(store, nc, "bench", publishes))
    finally:
        await nc.close()
        await pool.close()


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--appends", type=int, default=9000, help="events per append scenario")
    parser.add_argument("--publishes", type=int, default=4000, help="events for the outbox")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.appends, arguments.publishes))
