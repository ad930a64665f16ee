"""`tavolo up --nats-cluster 3` (OPS-3): the embedded NATS runs as a JetStream cluster of
three nodes, the services are given all three and keep the events stream on all three,
and the three nodes stop with `tavolo up`, even when it is killed outright."""

from __future__ import annotations

import asyncio
import os
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

import pytest

from tavolo.messaging import Topology
from tavolo.servicekit.connect import connect_nats
from tavolo.servicekit.embedded import free_port
from tests.e2e.test_platform_up import (
    SERVICES,
    _alive,
    _ignore_sigint,
    _servers_under,
    _stop_servers_under,
    _wait_for_line,
)

pytestmark = pytest.mark.e2e


def _up(tmp_path: Path, *args: str) -> subprocess.Popen[str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAVOLO_")}
    env.update(
        {
            "TAVOLO_DATA_DIR": str(tmp_path / "data"),
            **{f"TAVOLO_{n.upper()}_PORT": str(free_port()) for n in SERVICES},
            **{f"TAVOLO_{n.upper()}_METRICS_PORT": "0" for n in SERVICES},
        }
    )
    return subprocess.Popen(
        [sys.executable, "-m", "tavolo.cli", "up", *args],
        env=env,
        text=True,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        preexec_fn=_ignore_sigint,
    )


@pytest.fixture
def cluster_up(tmp_path: Path) -> Iterator[subprocess.Popen[str]]:
    process = _up(tmp_path, "--nats-cluster", "3")
    yield process
    if process.poll() is None:
        process.kill()
        process.wait()
    _stop_servers_under(tmp_path / "data")


@pytest.mark.skipif(not sys.platform.startswith("linux"), reason="the parent-death signal")
async def test_tavolo_up_runs_the_platform_on_a_three_node_nats_cluster(
    cluster_up: subprocess.Popen[str], tmp_path: Path
) -> None:
    lines = _wait_for_line(cluster_up, "all services SERVING", limit=180)
    (announced,) = [line for line in lines if "embedded cluster of 3 nodes" in line]
    named = announced.split(" at ", 1)[1].split(",")
    urls = [part.strip().split()[0] for part in named if part.strip().startswith("nats://")]
    assert len(urls) == 3
    nc = await connect_nats(",".join(urls))
    try:
        info = await nc.jetstream().stream_info(Topology("tavolo").events_stream)
    finally:
        await nc.close()
    assert info.config.num_replicas == 3
    assert info.cluster is not None and info.cluster.leader
    assert len(info.cluster.replicas or []) == 2
    folder = str(tmp_path / "data")
    nats_nodes = [pid for pid, command in _servers_under(folder) if "nats-server" in command]
    assert len(nats_nodes) == 3

    cluster_up.kill()  # no chance to stop its servers itself: its watchdog does
    cluster_up.wait()
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if not any(_alive(pid) for pid in nats_nodes):
            break
        await asyncio.sleep(0.2)
    assert not [pid for pid in nats_nodes if _alive(pid)], "NATS nodes outlived tavolo up"


def test_a_cluster_of_no_node_is_refused(tmp_path: Path) -> None:
    process = _up(tmp_path, "--nats-cluster", "0")
    out, _ = process.communicate(timeout=60)
    assert process.returncode == 2
    assert "--nats-cluster takes 1 node or more, not 0" in out
