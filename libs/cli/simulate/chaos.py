"""Breaking the platform while the population plays: the faults and when they strike.

A plan is drawn once from the run's seed: each of the four services is killed with
SIGKILL several times, NATS and PostgreSQL are each restarted, and a service is paused
with SIGSTOP for longer than its turn timers, then resumed with SIGCONT. The faults are
spread over the run with random jitter and kept out of its last part, so the platform
has settled by the time the players stop and the invariants are checked.

A kill counts as survived once ``tavolo up``'s supervisor has said the service serves
again; the report lists every fault with how long the platform took to come back.
"""

from __future__ import annotations

import asyncio
import random
import signal
import time
from dataclasses import dataclass, field

from tavolo.cli.simulate.platform import SimPlatform
from tavolo.servicekit.embedded import EmbeddedServerError
from tavolo.servicekit.settings import SERVICES

RECOVERY_LIMIT = 180.0
"""A killed service not serving again after this many seconds counts as not survived."""
QUIET_FRACTION = 0.8
"""No fault starts in the last fifth of the run."""


@dataclass(frozen=True)
class Fault:
    """One fault: ``kind`` is kill, pause, nats or postgres; ``target`` a service."""

    at: float
    """Seconds after the run started."""
    kind: str
    target: str = ""
    seconds: float = 0.0
    """How long a pause or a server restart keeps the target down."""

    def describe(self) -> str:
        if self.kind == "kill":
            return f"SIGKILL {self.target}"
        if self.kind == "pause":
            return f"SIGSTOP {self.target} for {self.seconds:.0f}s"
        return f"restart {'NATS' if self.kind == 'nats' else 'PostgreSQL'}"


def plan(
    duration: float,
    seed: int,
    kills_per_service: int = 3,
    pause_seconds: float = 20.0,
    start_after: float = 15.0,
) -> list[Fault]:
    """Every fault of a run of ``duration`` seconds, in time order."""
    rng = random.Random(seed)
    kinds: list[tuple[str, str, float]] = [
        ("kill", service, 0.0) for service in SERVICES for _ in range(kills_per_service)
    ]
    kinds += [("nats", "", 3.0), ("postgres", "", 3.0), ("pause", "engine", pause_seconds)]
    kinds += [("pause", rng.choice(("lobby", "wallet", "leaderboard")), pause_seconds)]
    rng.shuffle(kinds)
    end = max(start_after + 1.0, duration * QUIET_FRACTION)
    step = (end - start_after) / len(kinds)
    return [
        Fault(start_after + step * (i + rng.uniform(0.0, 0.6)), kind, target, seconds)
        for i, (kind, target, seconds) in enumerate(kinds)
    ]


@dataclass
class Struck:
    """A fault as it happened."""

    fault: Fault
    at: float
    detail: str = ""
    recovered_after: float | None = None
    """Seconds until the target served again; None while (or if never) it did."""


@dataclass
class Chaos:
    """Runs a plan against a platform; :attr:`struck` is the report's list of faults."""

    platform: SimPlatform
    faults: list[Fault]
    struck: list[Struck] = field(default_factory=list)
    recovering: dict[str, asyncio.Task[None]] = field(default_factory=dict)
    """Killed services not serving again yet: the next fault on one waits for it."""

    async def run(self, started: float) -> None:
        for fault in self.faults:
            wait = started + fault.at - time.monotonic()
            if wait > 0:
                await asyncio.sleep(wait)
            await self.strike(fault, started)

    async def strike(self, fault: Fault, started: float) -> None:
        if fault.target in self.recovering:
            await self.recovering.pop(fault.target)
        record = Struck(fault, time.monotonic() - started)
        self.struck.append(record)
        began = time.monotonic()
        try:
            if fault.kind == "kill":
                before = self.platform.console.served_again.get(fault.target, 0)
                pid = self.platform.signal_service(fault.target, signal.SIGKILL)
                record.detail = f"pid {pid}"
                self.recovering[fault.target] = asyncio.create_task(
                    self._await_serving(record, fault.target, before, began)
                )
            elif fault.kind == "pause":
                pid = self.platform.signal_service(fault.target, signal.SIGSTOP)
                record.detail = f"pid {pid}"
                try:
                    await asyncio.sleep(fault.seconds)
                finally:
                    self.platform.signal_service(fault.target, signal.SIGCONT)
                record.recovered_after = time.monotonic() - began
            elif fault.kind == "nats":
                record.detail = await asyncio.to_thread(self.platform.restart_nats, fault.seconds)
                record.recovered_after = time.monotonic() - began
            else:
                await asyncio.to_thread(self.platform.restart_postgres, fault.seconds)
                record.recovered_after = time.monotonic() - began
        except (OSError, KeyError, EmbeddedServerError) as exc:
            record.detail = f"could not strike: {exc}"[:300]

    async def _await_serving(self, record: Struck, name: str, before: int, began: float) -> None:
        deadline = began + RECOVERY_LIMIT
        while time.monotonic() < deadline:
            if self.platform.console.served_again.get(name, 0) > before:
                record.recovered_after = time.monotonic() - began
                return
            await asyncio.sleep(0.5)

    async def recoveries(self) -> None:
        """Wait for every killed service to serve again (or for its recovery limit)."""
        while self.recovering:
            await self.recovering.popitem()[1]

    def summary(self) -> dict[str, int]:
        """Faults struck and survived, by kind."""
        counts: dict[str, int] = {}
        for record in self.struck:
            kind = record.fault.kind
            counts[f"{kind}_struck"] = counts.get(f"{kind}_struck", 0) + 1
            if record.recovered_after is not None:
                counts[f"{kind}_survived"] = counts.get(f"{kind}_survived", 0) + 1
        return counts
