"""Leaderboard figures: events projected per second, and GetStanding with a million players.

1. **Projection**: TableFinished events (4 seats, online, one ISO week, 5 000 players) go
   through the same use case the NATS consumer calls, one transaction per event. Printed
   beside a reference measured in the same run: recording the event in the history only
   (no projection), the floor any projection pays. Then the same through real JetStream
   and the service's durable idempotent consumer, and a full rebuild from the history.
2. **GetStanding**: one week's league bulk-loaded with COPY for ``--players`` players
   (default one million), ranks answered over real gRPC for random players: p50/p99.
   Reference in the same run: the rank counted straight off the (week, game, points)
   index (``count(*)`` of players with more points), which the points histogram replaces.

    .venv/bin/python bench/bench_leaderboard.py [--players 1000000] [--events 4000]

Uses TAVOLO_BENCH_DATABASE_URL / TAVOLO_BENCH_NATS_URL when set, else embedded servers in
a temporary folder (PostgreSQL with its default durability: fsync on).
"""

from __future__ import annotations

import argparse
import asyncio
import datetime as dt
import os
import random
import resource
import tempfile
import time
import uuid
from collections.abc import Awaitable, Callable, Iterator
from pathlib import Path

import asyncpg
import grpc
import nats

from tavolo.leaderboard import store
from tavolo.leaderboard.app import Leaderboard
from tavolo.leaderboard.bootstrap import make_assemble
from tavolo.leaderboard.config import LeaderboardConfig
from tavolo.leaderboard.model import FinishedTable, Mode, SeatResult
from tavolo.leaderboard.wire import parse_table_finished, table_finished_to_proto
from tavolo.messaging import Topology, publish_with_id
from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.servicekit.embedded import EmbeddedNats, EmbeddedPostgres
from tavolo.servicekit.runtime import start_service
from tavolo.servicekit.settings import Settings
from tavolo.v1 import leaderboard_pb2 as pb
from tavolo.v1 import leaderboard_pb2_grpc as pb_grpc

WEEK = (2025, 11)
WEEK_KEY = 202511
MONDAY = dt.datetime(2025, 3, 10, tzinfo=dt.UTC)
NOW = MONDAY + dt.timedelta(days=2)


def percentile(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def millis(samples: list[float]) -> str:
    p50, p99 = percentile(samples, 0.50) * 1e3, percentile(samples, 0.99) * 1e3
    return f"p50 {p50:7.2f} ms   p99 {p99:7.2f} ms   ({len(samples)} calls)"


def tables(count: int, players: int, rng: random.Random) -> list[bytes]:
    """Online 4-seat tables of one week, as serialized TableFinished events."""
    payloads = []
    for n in range(count):
        chosen = rng.sample(range(players), 4)
        places = [1, 2, 3, 4]
        rng.shuffle(places)
        table = FinishedTable(
            event_id=str(uuid.uuid4()),
            table_id=f"bench-{n}-{uuid.uuid4().hex[:8]}",
            game="pika",
            mode=Mode.ONLINE,
            bot_filled=rng.random() < 0.2,
            occurred_at=MONDAY + dt.timedelta(seconds=rng.randint(0, 6 * 86400)),
            seats=tuple(
                SeatResult(s, f"player-{p:07d}", False, rng.random() < 0.1, False, places[s])
                for s, p in enumerate(chosen)
            ),
        )
        payloads.append(table_finished_to_proto(table).SerializeToString())
    return payloads


async def fresh_schema(pool: asyncpg.Pool) -> None:
    async with pool.acquire() as conn:
        await conn.execute(f"DROP SCHEMA IF EXISTS {store.SCHEMA} CASCADE")
    await store.migrate(pool)


async def timed(label: str, count: int, work: Callable[[], Awaitable[object]]) -> float:
    started = time.perf_counter()
    await work()
    seconds = time.perf_counter() - started
    rate = count / seconds
    print(f"  {label:<52} {rate:9.0f} events/s   ({count} in {seconds:.2f} s)")
    return rate


async def bench_projection(url: str, nats_url: str, events: int) -> None:
    print(f"\n== projection: {events} TableFinished events, 4 seats each")
    payloads = tables(events, 5000, random.Random(1))
    pool = await asyncpg.create_pool(url, min_size=1, max_size=8)
    try:
        await fresh_schema(pool)
        leaderboard = Leaderboard(pool, LeaderboardConfig(), frozenset({"pika"}), lambda: NOW)

        async def history_only() -> None:
            for data in payloads:
                finished = parse_table_finished(data)
                leaderboard.effects(data)  # the rules run too: the gap is the projection's SQL
                async with pool.acquire() as conn, conn.transaction():
                    await store.append_received(conn, finished, data)

        await timed("reference: record in the history only", events, history_only)
        await fresh_schema(pool)

        async def project_sequential() -> None:
            for data in payloads:
                await leaderboard.project_now(data)

        await timed("record + project, one at a time", events, project_sequential)
        await fresh_schema(pool)

        async def project_concurrent() -> None:
            queue = iter(payloads)

            async def worker() -> None:
                for data in queue:
                    await leaderboard.project_now(data)

            await asyncio.gather(*(worker() for _ in range(4)))

        await timed("record + project, 4 concurrent writers", events, project_concurrent)
        await timed(
            "rebuild from the history (batches of 1000)", events, leaderboard.replay_history
        )
        await fresh_schema(pool)
    finally:
        await pool.close()
    await bench_consumer(url, nats_url, payloads)


async def bench_consumer(url: str, nats_url: str, payloads: list[bytes]) -> None:
    namespace = f"bench{uuid.uuid4().hex[:8]}"
    nc = await nats.connect(nats_url)
    js = nc.jetstream()
    topology = Topology(namespace)
    settings = Settings(database_url=url, nats_url=nats_url, namespace=namespace, development=True)
    service = await start_service(
        "leaderboard", make_assemble(LeaderboardConfig(), lambda: NOW), settings, port=0
    )
    try:
        for data in payloads:
            await publish_with_id(js, topology.table_finished, data, msg_id=str(uuid.uuid4()))
        pool = service.infra.pool

        async def drained() -> None:
            while True:
                done = await pool.fetchval(f"SELECT count(*) FROM {store.LOG_TABLE}")
                if done >= len(payloads):
                    return
                await asyncio.sleep(0.05)

        await timed("through JetStream + idempotent consumer (1 replica)", len(payloads), drained)
    finally:
        await service.stop(0)
        await js.delete_stream(topology.events_stream)
        await nc.close()


def league_rows(players: int, rng: random.Random) -> Iterator[tuple[int, str, str, int, int]]:
    """One week's league: games per player ~ geometric, 1..7 points per game, doubled."""
    for n in range(players):
        games = 1
        while rng.random() < 0.6 and games < 60:
            games += 1
        points = sum(rng.choice((1, 3, 5, 7)) for _ in range(games))
        yield (WEEK_KEY, "", f"player-{n:07d}", 2 * points, games)


async def bench_standing(url: str, nats_url: str, players: int, calls: int) -> None:
    print(f"\n== GetStanding: one week, {players} players in the league")
    rng = random.Random(2)
    pool = await asyncpg.create_pool(url, min_size=1, max_size=4)
    try:
        await fresh_schema(pool)
        async with pool.acquire() as conn:
            started = time.perf_counter()
            await conn.copy_records_to_table(
                "league_scores",
                schema_name=store.SCHEMA,
                records=league_rows(players, rng),
            )
            await conn.execute(
                f"INSERT INTO {store.SCHEMA}.league_points_histogram"
                f" SELECT week, game, points_x2, count(*) FROM {store.SCHEMA}.league_scores"
                " GROUP BY week, game, points_x2"
            )
            await conn.execute(f"VACUUM ANALYZE {store.SCHEMA}.league_scores")
            await conn.execute(f"VACUUM ANALYZE {store.SCHEMA}.league_points_histogram")
            buckets = await conn.fetchval(
                f"SELECT count(*) FROM {store.SCHEMA}.league_points_histogram"
            )
            print(
                f"  bulk load (COPY + histogram + analyze): {time.perf_counter() - started:.1f} s,"
                f" {buckets} distinct points values"
            )
            sample = [f"player-{rng.randrange(players):07d}" for _ in range(calls)]
            reference: list[float] = []
            for player in sample[: max(50, calls // 10)]:
                started = time.perf_counter()
                points = await conn.fetchval(
                    f"SELECT points_x2 FROM {store.SCHEMA}.league_scores"
                    " WHERE week = $1 AND game = '' AND player_id = $2",
                    WEEK_KEY,
                    player,
                )
                await conn.fetchval(
                    f"SELECT count(*) FROM {store.SCHEMA}.league_scores"
                    " WHERE week = $1 AND game = '' AND -points_x2 < -$2::bigint",
                    WEEK_KEY,
                    points,
                )
                reference.append(time.perf_counter() - started)
        print(f"  reference: rank by count(*) on the index (SQL)   {millis(reference)}")
    finally:
        await pool.close()

    settings = Settings(
        database_url=url,
        nats_url=nats_url,
        namespace=f"b{uuid.uuid4().hex[:8]}",
        development=True,
    )
    service = await start_service(
        "leaderboard", make_assemble(LeaderboardConfig(), lambda: NOW), settings, port=0
    )
    token, _ = TokenSigner(settings.token_secret).issue("bench", [Role.PLAYER])
    metadata = (("authorization", f"Bearer {token}"),)
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            stub = pb_grpc.LeaderboardStub(channel)  # type: ignore[arg-type]
            week = pb.IsoWeek(year=WEEK[0], week=WEEK[1])
            for player in sample[:20]:  # warm the connection pool and caches
                await stub.GetStanding(
                    pb.GetStandingRequest(player_id=player, week=week), metadata=metadata
                )
            latencies: list[float] = []
            for player in sample:
                started = time.perf_counter()
                answer = await stub.GetStanding(
                    pb.GetStandingRequest(player_id=player, week=week, around=5),
                    metadata=metadata,
                )
                latencies.append(time.perf_counter() - started)
                assert answer.player.player_id == player
            print(f"  GetStanding over gRPC (rank + 5 around)          {millis(latencies)}")
            pages: list[float] = []
            for _ in range(max(20, calls // 20)):
                started = time.perf_counter()
                await stub.GetLeague(pb.GetLeagueRequest(week=week), metadata=metadata)
                pages.append(time.perf_counter() - started)
            print(f"  GetLeague top 50 over gRPC                       {millis(pages)}")
    finally:
        await service.stop(0)


async def main(args: argparse.Namespace) -> None:
    url = os.environ.get("TAVOLO_BENCH_DATABASE_URL")
    nats_url = os.environ.get("TAVOLO_BENCH_NATS_URL")
    with tempfile.TemporaryDirectory(prefix="tavolo-bench-") as tmp:
        pg = EmbeddedPostgres(Path(tmp) / "pg") if url is None else None
        broker = EmbeddedNats(Path(tmp) / "nats") if nats_url is None else None
        try:
            url = url or pg.start()  # type: ignore[union-attr]
            nats_url = nats_url or broker.start()  # type: ignore[union-attr]
            if not args.skip_projection:
                await bench_projection(url, nats_url, args.events)
            await bench_standing(url, nats_url, args.players, args.calls)
        finally:
            if broker is not None:
                broker.stop()
            if pg is not None:
                pg.stop()
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
    print(f"\npeak memory of this process (client, service and loader): {peak:.0f} MiB")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--players", type=int, default=1_000_000)
    parser.add_argument("--events", type=int, default=4000)
    parser.add_argument("--calls", type=int, default=2000)
    parser.add_argument("--skip-projection", action="store_true")
    asyncio.run(main(parser.parse_args()))
