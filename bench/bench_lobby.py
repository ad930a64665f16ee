"""Lobby figures, each beside a reference measured in the same run.

    .venv/bin/python bench/bench_lobby.py [--tickets 10000] [--joins 2000] [--clients 16]

Uses TAVOLO_DATABASE_URL / TAVOLO_NATS_URL when set, else starts embedded PostgreSQL and
NATS (with PostgreSQL's durable defaults: fsync on, as `tavolo up` runs it).

1. Forming tables from ``--tickets`` queued tickets (4-seat online Pika, one pool, plus
   the same number spread over six pools of 2, 3 and 4 seats with and without stakes):
   the matchmaker's rounds until nobody waits, with every table, seat, ticket, busy claim
   and MatchFormed event written as in production. References: the same rounds with the
   in-memory event log (what the PostgreSQL log costs), and the pure decision
   (``plan_pool`` over the same tickets, no I/O).
2. Tickets accepted per second: ``JoinQueue`` over real gRPC from ``--clients``
   concurrent callers (each a different player), the lobby running in this process.
   Reference: ``GetProfile`` (an authenticated one-row read) at the same concurrency,
   which is the floor of the gRPC stack, the interceptor and one query.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import resource
import statistics
import tempfile
import time
import uuid
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta
from pathlib import Path

import asyncpg
import grpc

from tavolo.eventlog import InMemoryEventStore, PostgresEventStore
from tavolo.lobby.accounts.passwords import fast_passwords
from tavolo.lobby.bootstrap import Assembled, LobbyOverrides, make_assemble
from tavolo.lobby.context import LobbyConfig, LobbyContext
from tavolo.lobby.play.matchmaker import Matchmaker
from tavolo.lobby.play.matchmaking import plan_pool
from tavolo.lobby.play.policy import MatchPolicy, WaitingTicket
from tavolo.lobby.play.tables import Mode, Seat, TableSpec, table_spec
from tavolo.lobby.store import SCHEMA, Database
from tavolo.lobby.updates import Update
from tavolo.servicekit.auth import TokenSigner
from tavolo.servicekit.embedded import scratch_database, servers_from_env
from tavolo.servicekit.logging import configure_logging
from tavolo.servicekit.runtime import start_service
from tavolo.servicekit.settings import DEV_TOKEN_SECRET, Settings
from tavolo.v1 import lobby_pb2, lobby_pb2_grpc

NOW = datetime(2026, 6, 1, 20, 0, tzinfo=UTC)
POOLS = [(2, 0), (3, 0), (4, 0), (2, 100), (4, 250), (4, 1000)]


class NullWallet:
    async def hold_stake(self, hold_id: str, player_id: str, amount: int, cause: str) -> None:
        return None

    async def release_hold(self, hold_id: str) -> None:
        return None


class NullEngine:
    async def open_table(
        self,
        table_id: str,
        spec: TableSpec,
        seats: list[Seat],
        mode: Mode,
        *,
        ko: bool = False,
        engine_options: Mapping[str, int] | None = None,
    ) -> None:
        return None


async def no_notice(player_id: str, update: Update) -> None:
    return None


@dataclass
class Formed:
    seconds: float
    tables: int
    tickets: int
    rounds: int


async def queue_tickets(
    pool: asyncpg.Pool, count: int, mixed: bool, tag: str, rated: bool = False
) -> None:
    """Insert players, tickets and busy claims directly (set-up, not measured). ``rated``:
    ratings drawn from N(25, 3) with sigma 2, every ticket queued in the last 15 s (inside
    the rated window's deadline)."""
    players = [f"{tag}-p{i}" for i in range(count)]
    draw = random.Random(count)
    ratings = [(draw.gauss(25, 3), 2.0) if rated else (None, None) for _ in range(count)]
    specs = [POOLS[i % len(POOLS)] if mixed else (4, 0) for i in range(count)]
    async with pool.acquire() as conn:
        rows = []
        for i, (pid, (seats, stake)) in enumerate(zip(players, specs, strict=True)):
            spec = table_spec("pika", seats, {})
            rows.append(
                (
                    f"{tag}-t{i}",
                    pid,
                    f"N{tag}{i}",
                    spec.game,
                    seats,
                    stake,
                    spec.options_json,
                    spec.pool(stake),
                    NOW - timedelta(seconds=15 * (count - i) / count if rated else count - i),
                    f"{tag}-t{i}" if stake else None,
                    *ratings[i],
                )
            )
        await conn.executemany(
            f'INSERT INTO "{SCHEMA}".tickets (ticket_id, player_id, nickname, game, players,'
            " stake, options, pool, state, queued_at, hold_id, rating_mu, rating_sigma)"
            " VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, 'waiting', $9, $10, $11, $12)",
            rows,
        )
        await conn.executemany(
            f'INSERT INTO "{SCHEMA}".busy_players (player_id, ticket_id, since)'
            " VALUES ($1, $2, $3)",
            [(r[1], r[0], NOW) for r in rows],
        )


def context(pool: asyncpg.Pool, events: object, policy: MatchPolicy | None = None) -> LobbyContext:
    return LobbyContext(
        db=Database(pool),
        events=events,  # type: ignore[arg-type]
        wallet=NullWallet(),
        engine=NullEngine(),
        notify=no_notice,
        signer=TokenSigner(DEV_TOKEN_SECRET),
        passwords=fast_passwords(),
        config=LobbyConfig(policy=policy or MatchPolicy(), matchmaker_batch=2000),
        clock=lambda: NOW,
        new_id=lambda: str(uuid.uuid4()),
    )


async def form_all(ctx: LobbyContext) -> Formed:
    matchmaker = Matchmaker(ctx)
    tables = tickets = rounds = 0
    started = time.perf_counter()
    while True:
        result = await matchmaker.run_round()
        rounds += 1
        tables += result.tables_formed
        tickets += result.tickets_seated
        if not result.tables_formed:
            break
    return Formed(time.perf_counter() - started, tables, tickets, rounds)


async def clear(pool: asyncpg.Pool) -> None:
    async with pool.acquire() as conn:
        await conn.execute(
            f'TRUNCATE "{SCHEMA}".tickets, "{SCHEMA}".busy_players,'
            f' "{SCHEMA}".table_seats, "{SCHEMA}".game_tables'
        )


def pure_plan(count: int) -> float:
    tickets = [
        WaitingTicket(f"t{i}", f"p{i}", f"n{i}", NOW - timedelta(seconds=count - i))
        for i in range(count)
    ]
    started = time.perf_counter()
    decisions = plan_pool(tickets, players=4, stake=0, now=NOW, policy=MatchPolicy())
    elapsed = time.perf_counter() - started
    assert len(decisions) == count // 4
    return elapsed


async def bench_forming(pool: asyncpg.Pool, count: int) -> None:
    store = PostgresEventStore(pool, SCHEMA)
    await store.install()
    print(f"\n1. forming tables from {count} queued tickets (median of 3 rounds each)")
    plan = statistics.median(pure_plan(count) for _ in range(3))
    print(f"   pure decision (plan_pool, no I/O)        {plan * 1000:8.1f} ms")
    for mixed in (False, True):
        label = "six pools (2/3/4 seats, stakes)" if mixed else "one pool, 4 seats"
        runs: dict[str, list[Formed]] = {"postgres": [], "memory": []}
        for attempt in range(3):
            for kind in ("memory", "postgres"):
                await clear(pool)
                await queue_tickets(pool, count, mixed, f"{kind}{attempt}{int(mixed)}")
                events = store if kind == "postgres" else InMemoryEventStore()
                runs[kind].append(await form_all(context(pool, events)))
        real = sorted(runs["postgres"], key=lambda f: f.seconds)[1]
        ref = sorted(runs["memory"], key=lambda f: f.seconds)[1]
        print(
            f"   {label:<34}{real.seconds:8.2f} s  {real.tables:5d} tables"
            f"  {real.tickets / real.seconds:8.0f} tickets/s"
            f"  {real.tables / real.seconds:7.0f} tables/s  ({real.rounds} rounds)"
        )
        ratio = real.seconds / ref.seconds
        print(
            f"     reference: in-memory event log      {ref.seconds:8.2f} s"
            f"  {ref.tickets / ref.seconds:8.0f} tickets/s   ratio {ratio:4.2f}"
        )
    await clear(pool)
    await bench_rated_forming(pool, store, count)


async def bench_rated_forming(pool: asyncpg.Pool, store: PostgresEventStore, count: int) -> None:
    """RATE-2: the same tickets (ratings N(25, 3), sigma 2, queued in the last 15 s) seated
    by rating and first come; rated rounds leave some waiting for a wider window."""
    print(f"\n1b. rated forming, one 4-seat pool, {count} tickets with ratings (median of 3)")
    runs: dict[bool, list[Formed]] = {True: [], False: []}
    for attempt in range(3):
        for rated in (False, True):
            await clear(pool)
            await queue_tickets(pool, count, False, f"r{attempt}{int(rated)}", rated=True)
            policy = MatchPolicy(rated=rated)
            runs[rated].append(await form_all(context(pool, store, policy)))
    await clear(pool)
    first = sorted(runs[False], key=lambda f: f.seconds)[1]
    rated_run = sorted(runs[True], key=lambda f: f.seconds)[1]
    for label, run in (("first come (ratings off)", first), ("rated", rated_run)):
        print(
            f"   {label:<34}{run.seconds:8.2f} s  {run.tickets:6d} seated"
            f"  {run.tickets / run.seconds:8.0f} tickets matched/s  ({run.rounds} rounds)"
        )
    speed = (rated_run.tickets / rated_run.seconds) / (first.tickets / first.seconds)
    print(f"   rated / first come tickets matched per second: {speed:4.2f}   goal >= 0.90")


def pct(values: list[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def bench_joins(database_url: str, nats_url: str, joins: int, clients: int) -> None:
    print(f"\n2. tickets accepted: JoinQueue over gRPC, {clients} concurrent callers")
    settings = Settings(
        database_url=database_url,
        nats_url=nats_url,
        namespace=f"b{uuid.uuid4().hex[:10]}",
        development=True,  # the bench signs with the development secret
    )
    overrides = LobbyOverrides(
        config=LobbyConfig(),
        passwords=fast_passwords(),
        wallet=lambda infra: NullWallet(),
        engine=lambda infra: NullEngine(),
        run_matchmaker=False,
    )
    built: list[Assembled] = []
    service = await start_service(
        "lobby", make_assemble(overrides, built=built.append), settings, port=0
    )
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{service.port}")
    stub = lobby_pb2_grpc.LobbyStub(channel)
    try:
        tokens: list[tuple[tuple[str, str]]] = []
        sem = asyncio.Semaphore(clients)

        async def register(i: int) -> None:
            async with sem:
                session = await stub.Register(
                    lobby_pb2.RegisterRequest(nickname=f"bench{i}", password="a long password")
                )
                tokens.append((("authorization", f"Bearer {session.access_token}"),))

        await asyncio.gather(*(register(i) for i in range(joins)))
        # Let the relay publish the PlayerRegistered events first: it would otherwise
        # compete for the CPU with whichever measurement comes first.
        relay = built[0].relay
        head = await relay.store.head_position()
        for _ in range(600):
            if await relay.checkpoint() >= head:
                break
            await asyncio.sleep(0.1)

        async def measure(
            call: Callable[[tuple[tuple[str, str]]], object],
        ) -> tuple[float, list[float]]:
            latencies: list[float] = []
            queue = list(tokens)

            async def worker() -> None:
                while queue:
                    metadata = queue.pop()
                    began = time.perf_counter()
                    await call(metadata)  # type: ignore[misc]
                    latencies.append(time.perf_counter() - began)

            started = time.perf_counter()
            await asyncio.gather(*(worker() for _ in range(clients)))
            return time.perf_counter() - started, latencies

        reads, read_lat = await measure(
            lambda md: stub.GetProfile(lobby_pb2.GetProfileRequest(), metadata=md)
        )
        joined, join_lat = await measure(
            lambda md: stub.JoinQueue(
                lobby_pb2.JoinQueueRequest(game="pika", players=4), metadata=md
            )
        )
        print(
            f"   JoinQueue                 {joins / joined:8.0f} tickets/s"
            f"  p50 {pct(join_lat, 0.5):6.2f} ms  p99 {pct(join_lat, 0.99):6.2f} ms"
        )
        print(
            f"     reference: GetProfile   {joins / reads:8.0f} calls/s"
            f"    p50 {pct(read_lat, 0.5):6.2f} ms  p99 {pct(read_lat, 0.99):6.2f} ms"
            f"   ratio {joined / reads:4.2f}"
        )
    finally:
        await channel.close()
        await service.stop(0)


async def main(tickets: int, joins: int, clients: int) -> None:
    configure_logging("console", "warning")
    with tempfile.TemporaryDirectory(prefix="tavolo-bench-") as scratch:
        server_url, nats_url, stop = servers_from_env(Path(scratch))
        try:
            async with scratch_database(server_url, "bench_lobby") as url:
                pool = await asyncpg.create_pool(url, min_size=4, max_size=20)
                try:
                    await Database(pool).migrate()
                    async with pool.acquire() as conn:
                        fsync = await conn.fetchval("SHOW fsync")
                        version = await conn.fetchval("SHOW server_version")
                    print(
                        f"PostgreSQL {version} (fsync={fsync});"
                        " lobby, client and server in one process"
                    )
                    await bench_forming(pool, tickets)
                finally:
                    await pool.close()
                await bench_joins(url, nats_url, joins, clients)
        finally:
            stop()
    peak_kib = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print(f"\npeak memory (max RSS of this process): {peak_kib / 1024:.1f} MiB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--tickets", type=int, default=10_000, help="queued tickets to seat")
    parser.add_argument("--joins", type=int, default=2_000, help="JoinQueue calls to time")
    parser.add_argument("--clients", type=int, default=16, help="concurrent callers")
    arguments = parser.parse_args()
    asyncio.run(main(arguments.tickets, arguments.joins, arguments.clients))
