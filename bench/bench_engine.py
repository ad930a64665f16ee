"""Engine figures, each beside references measured in the same run.

    .venv/bin/python bench/bench_engine.py [--tables 1,50,200] [--seconds 8] [--games 100]

``--only-act``: the references and the ``Act`` levels alone. Logs as a service does in
production (JSON lines at info, on stderr: a refused ``Act`` logs one, 22 µs each against
119 µs for structlog's unconfigured console lines; send stderr elsewhere to keep the
figures readable).

Uses TAVOLO_DATABASE_URL / TAVOLO_NATS_URL when set (a fresh database is created on that
server and dropped afterwards), else starts embedded PostgreSQL and NATS with durable
defaults. The engine runs in this process on a free port and is driven over real gRPC.

- **action round trip**: a client's ``Act`` until its ``WatchTable`` stream shows the
  result, at 1, 50 and 200 concurrent tables (one client seat and three bots with no think
  time each, so the engine is busy with bot moves between the client's actions); the
  clients act as soon as they may, so the faster the engine the more calls they offer,
  and again with clients that think ``--think-ms`` before each action, as people do; both
  again with the engine in a process of its own (the clients then do not share its event
  loop). ``--timeline`` instead prints, at each level, when each step of an ``Act``
  happened (`act_timeline.py`);
- references: a bare gRPC round trip to the same server (the health check) and a bare
  PostgreSQL one-row INSERT in its own transaction; for the thinking clients, the same
  two after as long a pause (this machine answers slower after a pause); and, taken in
  the same seconds as one table's ``Act`` (one echo, one INSERT, one ``Act``, in turn),
  the two again with the ratio ``Act`` p50 / (echo p50 + INSERT p50) and the load
  average (``interleaved: ...`` lines; ``--only-interleaved`` runs them alone): the
  references taken minutes apart from the ``Act`` miss the disk's swings;
- **tables per second** played to the end by bots alone;
- **engine processes**: bot tables, 200 at once, driven against one engine process, then
  against two engine processes on the same database (half the tables each): the actions
  per second of the platform with one replica and with two, the CPU each part spent per
  action, and how many due timers each took over from another engine (the other replica,
  or the tables an earlier scenario's engine left in play);
- **memory per live table**: Python heap held by the engine's cache per open table;
- **tracing's cost**: the Act round trip with tracing off, on at ``--trace-ratio`` (one
  call in ten traced, what the production overlay sets) and on with every call traced,
  one after the other on the same database; spans go through the SDK's batch processor
  to an exporter that drops them, so the figure is the services' own cost, not the
  network's. ``--only-tracing`` runs this part alone.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import gc
import os
import random
import resource
import sys
import time
import tracemalloc
import uuid
from asyncio.subprocess import Process
from collections.abc import Awaitable, Callable, Sequence
from pathlib import Path

import asyncpg
import grpc
from act_timeline import Timeline
from grpc_health.v1 import health_pb2, health_pb2_grpc
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor, SpanExporter, SpanExportResult
from prometheus_client import REGISTRY

from tavolo.engine.bootstrap import assemble, build_engine
from tavolo.servicekit import tracing
from tavolo.servicekit.auth import Principal, Role, TokenSigner
from tavolo.servicekit.embedded import run_on_servers, scratch_database
from tavolo.servicekit.logging import configure_logging
from tavolo.servicekit.runtime import start_service
from tavolo.servicekit.settings import DEV_TOKEN_SECRET, Settings
from tavolo.tablelog.setup import SeatInfo, build_setup
from tavolo.v1 import common_pb2, engine_pb2, engine_pb2_grpc

SIGNER = TokenSigner(DEV_TOKEN_SECRET)


def meta(player: str, *roles: Role) -> tuple[tuple[str, str], ...]:
    token, _ = SIGNER.issue(player, roles or (Role.PLAYER,), ttl_seconds=3600)
    return (("authorization", f"Bearer {token}"),)


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


def figures(label: str, samples: list[float]) -> str:
    return (
        f"{label:<44} p50 {pct(samples, 0.5):7.2f} ms   p99 {pct(samples, 0.99):7.2f} ms"
        f"   ({len(samples)} samples)"
    )


# -- references ---------------------------------------------------------------------------


async def grpc_echo(port: int, calls: int) -> list[float]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        samples = []
        for _ in range(calls):
            started = time.perf_counter()
            await stub.Check(health_pb2.HealthCheckRequest())
            samples.append(time.perf_counter() - started)
    return samples


async def pg_insert(url: str, calls: int) -> list[float]:
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS bench_plain (id uuid PRIMARY KEY, n int)")
        samples = []
        for n in range(calls):
            started = time.perf_counter()
            await conn.execute("INSERT INTO bench_plain VALUES ($1, $2)", uuid.uuid4(), n)
            samples.append(time.perf_counter() - started)
    finally:
        await conn.close()
    return samples


async def after_idle(
    port: int, url: str, idle: float, calls: int
) -> tuple[list[float], list[float]]:
    """The same two references, each after ``idle`` seconds of doing nothing, as a
    thinking client's call comes: this machine answers slower after a pause (a bare TCP
    echo between two tasks of one process takes 0.07 ms hot and 1.2 ms after 0.3 s)."""
    conn = await asyncpg.connect(url)
    echo, insert = [], []
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS bench_plain (id uuid PRIMARY KEY, n int)")
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            stub = health_pb2_grpc.HealthStub(channel)
            for n in range(calls):
                await asyncio.sleep(idle)
                started = time.perf_counter()
                await stub.Check(health_pb2.HealthCheckRequest())
                echo.append(time.perf_counter() - started)
                await asyncio.sleep(idle)
                started = time.perf_counter()
                await conn.execute("INSERT INTO bench_plain VALUES ($1, $2)", uuid.uuid4(), n)
                insert.append(time.perf_counter() - started)
    finally:
        await conn.close()
    return echo, insert


class GcPauses:
    """The garbage collector's pauses in this process while it is installed: a full
    collection stops every call in flight, so the longest one shows in `Act`'s p99."""

    def __init__(self) -> None:
        self.full: list[float] = []
        self.longest = 0.0
        self._started = 0.0
        gc.callbacks.append(self._note)

    def _note(self, phase: str, info: dict[str, int]) -> None:
        if phase == "start":
            self._started = time.perf_counter()
            return
        took = time.perf_counter() - self._started
        self.longest = max(self.longest, took)
        if info["generation"] == 2:
            self.full.append(took)

    def close(self) -> str:
        gc.callbacks.remove(self._note)
        longest_full = max(self.full, default=0.0) * 1000
        return (
            f"{'garbage collector during the Act levels':<44} longest pause"
            f" {self.longest * 1000:6.1f} ms   ({len(self.full)} full collections, the longest"
            f" {longest_full:.1f} ms)"
        )


# -- the engine ---------------------------------------------------------------------------


def bot_seats(first: int, count: int) -> list[common_pb2.Seat]:
    return [
        common_pb2.Seat(seat=s, bot=True, bot_level=common_pb2.BOT_LEVEL_MEDIUM)
        for s in range(first, first + count)
    ]


async def one_client(
    stub: engine_pb2_grpc.EngineAsyncStub,
    samples: list[float],
    stop_at: float,
    think: float,
    timeline: Timeline | None = None,
    before_act: Callable[[], Awaitable[None]] | None = None,
) -> None:
    """Open a table (me and three bots), act whenever asked (after ``think`` seconds, as
    a person would), time Act → stream, repeat (each step noted on ``timeline`` if
    given; ``before_act`` awaited, untimed, before each action)."""
    rng = random.Random()
    while time.perf_counter() < stop_at:
        player = f"bench-{uuid.uuid4().hex[:10]}"
        who = meta(player)
        opened = await stub.OpenTable(
            engine_pb2.OpenTableRequest(
                game="pika",
                seats=[common_pb2.Seat(seat=0, player_id=player), *bot_seats(1, 3)],
                mode=common_pb2.MODE_VERSUS_COMPUTER,
            ),
            metadata=who,
        )
        arrived: dict[int, float] = {}
        waiting: dict[int, asyncio.Event] = {}
        views: asyncio.Queue[engine_pb2.TableView] = asyncio.Queue()
        watcher = asyncio.create_task(_watch(stub, opened.table_id, who, arrived, waiting, views))
        acted = 0
        while True:
            view = await views.get()
            while not views.empty():  # the newest view, as a client showing the table acts on
                view = views.get_nowait()
            if view.status != engine_pb2.TABLE_STATUS_PLAYING:
                break
            if view.version < acted or not view.legal_actions:
                continue
            if think:
                await asyncio.sleep(think)
            if before_act is not None:
                await before_act()
            started = time.perf_counter()
            try:
                reply = await stub.Act(
                    engine_pb2.ActRequest(
                        table_id=opened.table_id,
                        action=rng.choice(view.legal_actions),
                        expected_version=view.version,
                        request_id=uuid.uuid4().hex,  # as the platform's own client sends
                    ),
                    metadata=who,
                )
            except grpc.aio.AioRpcError:
                continue
            version = acted = reply.view.version
            if timeline is not None:
                timeline.client(opened.table_id, version, started, time.perf_counter())
            if version not in arrived:
                waiting[version] = asyncio.Event()
                await waiting[version].wait()
            samples.append(arrived[version] - started)
            if timeline is not None:
                timeline.shown(opened.table_id, version, arrived[version])
            if time.perf_counter() >= stop_at:
                break
        watcher.cancel()


async def _watch(
    stub: engine_pb2_grpc.EngineAsyncStub,
    table_id: str,
    who: tuple[tuple[str, str], ...],
    arrived: dict[int, float],
    waiting: dict[int, asyncio.Event],
    views: asyncio.Queue[engine_pb2.TableView],
) -> None:
    """Note when each version reaches the client, and pass the views on."""
    request = engine_pb2.WatchTableRequest(table_id=table_id)
    async for view in stub.WatchTable(request, metadata=who):
        arrived[view.version] = time.perf_counter()
        if view.version in waiting:
            waiting[view.version].set()
        await views.put(view)
        if view.status != engine_pb2.TABLE_STATUS_PLAYING:
            return


async def round_trips(
    port: int,
    tables: int,
    seconds: float,
    think: float = 0.0,
    timeline: Timeline | None = None,
    before_act: Callable[[], Awaitable[None]] | None = None,
) -> list[float]:
    samples: list[float] = []
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = engine_pb2_grpc.EngineStub(channel)
        stop_at = time.perf_counter() + seconds
        await asyncio.gather(
            *(
                one_client(stub, samples, stop_at, think, timeline, before_act)
                for _ in range(tables)
            )
        )
    return samples


async def interleaved(port: int, url: str, seconds: float, parts: int = 4) -> list[str]:
    """One table's ``Act`` with the two references taken in the same seconds: before
    each of the player's actions, one bare gRPC echo and one bare INSERT, so the three
    share every swing of the disk's flush and of the machine's load; the ratio ``Act``
    p50 / (echo p50 + INSERT p50) of those samples, over the whole level and over each of
    ``parts`` consecutive parts of it, with the load average."""
    echo: list[float] = []
    insert: list[float] = []
    conn = await asyncpg.connect(url)
    try:
        await conn.execute("CREATE TABLE IF NOT EXISTS bench_plain (id uuid PRIMARY KEY, n int)")
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            await health.Check(health_pb2.HealthCheckRequest())  # the channel connected

            async def references() -> None:
                started = time.perf_counter()
                await health.Check(health_pb2.HealthCheckRequest())
                echo.append(time.perf_counter() - started)
                started = time.perf_counter()
                await conn.execute(
                    "INSERT INTO bench_plain VALUES ($1, $2)", uuid.uuid4(), len(insert)
                )
                insert.append(time.perf_counter() - started)

            act = await round_trips(port, 1, seconds, before_act=references)
    finally:
        await conn.close()
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    lines = [
        figures("interleaved: bare gRPC round trip (health)", echo),
        figures("interleaved: bare PostgreSQL INSERT", insert),
        figures("interleaved: Act -> stream shows it, 1 table", act),
        f"{'interleaved: Act p50 / (echo p50 + INSERT p50)':<44}"
        f" {ratio(act, echo, insert):7.2f}x   (load average {load})",
    ]
    # The lists grow together (a refused Act adds no sample), so equal slices by order
    # are close to equal spans of time.
    slices = [
        ratio(*(s[len(s) * k // parts : len(s) * (k + 1) // parts] for s in (act, echo, insert)))
        for k in range(parts)
    ]
    lines.append(
        f"{f'  the same in {parts} consecutive parts':<44} " + " ".join(f"{r:.2f}x" for r in slices)
    )
    return lines


def ratio(act: list[float], echo: list[float], insert: list[float]) -> float:
    """``Act`` p50 over the sum of the two references' p50s."""
    return pct(act, 0.5) / (pct(echo, 0.5) + pct(insert, 0.5))


async def bot_games(port: int, games: int, concurrent: int) -> tuple[float, int]:
    """Seconds to play ``games`` four-bot tables to the end, and the actions taken."""
    operator = meta("bench-operator", Role.OPERATOR)
    slots = asyncio.Semaphore(concurrent)
    actions = 0
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = engine_pb2_grpc.EngineStub(channel)

        async def one() -> None:
            nonlocal actions
            async with slots:
                opened = await stub.OpenTable(
                    engine_pb2.OpenTableRequest(
                        game="pika",
                        seats=bot_seats(0, 4),
                        mode=common_pb2.MODE_ONLINE,
                        bot_filled=True,
                    ),
                    metadata=operator,
                )
                request = engine_pb2.WatchTableRequest(table_id=opened.table_id)
                async for view in stub.WatchTable(request, metadata=meta("aud", Role.AUDITOR)):
                    if view.status != engine_pb2.TABLE_STATUS_PLAYING:
                        actions += view.version - 2
                        return

        started = time.perf_counter()
        await asyncio.gather(*(one() for _ in range(games)))
    return time.perf_counter() - started, actions


async def memory_per_table(url: str, tables: int, actions: int) -> float:
    """Bytes of Python heap the engine keeps per live table: opened, ``actions`` moves
    played (so its recent history is full), cached, waiting for the next move."""
    pool = await asyncpg.create_pool(url, min_size=1, max_size=4)
    try:
        engine = await build_engine(pool, schema=f"engine_memory_{actions}")
        players = [f"m-p{s}" for s in range(4)]
        who = [Principal(p, frozenset({Role.PLAYER})) for p in players]

        async def open_and_play(n: int) -> None:
            setup = build_setup(
                table_id=f"m{n}",
                game="pika",
                options={},
                seats=[SeatInfo(s, players[s]) for s in range(4)],
                mode="versus_friends",
                turn_seconds=30,
            )
            table = await engine.app.open_setup(setup)
            for _ in range(actions):
                live = await engine.repo.live(table.table_id)
                if not live.table.playing:
                    break
                seat = min(live.table.game.to_act(live.table.state))
                legal = live.table.game.legal_actions(live.table.state, seat)
                await engine.app.act(who[seat], table.table_id, legal[0])

        await open_and_play(0)  # warm imports and caches
        gc.collect()
        tracemalloc.start()
        before = tracemalloc.get_traced_memory()[0]
        for n in range(1, tables):
            await open_and_play(n)
        gc.collect()
        after = tracemalloc.get_traced_memory()[0]
        tracemalloc.stop()
        assert len(engine.repo.cache) == tables
        return (after - before) / (tables - 1)
    finally:
        await pool.close()


# -- replicas -----------------------------------------------------------------------------


async def serve(url: str, nats_url: str, namespace: str) -> None:
    """Run one engine process (``--serve``): print its port, stop when stdin closes, then
    print how many timers it took over from another replica. Only those two lines are
    written to the pipe, which no one reads while the engine runs: its logs go to the
    stderr it shares with the bench, its stdout nowhere."""
    report = os.fdopen(os.dup(1), "w")
    os.dup2(os.open(os.devnull, os.O_WRONLY), 1)
    settings = Settings(database_url=url, nats_url=nats_url, namespace=namespace, development=True)
    service = await start_service("engine", assemble, settings, port=0, freeze=True)
    print(service.port, file=report, flush=True)
    try:
        await asyncio.get_running_loop().run_in_executor(None, sys.stdin.read)
    finally:
        await service.stop(grace=1)
        taken = REGISTRY.get_sample_value("tavolo_timer_takeovers_total", {"service": "engine"})
        print(int(taken or 0), file=report, flush=True)


async def start_engine(url: str, nats_url: str, namespace: str) -> tuple[Process, int]:
    """An engine in a process of its own (``--serve``), and its port."""
    process = await asyncio.create_subprocess_exec(
        sys.executable,
        __file__,
        "--serve",
        url,
        nats_url,
        namespace,
        stdin=asyncio.subprocess.PIPE,
        stdout=asyncio.subprocess.PIPE,
    )
    assert process.stdout is not None
    return process, int((await process.stdout.readline()).decode())


async def stop_engine(process: Process) -> int:
    """Stop the engine; how many due timers of the other replica's tables it took over."""
    assert process.stdin is not None and process.stdout is not None
    process.stdin.close()
    taken = await asyncio.wait_for(process.stdout.readline(), 60)
    await asyncio.wait_for(process.wait(), 60)
    return int(taken or 0)


async def round_trips_apart(
    url: str, nats_url: str, namespace: str, levels: list[int], seconds: float, think: float
) -> list[tuple[str, list[float]]]:
    """The ``Act`` round trips again with the engine in a process of its own, as clients
    are in production: here the clients do not share the engine's event loop. Then the
    same with clients that think ``think`` seconds (none: 0)."""
    process, port = await start_engine(url, nats_url, namespace)
    found = []
    try:
        for tables in levels:
            label = f"the same, engine in its own process, {tables:>3} tables"
            found.append((label, await round_trips(port, tables, seconds)))
        for tables in levels if think else ():
            label = f"  and {think * 1000:.0f} ms to think, {tables:>3} tables"
            found.append((label, await round_trips(port, tables, seconds, think)))
        return found
    finally:
        await stop_engine(process)


def _postgres_pids() -> list[int]:
    """This machine's PostgreSQL processes (server and backends), for their CPU time."""
    found = []
    for entry in os.listdir("/proc") if os.path.isdir("/proc") else ():
        with contextlib.suppress(OSError):
            if entry.isdigit() and Path(f"/proc/{entry}/comm").read_text().strip() == "postgres":
                found.append(int(entry))
    return found


def _cpu_seconds(pids: list[int]) -> float:
    """User and system CPU seconds used so far by ``pids`` (Linux; 0 elsewhere)."""
    ticks = os.sysconf("SC_CLK_TCK")
    total = 0
    for pid in pids:
        with contextlib.suppress(OSError):
            fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
            total += int(fields[11]) + int(fields[12])
    return total / ticks


async def engine_processes(
    url: str, nats_url: str, namespace: str, count: int, games: int, tables: int
) -> tuple[float, int]:
    """Bot actions per second with ``count`` engine processes sharing the database,
    ``tables`` tables in play at once (each process serving its share)."""
    started_engines = [await start_engine(url, nats_url, namespace) for _ in range(count)]
    processes = [process for process, _ in started_engines]
    ports = [port for _, port in started_engines]
    try:
        started = time.perf_counter()
        cpu_before = (
            _cpu_seconds([p.pid for p in processes]),
            _cpu_seconds(_postgres_pids()),
            time.process_time(),
        )
        results = await asyncio.gather(
            *(bot_games(port, games // count, tables // count) for port in ports)
        )
        seconds = time.perf_counter() - started
        actions = sum(a for _, a in results)
        engine_cpu = _cpu_seconds([p.pid for p in processes]) - cpu_before[0]
        postgres_cpu = _cpu_seconds(_postgres_pids()) - cpu_before[1]
        client_cpu = time.process_time() - cpu_before[2]
    finally:
        taken = await asyncio.gather(*(stop_engine(process) for process in processes))
    print(
        f"{f'  CPU per bot action, {count} engine process(es)':<44}"
        f" engine {1000 * engine_cpu / actions:.2f} ms, PostgreSQL (this machine's)"
        f" {1000 * postgres_cpu / actions:.2f} ms, the watching clients"
        f" {1000 * client_cpu / actions:.2f} ms; timers taken over from another"
        f" engine: {sum(taken)}"
    )
    return actions / seconds, actions


# -- running ------------------------------------------------------------------------------


class DroppedSpans(SpanExporter):
    """Takes the spans and keeps nothing: what tracing costs the engine, without a wire."""

    def export(self, spans: Sequence[ReadableSpan]) -> SpanExportResult:
        return SpanExportResult.SUCCESS

    def shutdown(self) -> None:
        return None


async def tracing_cost(
    server_url: str, nats_url: str, tables: int, seconds: float, ratio: float
) -> list[tuple[str, list[float]]]:
    """Act round trips with tracing off, on at ``ratio`` and on for every call, then the
    same in the reverse order (the machine's own drift shows as the gap between a pair);
    each on a database of its own, so no scenario inherits another's tables in play."""
    results = []
    order = [("off", None), (f"on, {ratio:g} sampled", ratio), ("on, all", 1.0)]
    for label, sampled in order + order[::-1]:
        provider = None
        if sampled is not None:
            provider = TracerProvider(sampler=tracing.NoStatementRoots(sampled))
            provider.add_span_processor(BatchSpanProcessor(DroppedSpans()))
            tracing.enable(provider)
        try:
            async with scratch_database(server_url, "bench_tracing") as url:
                settings = Settings(
                    database_url=url,
                    nats_url=nats_url,
                    namespace=f"bench_tracing_{uuid.uuid4().hex[:8]}",
                    development=True,
                )
                service = await start_service("engine", assemble, settings, port=0)
                try:
                    samples = await round_trips(service.port, tables, seconds)
                finally:
                    await service.stop(grace=1)
        finally:
            if provider is not None:
                tracing.disable()
                provider.shutdown()
        results.append((f"Act, tracing {label}, {tables:>3} tables", samples))
    return results


async def act_timeline(
    server_url: str, nats_url: str, namespace: str, levels: list[int], args: argparse.Namespace
) -> None:
    """The `Act` step by step (`act_timeline`) at each level, beside the two references,
    then with clients that think ``--think-ms`` before each action."""
    timeline = Timeline()
    async with scratch_database(server_url, "bench_timeline") as url:
        settings = Settings(
            database_url=url, nats_url=nats_url, namespace=namespace, development=True
        )
        with timeline.installed():
            service = await start_service("engine", assemble, settings, port=0, freeze=True)
            try:
                echo = await grpc_echo(service.port, 2000)
                print(figures("reference: bare gRPC round trip (health)", echo))
                print(figures("reference: bare PostgreSQL INSERT", await pg_insert(url, 2000)))
                thinks = [0, args.think_ms] if args.think_ms else [0]
                for think, tables in ((t, n) for t in thinks for n in levels):
                    timeline.clear()
                    samples = await round_trips(
                        service.port, tables, args.seconds, think / 1000, timeline
                    )
                    label = f"Act -> stream shows it, {tables:>3} tables, {think} ms to think"
                    print(figures(label, samples))
                    print("\n".join(timeline.report(tables)))
                timeline.clear()
                print("\n".join(await interleaved(service.port, url, args.seconds)))
            finally:
                await service.stop(grace=1)


async def run(server_url: str, nats_url: str, args: argparse.Namespace) -> None:
    namespace = f"bench_engine_{uuid.uuid4().hex[:8]}"
    if args.timeline:
        await act_timeline(server_url, nats_url, namespace, args.tables, args)
        return
    if args.only_interleaved:
        async with scratch_database(server_url, "bench_interleaved") as url:
            settings = Settings(
                database_url=url, nats_url=nats_url, namespace=namespace, development=True
            )
            service = await start_service("engine", assemble, settings, port=0, freeze=True)
            try:
                for _ in range(args.rounds):
                    print("\n".join(await interleaved(service.port, url, args.seconds)))
            finally:
                await service.stop(grace=1)
        return
    if args.only_tracing:
        for tables in args.tables:
            for label, samples in await tracing_cost(
                server_url, nats_url, tables, args.seconds, args.trace_ratio
            ):
                print(figures(label, samples))
        return
    async with scratch_database(server_url, "bench_engine") as url:
        settings = Settings(
            database_url=url, nats_url=nats_url, namespace=namespace, development=True
        )
        service = await start_service("engine", assemble, settings, port=0, freeze=True)
        pauses = GcPauses()
        try:
            print(
                figures(
                    "reference: bare gRPC round trip (health)", await grpc_echo(service.port, 2000)
                )
            )
            print(figures("reference: bare PostgreSQL INSERT", await pg_insert(url, 2000)))
            for tables in args.tables:
                samples = await round_trips(service.port, tables, args.seconds)
                print(figures(f"Act -> stream shows it, {tables:>3} concurrent tables", samples))
            print("\n".join(await interleaved(service.port, url, args.seconds)))
            if args.think_ms:
                echo, insert = await after_idle(service.port, url, args.think_ms / 1000, 12)
                print(figures(f"reference: the echo after {args.think_ms} ms idle", echo))
                print(figures(f"reference: the INSERT after {args.think_ms} ms idle", insert))
            for tables in args.tables if args.think_ms else ():
                samples = await round_trips(
                    service.port, tables, args.seconds, args.think_ms / 1000
                )
                label = f"the same, {args.think_ms} ms to think, {tables:>3} tables"
                print(figures(label, samples))
            print(pauses.close())
            if not args.only_act:
                seconds, actions = await bot_games(service.port, args.games, 50)
                print(
                    f"{'bot tables played to the end (4 bots, 50 at once)':<44}"
                    f" {args.games / seconds:7.1f} tables/s   {actions / seconds:7.0f} actions/s"
                    f"   ({args.games} tables, {actions} actions, {seconds:.1f} s)"
                )
        finally:
            await service.stop(grace=1)
        apart = await round_trips_apart(
            url, nats_url, namespace, args.tables, args.seconds, args.think_ms / 1000
        )
        for label, samples in apart:
            print(figures(label, samples))
        if args.only_act:
            return
        for count in (1, 2):
            rate, actions = await engine_processes(
                url, nats_url, namespace, count, args.process_games, args.process_tables
            )
            print(
                f"{f'bot actions/s, {count} engine process(es)':<44} {rate:7.0f} actions/s"
                f"   ({args.process_games} tables, {args.process_tables} at once,"
                f" {actions} actions)"
            )
        for actions in (0, 30):
            per_table = await memory_per_table(url, args.memory_tables, actions)
            print(
                f"{f'memory per live table, {actions} moves played':<44}"
                f" {per_table / 1024:7.1f} KiB   ({args.memory_tables} tables of 4 seats)"
            )
        for tables in args.tables:
            for label, samples in await tracing_cost(
                server_url, nats_url, tables, args.seconds, args.trace_ratio
            ):
                print(figures(label, samples))
        peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss / 1024
        print(f"{'peak resident memory of this process':<44} {peak:7.1f} MiB")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument(
        "--tables", default="1,50,200", type=lambda s: [int(x) for x in s.split(",")]
    )
    parser.add_argument("--seconds", type=float, default=8.0, help="per round-trip level")
    parser.add_argument(
        "--think-ms",
        type=int,
        default=300,
        help="the Act levels again with clients that think this long before each action",
    )
    parser.add_argument("--games", type=int, default=100, help="bot tables to play to the end")
    parser.add_argument("--memory-tables", type=int, default=300)
    parser.add_argument("--process-games", type=int, default=400, help="per replica scenario")
    parser.add_argument(
        "--process-tables", type=int, default=200, help="tables at once, per replica scenario"
    )
    parser.add_argument("--trace-ratio", type=float, default=0.1, help="traced share of calls")
    parser.add_argument("--only-tracing", action="store_true", help="measure tracing's cost alone")
    parser.add_argument(
        "--only-act", action="store_true", help="the references and the Act levels alone"
    )
    parser.add_argument(
        "--only-interleaved",
        action="store_true",
        help="one table's Act with the references in the same seconds, --rounds times",
    )
    parser.add_argument("--rounds", type=int, default=1, help="for --only-interleaved")
    parser.add_argument(
        "--timeline",
        action="store_true",
        help="one table's Act step by step, the engine in this process (act_timeline.py)",
    )
    parser.add_argument(
        "--uvloop",
        action="store_true",
        help="run the engine and the clients on uvloop (installed apart: pip install uvloop)",
    )
    parser.add_argument("--serve", nargs=3, metavar=("URL", "NATS_URL", "NAMESPACE"))
    args = parser.parse_args()
    # Log as a service does in production (JSON lines at info, on stderr): a refused Act
    # logs a line, and its cost is part of the engine's.
    configure_logging("json", "info")
    if args.uvloop:
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
        os.environ["TAVOLO_BENCH_UVLOOP"] = "1"  # the engine processes started below
    elif os.environ.get("TAVOLO_BENCH_UVLOOP") == "1" and args.serve:
        import uvloop

        asyncio.set_event_loop_policy(uvloop.EventLoopPolicy())
    if args.serve:
        asyncio.run(serve(*args.serve))
        return
    run_on_servers(lambda database_url, nats_url: run(database_url, nats_url, args), show_load=True)


if __name__ == "__main__":
    main()
