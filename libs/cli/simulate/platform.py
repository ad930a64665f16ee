"""The platform a simulation plays against, started the way ``tavolo up`` starts it.

The simulation owns the embedded PostgreSQL and NATS itself and hands them to ``tavolo
up`` through ``TAVOLO_DATABASE_URL`` / ``TAVOLO_NATS_URL``, so chaos can restart them
under the running services (``tavolo up`` keeps servers it started for the whole run).
``tavolo up`` runs as a child process and supervises the four services; its console is
read line by line for the services' process ids and for what the supervisor says (a
service exited, was restarted, serves again), which the report quotes.
"""

from __future__ import annotations

import asyncio
import os
import re
import secrets
import signal
import subprocess
import sys
import threading
import time
from dataclasses import dataclass, field
from pathlib import Path

from tavolo.messaging import Topology
from tavolo.servicekit.connect import connect_nats
from tavolo.servicekit.embedded import (
    EmbeddedNats,
    EmbeddedNatsCluster,
    EmbeddedPostgres,
    free_port,
    wait_for_placement,
)
from tavolo.servicekit.settings import SERVICES

OPERATOR = ("sim_operator", "simulated-operator-password")
SERVICE_LINE = re.compile(r"^(\w+)\s+gRPC (\S+) .* pid (\d+)")
RESTARTED = re.compile(r"^(\w+) restarted \(restart \d+, pid (\d+)\)")
SERVING_AGAIN = re.compile(r"^(\w+) SERVING again")


class PlatformError(Exception):
    """The platform did not come up; the message quotes ``tavolo up``'s console."""


@dataclass
class Console:
    """What ``tavolo up`` printed, and what it says about each service."""

    lines: list[tuple[float, str]] = field(default_factory=list)
    pids: dict[str, int] = field(default_factory=dict)
    addresses: dict[str, str] = field(default_factory=dict)
    served_again: dict[str, int] = field(default_factory=dict)
    ready: threading.Event = field(default_factory=threading.Event)
    lock: threading.Lock = field(default_factory=threading.Lock)

    def read(self, line: str) -> None:
        line = line.rstrip()
        with self.lock:
            self.lines.append((time.monotonic(), line))
            if found := SERVICE_LINE.match(line):
                self.pids[found[1]] = int(found[3])
                self.addresses[found[1]] = found[2]
            elif found := RESTARTED.match(line):
                self.pids[found[1]] = int(found[2])
            elif found := SERVING_AGAIN.match(line):
                self.served_again[found[1]] = self.served_again.get(found[1], 0) + 1
            if "all services SERVING" in line:
                self.ready.set()

    def supervisor_lines(self) -> list[str]:
        """The supervisor's own lines: exits, restarts, returns to SERVING."""
        with self.lock:
            return [
                text
                for _, text in self.lines
                if " exited with " in text or RESTARTED.match(text) or SERVING_AGAIN.match(text)
            ]


class SimPlatform:
    """Embedded PostgreSQL and NATS, and ``tavolo up`` running the services on them."""

    def __init__(self, folder: Path, lobby_env: dict[str, str], nats_nodes: int = 1) -> None:
        self.folder = folder
        self.postgres = EmbeddedPostgres(folder / "postgres")
        self.nats: EmbeddedNats | EmbeddedNatsCluster = (
            EmbeddedNatsCluster(folder / "nats", size=nats_nodes)
            if nats_nodes > 1
            else EmbeddedNats(folder / "nats", port=free_port())
        )
        self.nats_nodes = nats_nodes
        self.lobby_env = lobby_env
        self.console = Console()
        self.database_url = ""
        self.up: subprocess.Popen[str] | None = None
        self._reader: threading.Thread | None = None

    @property
    def nats_url(self) -> str:
        return self.nats.url

    def start(self, ready_timeout: float = 240.0) -> None:
        self.folder.mkdir(parents=True, exist_ok=True)
        self.database_url = self.postgres.start(fast_unsafe=True)
        self.nats.start()
        if self.nats_nodes > 1:
            asyncio.run(wait_for_placement(self.nats_url, self.nats_nodes))
        env = {k: v for k, v in os.environ.items() if not k.startswith("TAVOLO_")}
        env.update(
            {
                "TAVOLO_DATA_DIR": str(self.folder),
                "TAVOLO_DATABASE_URL": self.database_url,
                "TAVOLO_NATS_URL": self.nats_url,
                "TAVOLO_NATS_REPLICAS": str(self.nats_nodes),
                "TAVOLO_TOKEN_SECRET": secrets.token_urlsafe(32),
                "TAVOLO_LOBBY_OPERATOR": ":".join(OPERATOR),
                **{f"TAVOLO_{name.upper()}_PORT": str(free_port()) for name in SERVICES},
                **{f"TAVOLO_{name.upper()}_METRICS_PORT": "0" for name in SERVICES},
                **self.lobby_env,
            }
        )
        self.up = subprocess.Popen(
            [sys.executable, "-m", "tavolo.cli", "up", "--ready-timeout", str(ready_timeout)],
            env=env,
            text=True,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
        )
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()
        if not self.console.ready.wait(ready_timeout + 30):
            tail = "\n".join(text for _, text in self.console.lines[-15:])
            self.stop()
            raise PlatformError(f"tavolo up did not report every service SERVING:\n{tail}")

    def _read(self) -> None:
        assert self.up is not None and self.up.stdout is not None
        for line in self.up.stdout:
            self.console.read(line)

    def addresses(self) -> dict[str, str]:
        return dict(self.console.addresses)

    def up_running(self) -> bool:
        return self.up is not None and self.up.poll() is None

    # -- what chaos does ---------------------------------------------------------------------

    def signal_service(self, name: str, signum: int) -> int:
        """Send ``signum`` to the service's current process; its pid."""
        pid = self.console.pids[name]
        os.kill(pid, signum)
        return pid

    def restart_nats(self, down_seconds: float) -> str:
        """Stop NATS for ``down_seconds``; in a cluster, SIGKILL the node leading the
        events stream instead (the others carry on). What was done."""
        if isinstance(self.nats, EmbeddedNatsCluster):
            leader = asyncio.run(_stream_leader(self.nats_url, Topology("tavolo").events_stream))
            node = self.nats.node(leader)
            node.kill()
            time.sleep(down_seconds)
            node.start()
            return f"SIGKILL NATS node {leader}, the events stream's leader, restarted"
        self.nats.stop()
        time.sleep(down_seconds)
        self.nats.start()
        return "NATS stopped and started"

    def restart_postgres(self, down_seconds: float) -> None:
        self.postgres.restart(down_seconds)

    # -- the end ---------------------------------------------------------------------------

    def stop(self) -> None:
        if self.up is not None and self.up.poll() is None:
            self.up.send_signal(signal.SIGINT)
            try:
                self.up.wait(90)
            except subprocess.TimeoutExpired:
                self.up.kill()
                self.up.wait()
        if self._reader is not None:
            self._reader.join(timeout=5)
        self.nats.stop()
        self.postgres.stop()


async def _stream_leader(url: str, stream: str, within: float = 30.0) -> str:
    """The cluster node leading ``stream`` (once there is one)."""
    import nats.errors
    import nats.js.errors

    nc = await connect_nats(url, require_jetstream=False)
    try:
        async with asyncio.timeout(within):
            while True:
                try:
                    info = await nc.jetstream().stream_info(stream)
                except (nats.errors.TimeoutError, nats.js.errors.APIError):
                    info = None
                if info is not None and info.cluster is not None and info.cluster.leader:
                    return info.cluster.leader
                await asyncio.sleep(0.2)
    finally:
        await nc.close()
