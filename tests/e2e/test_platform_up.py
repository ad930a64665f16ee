"""`tavolo up` (what `make run` calls): embedded PostgreSQL and NATS, four services that
answer health SERVING and list their API through reflection, a clean stop (PLAT-1, PLAT-4).
"""

from __future__ import annotations

import contextlib
import os
import signal
import stat
import subprocess
import sys
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import grpc
import pytest
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.servicekit.embedded import free_port
from tavolo.servicekit.settings import DEV_TOKEN_SECRET
from tavolo.v1.wallet_pb2 import GetBalanceRequest
from tavolo.v1.wallet_pb2_grpc import WalletStub

pytestmark = pytest.mark.e2e

SERVICES = {"lobby": "Lobby", "engine": "Engine", "wallet": "Wallet", "leaderboard": "Leaderboard"}


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
        [sys.executable, "-m", "tavolo.cli", "up"],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        # as a shell starts a background job from a script: Ctrl-C must still stop it
        preexec_fn=_ignore_sigint,
    )
    yield process, ports
    if process.poll() is None:
        process.kill()
        process.wait()
    _stop_servers_under(tmp_path / "data")


def _stop_servers_under(folder: Path) -> None:
    """Stop any embedded PostgreSQL or NATS that `tavolo up` started on ``folder`` and
    left running (a safety net: a failing test must not leave a pair on the machine)."""
    for pid, command in _servers_under(str(folder)):
        fast = signal.SIGINT if "postgres" in command else signal.SIGTERM
        with contextlib.suppress(ProcessLookupError):
            os.kill(pid, fast)


def _servers_under(folder: str) -> list[tuple[int, str]]:
    """The running processes whose command names ``folder``: the postmaster (-D) and
    nats-server (-sd) of `tavolo up`'s data."""
    found = []
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            command = (entry / "cmdline").read_bytes().replace(b"\0", b" ").decode()
        except OSError:
            continue
        server = "postgres" in command or "nats-server" in command
        if folder in command and server and _alive(int(entry.name)):
            found.append((int(entry.name), command))
    return found


def _ignore_sigint() -> None:
    signal.signal(signal.SIGINT, signal.SIG_IGN)


def _alive(pid: int) -> bool:
    try:
        os.kill(pid, 0)
    except ProcessLookupError:
        return False
    with open(f"/proc/{pid}/stat") as stat_file:  # a zombie is gone too
        return stat_file.read().rsplit(")", 1)[1].split()[0] != "Z"


def _wait_for_line(process: subprocess.Popen[str], needle: str, limit: float) -> list[str]:
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


async def _reflected_services(port: int) -> set[str]:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)

        async def ask() -> AsyncIterator[reflection_pb2.ServerReflectionRequest]:
            yield reflection_pb2.ServerReflectionRequest(list_services="")

        async for reply in stub.ServerReflectionInfo(ask()):
            return {s.name for s in reply.list_services_response.service}
    return set()


async def _forged_operator_refused(port: int) -> bool:
    """A token signed with the development secret in the source: refused by the wallet."""
    forged, _ = TokenSigner(DEV_TOKEN_SECRET).issue("admin", [Role.OPERATOR])
    async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
        try:
            await WalletStub(channel).GetBalance(
                GetBalanceRequest(player_id="admin"),
                metadata=(("authorization", f"Bearer {forged}"),),
            )
        except grpc.aio.AioRpcError as error:
            return error.code() == grpc.StatusCode.UNAUTHENTICATED
    return False


async def test_tavolo_up_runs_every_service_and_stops_cleanly(
    platform: tuple[subprocess.Popen[str], dict[str, int]], tmp_path: Path
) -> None:
    process, ports = platform
    lines = _wait_for_line(process, "all services SERVING", limit=120)
    secret = tmp_path / "data" / "token-secret"
    assert stat.S_IMODE(secret.stat().st_mode) == 0o600
    assert await _forged_operator_refused(ports["wallet"])
    assert any("PostgreSQL   embedded" in line for line in lines)
    for name, port in ports.items():
        assert any(line.startswith(name) and f":{port}" in line for line in lines)
        async with grpc.aio.insecure_channel(f"127.0.0.1:{port}") as channel:
            health = health_pb2_grpc.HealthStub(channel)
            full_name = f"tavolo.v1.{SERVICES[name]}"
            reply = await health.Check(health_pb2.HealthCheckRequest(service=full_name))
            assert reply.status == health_pb2.HealthCheckResponse.SERVING
        assert full_name in await _reflected_services(port)
    process.send_signal(signal.SIGINT)
    rest, _ = process.communicate(timeout=60)
    assert process.returncode == 0, rest
    assert "stopped" in rest


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal")
def test_services_and_servers_stop_when_tavolo_up_is_killed_outright(
    platform: tuple[subprocess.Popen[str], dict[str, int]], tmp_path: Path
) -> None:
    process, _ = platform
    lines = _wait_for_line(process, "all services SERVING", limit=120)
    pids = [int(line.rsplit("pid ", 1)[1]) for line in lines if " pid " in line]
    assert len(pids) == len(SERVICES)
    process.kill()  # no chance to stop its children in order
    process.wait()
    deadline = time.monotonic() + 60
    while any(_alive(pid) for pid in pids) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not [pid for pid in pids if _alive(pid)], "services outlived tavolo up"
    # ...and so do the embedded PostgreSQL and NATS it started (its watchdog stops them)
    folder = str(tmp_path / "data")
    while _servers_under(folder) and time.monotonic() < deadline:
        time.sleep(0.2)
    assert not _servers_under(folder), "the embedded servers outlived tavolo up"
