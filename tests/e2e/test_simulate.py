"""`tavolo simulate --chaos`: simulated players on a whole platform while its parts are
killed, paused and restarted, and every invariant still holds at the end.

The command is run as a person runs it, in a process of its own; it starts its own
platform (embedded PostgreSQL and NATS, the four services under `tavolo up`). `make test`
runs a short population; `make soak` (TAVOLO_SOAK=full) a long and larger one.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.scale import scaled

pytestmark = [pytest.mark.e2e, pytest.mark.fault]

PLAYERS = scaled(10, 60)
MINUTES = scaled(1.25, 15.0)
KILLS = scaled(1, 3)


def test_every_invariant_holds_after_a_simulated_crowd_and_chaos(tmp_path: Path) -> None:
    _simulate_and_check(tmp_path)


def test_every_invariant_holds_when_chaos_kills_a_nats_cluster_node(tmp_path: Path) -> None:
    """OPS-3: on a three-node NATS cluster, chaos kills the node leading the events stream
    (SIGKILL) where it would restart NATS, and every invariant still holds."""
    report = _simulate_and_check(tmp_path, "--nats-cluster", "3")
    assert report["settings"]["nats_nodes"] == 3
    (nats_fault,) = [f for f in report["chaos"]["faults"] if f["fault"] == "restart NATS"]
    assert nats_fault["detail"].startswith("SIGKILL NATS node n")


def _simulate_and_check(tmp_path: Path, *extra: str) -> dict[str, Any]:
    report_file = tmp_path / "report.json"
    env = {k: v for k, v in os.environ.items() if not k.startswith("TAVOLO_")}
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tavolo.cli",
            "simulate",
            "--players",
            str(PLAYERS),
            "--minutes",
            str(MINUTES),
            "--chaos",
            "--kills-per-service",
            str(KILLS),
            "--pace",
            "fast",
            "--plain",
            "--data-dir",
            str(tmp_path / "platform"),
            "--report",
            str(report_file),
            *extra,
        ],
        env=env,
        capture_output=True,
        text=True,
        timeout=MINUTES * 60 + 900,
    )
    assert report_file.exists(), done.stdout[-4000:] + done.stderr[-4000:]
    report = json.loads(report_file.read_text())
    broken = [c for c in report["invariants"] if not c["held"]]
    assert not broken, json.dumps(broken, indent=2)
    assert done.returncode == 0, done.stdout[-4000:]
    # the players got to the tables: every one signed up, and tables formed for them
    # (how far they play in 75 s of faults depends on the machine's load; not asserted)
    assert report["players_playing"] == PLAYERS
    assert report["tables"]["total"] > 0
    # each service was killed and came back; NATS and PostgreSQL restarted; a pause
    summary = report["chaos"]["summary"]
    assert summary["kill_struck"] == 4 * KILLS
    assert summary["kill_survived"] == summary["kill_struck"]
    assert summary["nats_survived"] == summary["postgres_survived"] == 1
    assert summary["pause_survived"] == summary["pause_struck"] >= 1
    # and `tavolo up` said so for every kill
    exits = [line for line in report["supervisor"] if "exited with signal SIGKILL" in line]
    assert len(exits) == 4 * KILLS
    assert "INTERNAL" not in report["errors_by_status"]
    assert "UNKNOWN" not in report["errors_by_status"]
    return report
