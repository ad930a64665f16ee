"""The watchdog of `tavolo up`'s embedded servers: it leaves once its parent is gone, and
signals only the programs it was told of (a pid is reused once its process ends). The
whole of it, `tavolo up` killed outright, is tests/e2e/test_platform_up.py."""

from __future__ import annotations

import subprocess
import sys
import time
from pathlib import Path

from tavolo.servicekit.watchdog import stop_orphans

PARENT = """
import os
from tavolo.servicekit import watchdog
print(watchdog.start(os.getpid(), None, []).pid, flush=True)
"""


def _running(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


def test_the_watchdog_leaves_once_its_parent_is_gone() -> None:
    parent = subprocess.Popen([sys.executable, "-c", PARENT], stdout=subprocess.PIPE, text=True)
    assert parent.stdout is not None
    child = int(parent.stdout.readline())
    parent.wait()
    deadline = time.monotonic() + 10
    while _running(child) and time.monotonic() < deadline:
        time.sleep(0.1)
    assert not _running(child), "the watchdog outlived its parent"


def test_a_pid_that_is_no_longer_the_server_is_left_alone(tmp_path: Path) -> None:
    bystander = subprocess.Popen(["sleep", "30"])
    try:
        (tmp_path / "postmaster.pid").write_text(f"{bystander.pid}\n{tmp_path}\n")
        stop_orphans(tmp_path, bystander.pid)  # neither postgres nor nats-server
        time.sleep(0.3)
        assert bystander.poll() is None
    finally:
        bystander.kill()
        bystander.wait()
