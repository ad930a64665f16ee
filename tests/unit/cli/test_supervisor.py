"""The restart policy of `tavolo up`: back-off, steady reset, giving up on refusals."""

from __future__ import annotations

import io
import subprocess
import sys
from pathlib import Path

from tavolo.cli.platform.supervisor import (
    MAX_DELAY,
    REFUSALS_BEFORE_GIVING_UP,
    STEADY_SECONDS,
    Child,
    Supervisor,
    backoff,
)


class Clock:
    def __init__(self) -> None:
        self.now = 0.0

    def __call__(self) -> float:
        return self.now


def _exits_with(code: int) -> subprocess.Popen[bytes]:
    child = subprocess.Popen([sys.executable, "-c", f"import sys; sys.exit({code})"])
    child.wait(30)
    return child


def _runs() -> subprocess.Popen[bytes]:
    return subprocess.Popen([sys.executable, "-c", "import time; time.sleep(60)"])


def test_backoff_doubles_up_to_a_ceiling() -> None:
    assert [backoff(n) for n in (1, 2, 3, 4)] == [1.0, 2.0, 4.0, 8.0]
    assert backoff(50) == MAX_DELAY


def test_a_dead_service_is_restarted_after_its_backoff(tmp_path: Path) -> None:
    clock, out = Clock(), io.StringIO()
    started: list[subprocess.Popen[bytes]] = []

    def start(name: str) -> subprocess.Popen[bytes]:
        started.append(_runs())
        return started[-1]

    child = Child("engine", _exits_with(1))
    supervisor = Supervisor([child], start, lambda name: True, tmp_path, out, clock)
    try:
        assert supervisor.check() is None
        assert "engine exited with code 1; restarting in 1s" in out.getvalue()
        assert started == []  # not before the back-off
        clock.now = 1.0
        supervisor.check()
        assert started and child.process is started[0]
        supervisor.check()
        assert "engine SERVING again after restart 1" in out.getvalue()
    finally:
        for process in started:
            process.kill()
            process.wait()


def test_exits_in_a_row_wait_longer_until_the_service_is_steady(tmp_path: Path) -> None:
    clock, out = Clock(), io.StringIO()
    child = Child("wallet", _exits_with(1))
    supervisor = Supervisor(
        [child], lambda name: _exits_with(1), lambda name: True, tmp_path, out, clock
    )
    for _ in range(3):
        supervisor.check()  # notices the exit
        clock.now = child.restart_at or clock.now
        supervisor.check()  # restarts it: it exits again at once
    assert [
        line.split("restarting in ")[1][:2]
        for line in out.getvalue().splitlines()
        if "restarting in" in line
    ] == ["1s", "2s", "4s"]

    steady = _runs()
    try:
        child.process, child.restart_at = steady, None
        child.waiting_for_serving = True
        supervisor.check()  # SERVING again
        clock.now += STEADY_SECONDS
        supervisor.check()
        assert child.exits == 0  # the next exit waits 1 s again
    finally:
        steady.kill()
        steady.wait()


def test_a_service_that_keeps_refusing_to_start_stops_the_platform(tmp_path: Path) -> None:
    clock, out = Clock(), io.StringIO()
    (tmp_path / "lobby.log").write_text("tavolo lobby: cannot start: bad secret\n")
    child = Child("lobby", _exits_with(2))
    supervisor = Supervisor(
        [child], lambda name: _exits_with(2), lambda name: False, tmp_path, out, clock
    )
    problem = None
    for _ in range(REFUSALS_BEFORE_GIVING_UP * 2):
        problem = supervisor.check()
        if problem:
            break
        clock.now = child.restart_at or clock.now
        supervisor.check()
    assert problem is not None
    assert problem.startswith(f"lobby refused to start {REFUSALS_BEFORE_GIVING_UP} times in a row")
    assert problem.endswith("cannot start: bad secret")
