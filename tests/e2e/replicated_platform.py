"""`tavolo up --replicas` as a child process of a test: its console read, its replicas
found, their metrics scraped."""

from __future__ import annotations

import asyncio
import os
import re
import signal
import subprocess
import sys
import time
import urllib.request
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path

from prometheus_client.parser import text_string_to_metric_families

from tavolo.servicekit.embedded import free_port

SERVICES = ("lobby", "engine", "wallet", "leaderboard")
LINE = re.compile(
    r"^(?P<name>\S+)\s+gRPC (?P<address>\S+)\s+metrics :(?P<metrics>\d+).*pid (?P<pid>\d+)"
)
TARGET = re.compile(r"^(?P<service>\S+)\s+clients use (?P<target>\S+)$")


@dataclass
class Running:
    """What `tavolo up` printed: each replica's address, metrics port and pid; the one
    target per service that clients use."""

    process: subprocess.Popen[str]
    addresses: dict[str, str]
    metrics: dict[str, int]
    pids: dict[str, int]
    targets: dict[str, str]

    def read_until(self, needles: set[str], limit: float) -> list[str]:
        """Console lines up to the one by which every needle has been printed."""
        assert self.process.stdout is not None
        lines: list[str] = []
        waiting = set(needles)
        deadline = time.monotonic() + limit
        while waiting and time.monotonic() < deadline:
            line = self.process.stdout.readline()
            if not line:
                break
            lines.append(line.rstrip())
            waiting = {n for n in waiting if n not in line}
        if waiting:
            raise AssertionError(f"never printed {sorted(waiting)}; output:\n" + "\n".join(lines))
        return lines


@contextmanager
def replicated_platform(
    data: Path, replicas: str, env_extra: dict[str, str], ready_limit: float = 240.0
) -> Iterator[Running]:
    """`tavolo up --replicas ...` with metrics on for every replica; stopped with SIGINT."""
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAVOLO_")}
    env.update(
        {
            "TAVOLO_DATA_DIR": str(data),
            **{f"TAVOLO_{n.upper()}_PORT": str(free_port()) for n in SERVICES},
            **{f"TAVOLO_{n.upper()}_METRICS_PORT": str(free_port()) for n in SERVICES},
            **env_extra,
        }
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "tavolo.cli", "up", "--replicas", replicas],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    try:
        running = Running(process, {}, {}, {}, {})
        for line in running.read_until({"all services SERVING"}, ready_limit):
            if found := LINE.match(line):
                name = found["name"]
                running.addresses[name] = found["address"]
                running.metrics[name] = int(found["metrics"])
                running.pids[name] = int(found["pid"])
            elif target := TARGET.match(line):
                running.targets[target["service"]] = target["target"]
        yield running
    finally:
        if process.poll() is None:
            process.send_signal(signal.SIGINT)
            try:
                process.wait(60)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


def _events_handled(port: int) -> int:
    with urllib.request.urlopen(f"http://127.0.0.1:{port}/metrics", timeout=10) as reply:
        text = reply.read().decode()
    return int(
        sum(
            sample.value
            for family in text_string_to_metric_families(text)
            if family.name == "tavolo_events_handled"
            for sample in family.samples
            if sample.name == "tavolo_events_handled_total"
        )
    )


async def events_handled(port: int) -> int:
    """NATS events this replica handled since it started (``tavolo_events_handled_total``)."""
    return await asyncio.to_thread(_events_handled, port)
