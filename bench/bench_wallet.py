"""Wallet figures, each beside a reference measured in the same run.

    .venv/bin/python bench/bench_wallet.py [--transfers 2000] [--clients 16] [--tables 300]

Uses TAVOLO_DATABASE_URL / TAVOLO_NATS_URL when set, else starts embedded PostgreSQL and
NATS (with PostgreSQL's durable defaults: fsync on, as `tavolo up` runs it).

1. Transfers per second, each its own transaction through the ledger (lock both accounts
   in order, check, insert; the database derives the balances): one client, then
   ``--clients`` concurrent clients on uncontended accounts (each client moves coins
   between its own two players) and on a contended one (every transfer is a grant from
   the issuance account, the row every reward touches). Reference: plain one-row
   INSERTs into an unindexed table, one transaction each, at the same concurrency.
2. Time from ``TableFinished`` published on NATS to the pot payout committed (p50/p99),
   over ``--tables`` formed stake tables finished one every 20 ms, with the wallet
   service running in this process. Reference: publish to delivery to a bare JetStream
   pull consumer that does nothing, the transport's own floor.
"""

from __future__ import annotations

import argparse
import asyncio
import itertools
import os
import resource
import statistics
import sys
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable
from datetime import UTC, datetime
from pathlib import Path

import asyncpg
import nats
from nats.js.api import AckPolicy, ConsumerConfig

sys.path.insert(0, str(Path(__file__).resolve().parent.parent))  # the tests' event builders

from tavolo.messaging import Topology, install_processed_messages
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.embedded import scratch_database, servers_from_env
from tavolo.servicekit.logging import configure_logging
from tavolo.servicekit.runtime import start_service
from tavolo.servicekit.settings import Settings
from tavolo.wallet import ledger, store
from tavolo.wallet.app import WalletApp
from tavolo.wallet.bootstrap import make_assemble
from tavolo.wallet.config import WalletConfig
from tavolo.wallet.transfers import TransferKind, TransferSpec
from tests.integration.wallet import wire
from tests.integration.wallet.registered import register

OPERATOR = Principal("bench-operator", frozenset({Role.OPERATOR}))
LOBBY = Principal("bench-lobby", frozenset({Role.SERVICE}))


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


async def rate(
    clients: int, per_client: int, one: Callable[[int, int], Awaitable[None]]
) -> tuple[float, list[float]]:
    """Operations per second with ``clients`` concurrent loops, and each one's latency (ms)."""
    latencies: list[float] = []

    async def client(c: int) -> None:
        for i in range(per_client):
            started = time.perf_counter()
            await one(c, i)
            latencies.append((time.perf_counter() - started) * 1000)

    started = time.perf_counter()
    await asyncio.gather(*(client(c) for c in range(clients)))
    return clients * per_client / (time.perf_counter() - started), latencies


def line(label: str, ops: float, latencies: list[float], reference: float | None = None) -> str:
    ratio = f"   {ops / reference:5.2f} of the reference" if reference else ""
    return (
        f"  {label:<44} {ops:8.0f}/s   p50 {pct(latencies, 0.5):6.2f} ms"
        f"  p99 {pct(latencies, 0.99):6.2f} ms{ratio}"
    )


async def bench_transfers(pool: asyncpg.Pool, transfers: int, clients: int) -> None:
    wallet = WalletApp(pool, WalletConfig(max_grant=10**9))
    await register(pool, *(f"a{c}" for c in range(clients)))
    for c in range(clients):
        await wallet.grant(OPERATOR, f"seed-{c}", f"a{c}", 10**8, "bench")
    async with pool.acquire() as conn:
        await conn.execute(
            "CREATE TABLE IF NOT EXISTS bench_plain"
            " (id text, debit text, credit text, amount bigint)"
        )
    run = uuid.uuid4().hex[:6]
    serial = itertools.count()

    async def plain(c: int, i: int) -> None:
        async with pool.acquire() as conn:
            await conn.execute(
                "INSERT INTO bench_plain VALUES ($1, $2, $3, $4)", f"{run}-{c}-{i}", "a", "b", 1
            )

    async def move(c: int, i: int) -> None:
        # Back and forth between the client's own two players: no other client's rows.
        there = i % 2 == 0
        spec = TransferSpec(
            transfer_id=f"m{run}-{next(serial)}",
            kind=TransferKind.POSTED,
            debit_account=f"player:{'a' if there else 'b'}{c}",
            credit_account=f"player:{'b' if there else 'a'}{c}",
            amount=1,
            cause="bench",
        )

        async def work(conn: object) -> None:
            await ledger.record(conn, spec)

        await store.in_transaction(pool, work)

    async def grant(c: int, i: int) -> None:
        await wallet.grant(OPERATOR, f"g{run}-{next(serial)}", f"a{c}", 1, "bench")

    for warm_up in (plain, move, grant):  # connections, plans and caches, not measured
        await rate(clients, 20, warm_up)
    print(f"\n1. transfers per second ({transfers} per row, each its own transaction)")
    for label, concurrency in (("1 client", 1), (f"{clients} clients", clients)):
        per = max(1, transfers // concurrency)
        plain_ops, plain_lat = await rate(concurrency, per, plain)
        print(line(f"reference: plain INSERT, {label}", plain_ops, plain_lat))
        ops, lat = await rate(concurrency, per, move)
        print(line(f"ledger transfer, {label}, uncontended", ops, lat, plain_ops))
        ops, lat = await rate(concurrency, per, grant)
        print(line(f"ledger grant, {label}, contended (issuance)", ops, lat, plain_ops))


async def bench_settlement(url: str, nats_url: str, tables: int) -> None:
    namespace = f"bench{uuid.uuid4().hex[:8]}"
    settings = Settings(database_url=url, nats_url=nats_url, namespace=namespace, development=True)
    service = await start_service("wallet", make_assemble(WalletConfig()), settings, port=0)
    nc = await nats.connect(nats_url)
    pool = await asyncpg.create_pool(url, min_size=1, max_size=4)
    try:
        js = nc.jetstream()
        topology = Topology(namespace)
        wallet = WalletApp(pool, WalletConfig(max_grant=10**9))
        players = ["ann", "bob", "cy", "dee"]
        await register(pool, *players)
        for p in players:
            await wallet.grant(OPERATOR, f"pot-seed-{p}-{namespace}", p, 10**8, "bench")
        formed_ids = []
        for t in range(tables):
            holds = {}
            for seat, p in enumerate(players):
                hold_id = f"{namespace}-{t}-{seat}"
                await wallet.hold_stake(LOBBY, hold_id, p, 250, "", 0)
                holds[seat] = hold_id
            event = wire.match_formed(f"{namespace}-t{t}", players, 250, holds)
            await wire.publish(js, topology, event)
            formed_ids.append(event.header.event_id)
        await wait_handled(pool, formed_ids)

        published: dict[str, float] = {}
        for t in range(tables):
            table = f"{namespace}-t{t}"
            places = [1 + (t + s) % 4 for s in range(4)]
            event = wire.table_finished(table, players, places, stake=250)
            published[table] = datetime.now(UTC).timestamp()
            await wire.publish(js, topology, event)
            await asyncio.sleep(0.02)
        await wait_paid(pool, list(published))
        async with pool.acquire() as conn:
            rows = await conn.fetch(
                "SELECT split_part(transfer_id, ':', 2) AS table_id, max(created_at) AS at"
                " FROM wallet.transfers WHERE transfer_id LIKE 'payout:%' GROUP BY 1"
            )
        latencies = [(r["at"].timestamp() - published[r["table_id"]]) * 1000 for r in rows]

        reference = await transport_floor(js, topology, tables)
        print(f"\n2. TableFinished on NATS to pot payout committed ({tables} tables, 50/s)")
        print(
            f"  {'reference: publish to a bare pull consumer':<44}"
            f"  p50 {pct(reference, 0.5):6.2f} ms  p99 {pct(reference, 0.99):6.2f} ms"
        )
        print(
            f"  {'TableFinished to payout committed':<44}"
            f"  p50 {pct(latencies, 0.5):6.2f} ms  p99 {pct(latencies, 0.99):6.2f} ms"
            f"   mean {statistics.fmean(latencies):6.2f} ms"
        )
    finally:
        await pool.close()
        await nc.close()
        await service.stop(0)


async def wait_handled(pool: asyncpg.Pool, ids: list[str]) -> None:
    async with asyncio.timeout(300):
        while True:
            async with pool.acquire() as conn:
                done = await conn.fetchval(
                    "SELECT count(*) FROM wallet.processed_messages"
                    " WHERE message_id = ANY($1::text[])",
                    ids,
                )
            if done == len(ids):
                return
            await asyncio.sleep(0.1)


async def wait_paid(pool: asyncpg.Pool, tables: list[str]) -> None:
    async with asyncio.timeout(300):
        while True:
            async with pool.acquire() as conn:
                done = await conn.fetchval(
                    "SELECT count(*) FROM wallet.table_settlements WHERE table_id = ANY($1)",
                    tables,
                )
            if done == len(tables):
                return
            await asyncio.sleep(0.1)


async def transport_floor(js: object, topology: Topology, count: int) -> list[float]:
    """Publish to delivery, one at a time, to a pull consumer that only acks."""
    subject = topology.subject_for("BenchProbe")
    durable = "bench_probe"
    await js.add_consumer(  # type: ignore[attr-defined]
        topology.events_stream,
        config=ConsumerConfig(
            durable_name=durable, ack_policy=AckPolicy.EXPLICIT, filter_subject=subject
        ),
    )
    sub = await js.pull_subscribe_bind(durable=durable, stream=topology.events_stream)  # type: ignore[attr-defined]
    latencies = []
    for i in range(count):
        started = time.perf_counter()
        await js.publish(subject, b"x", headers={"Nats-Msg-Id": f"probe-{i}"})  # type: ignore[attr-defined]
        (msg,) = await sub.fetch(1, timeout=5)
        await msg.ack()
        latencies.append((time.perf_counter() - started) * 1000)
    return latencies


async def main(transfers: int, clients: int, tables: int) -> None:
    configure_logging("console", "warning")
    with tempfile.TemporaryDirectory(prefix="tavolo-bench-") as scratch:
        server_url, nats_url, stop = servers_from_env(Path(scratch))
        try:
            async with scratch_database(server_url, "bench_wallet") as url:
                pool = await asyncpg.create_pool(url, min_size=4, max_size=clients + 4)
                try:
                    await store.migrate(pool)
                    async with pool.acquire() as conn:
                        await install_processed_messages(conn, store.SCHEMA)
                        fsync = await conn.fetchval("SHOW fsync")
                        version = await conn.fetchval("SHOW server_version")
                    print(
                        f"PostgreSQL {version} (fsync={fsync}); wallet, clients and servers"
                        f" on one machine ({os.cpu_count()} CPUs)"
                    )
                    await bench_transfers(pool, transfers, clients)
                finally:
                    await pool.close()
                await bench_settlement(url, nats_url, tables)
        finally:
            stop()
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"\npeak memory (max RSS of this process): {peak_kib / 1024:.1f} MiB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=(__doc__ or "").splitlines()[0])
    parser.add_argument("--transfers", type=int, default=2000, help="transfers per measurement")
    parser.add_argument("--clients", type=int, default=16, help="concurrent clients")
    parser.add_argument("--tables", type=int, default=300, help="stake tables to settle")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.transfers, arguments.clients, arguments.tables))
