"""Keeps ``tavolo up``'s services running: a service that dies is started again.

One process dying is not an outage. Like a Kubernetes pod's restart policy, a service
that exits while the platform is up is restarted after a back-off that doubles with each
exit (1 s, 2 s, 4 s ... at most :data:`MAX_DELAY`) and starts again from the bottom once
the service has stayed SERVING for :data:`STEADY_SECONDS`. Every exit and every return to
SERVING is printed on the console.

One exit is not retried for ever: code 2 is a service refusing to start as configured
(bad settings, a database or NATS it cannot use; see ``servicekit.runtime``). A service
that refuses at the platform's first start already stops ``tavolo up`` with its reason
(:func:`tavolo.cli.platform.up._wait_ready`). After it has served, a refusal may be passing (the
database restarting), so it is retried, but :data:`REFUSALS_BEFORE_GIVING_UP` refusals in
a row, with no SERVING between them, stop the platform with the last reason, where a
loop would only hide it.
"""

from __future__ import annotations

import signal
import subprocess
import time
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import TextIO

FIRST_DELAY = 1.0
MAX_DELAY = 30.0
STEADY_SECONDS = 60.0
REFUSALS_BEFORE_GIVING_UP = 5
STARTUP_REFUSAL = 2
"""The exit code of a service that cannot start as configured (``run_service``)."""

Start = Callable[[str], "subprocess.Popen[bytes]"]
Serving = Callable[[str], bool]


def backoff(exits: int) -> float:
    """Seconds to wait before the start that follows the ``exits``-th exit in a row."""
    return float(min(FIRST_DELAY * 2 ** max(exits - 1, 0), MAX_DELAY))


def exit_text(code: int) -> str:
    """``code 1`` or ``signal SIGKILL``, as the console says how a process ended."""
    if code < 0:
        try:
            return f"signal {signal.Signals(-code).name}"
        except ValueError:
            return f"signal {-code}"
    return f"code {code}"


@dataclass
class Child:
    """One service process and its restart history."""

    name: str
    process: subprocess.Popen[bytes]
    exits: int = 0
    """Exits since the service was last steadily SERVING."""
    refusals: int = 0
    """Code-2 exits in a row with no SERVING between them."""
    restarts: int = 0
    restart_at: float | None = None
    """When the next start is due, while the service is down."""
    serving_since: float | None = None
    waiting_for_serving: bool = False


class Supervisor:
    """Watches the children of ``tavolo up``; :meth:`check` is called every half second."""

    def __init__(
        self,
        children: list[Child],
        start: Start,
        serving: Serving,
        logs: Path,
        out: TextIO,
        clock: Callable[[], float] = time.monotonic,
    ) -> None:
        self.children, self.start, self.serving = children, start, serving
        self.logs, self.out, self.clock = logs, out, clock
        now = clock()
        for child in children:
            child.serving_since = now

    def check(self) -> str | None:
        """Restart what died, note what serves again; the reason to stop, if any."""
        now = self.clock()
        for child in self.children:
            if child.restart_at is not None:
                if now >= child.restart_at:
                    self._restart(child)
                continue
            code = child.process.poll()
            if code is not None:
                problem = self._exited(child, code, now)
                if problem:
                    return problem
            elif child.waiting_for_serving and self.serving(child.name):
                child.waiting_for_serving = False
                child.serving_since = now
                child.refusals = 0
                self._say(f"{child.name} SERVING again after restart {child.restarts}")
            elif (
                child.exits
                and child.serving_since is not None
                and now - child.serving_since >= STEADY_SECONDS
            ):
                child.exits = 0  # steady again: the next exit waits FIRST_DELAY
        return None

    def _exited(self, child: Child, code: int, now: float) -> str | None:
        log = self.logs / f"{child.name}.log"
        child.exits += 1
        child.serving_since = None
        child.waiting_for_serving = False
        if code == STARTUP_REFUSAL:
            child.refusals += 1
            if child.refusals >= REFUSALS_BEFORE_GIVING_UP:
                return (
                    f"{child.name} refused to start {child.refusals} times in a row "
                    f"(code {code}); log {log}{last_line(log)}"
                )
        delay = backoff(child.exits)
        child.restart_at = now + delay
        self._say(
            f"{child.name} exited with {exit_text(code)}; restarting in {delay:.0f}s "
            f"(exit {child.exits} in a row); log {log}"
        )
        return None

    def _restart(self, child: Child) -> None:
        child.restart_at = None
        child.restarts += 1
        child.process = self.start(child.name)
        child.waiting_for_serving = True
        self._say(f"{child.name} restarted (restart {child.restarts}, pid {child.process.pid})")

    def _say(self, line: str) -> None:
        print(line, file=self.out, flush=True)


def last_line(log: Path) -> str:
    """A service that cannot start says why in its last line ("cannot start: ...")."""
    try:
        lines = log.read_text(errors="replace").strip().splitlines()
    except OSError:
        return ""
    return f"\n  {lines[-1]}" if lines else ""
