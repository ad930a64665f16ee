"""`tavolo up` restarts a service that dies instead of stopping the platform."""

from __future__ import annotations

import os
import re
import signal
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc

from tavolo.servicekit.embedded import free_port

pytestmark = pytest.mark.e2e

SERVICES = ("lobby", "engine", "wallet", "leaderboard")


@pytest.fixture
def platform(tmp_path: Path) -> Iterator[tuple[subprocess.Popen[str], dict[str, int]]]:
    ports = {name: free_port() for name in SERVICES}
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAVOLO_")}
    env.update(
        {
            "TAVOLO_DATA_DIR": str(tmp_path / "data"),
            "TAVOLO_EMBEDDED_NATS_PORT": str(free_port()),
            **{f"TAVOLO_{n.upper()}_PORT": str(p) for n, p in ports.items()},
            **{f"TAVOLO_{n.upper()}_METRICS_PORT": "0" for n in SERVICES},
        }
    )
    process = subprocess.Popen(
        [sys.executable, "-m", "tavolo.cli", "up", "--services", "engine,leaderboard"],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
    )
    yield process, ports
    if process.poll() is None:
        process.send_signal(signal.SIGINT)
        try:
            process.wait(60)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()


def _read_until(process: subprocess.Popen[str], needle: str, limit: float) -> list[str]:
    assert process.stdout is not None
    lines: list[str] = []
    deadline = time.monotonic() + limit
    while time.monotonic() < deadline:
        line = process.stdout.readline()
        if not line:
            break
        lines.append(line.rstrip())
        if needle in line:
            return lines
    raise AssertionError(f"never printed {needle!r}; output:\n" + "\n".join(lines))


async def _health(port: int) -> int:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        reply = await health_pb2_grpc.HealthStub(channel).Check(
            health_pb2.HealthCheckRequest(service="tavolo.v1.Engine"), timeout=10
        )
    return int(reply.status)


async def test_a_killed_service_is_restarted_and_serves_again(
    platform: tuple[subprocess.Popen[str], dict[str, int]],
) -> None:
    process, ports = platform
    started = _read_until(process, "all services SERVING", limit=180)
    engine_line = next(line for line in started if line.startswith("engine "))
    match = re.search(r"pid (\d+)", engine_line)
    assert match, engine_line
    first_pid = int(match.group(1))

    os.kill(first_pid, signal.SIGKILL)

    told = _read_until(process, "engine SERVING again", limit=180)
    assert any("engine exited with signal SIGKILL; restarting in 1s" in line for line in told)
    restarted = next(line for line in told if line.startswith("engine restarted"))
    new_pid = re.search(r"pid (\d+)", restarted)
    assert new_pid and int(new_pid.group(1)) != first_pid
    assert process.poll() is None  # the platform kept running
    assert await _health(ports["engine"]) == health_pb2.HealthCheckResponse.SERVING

    process.send_signal(signal.SIGINT)
    rest, _ = process.communicate(timeout=60)
    assert process.returncode == 0, rest
