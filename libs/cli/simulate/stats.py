"""What the simulated players saw, counted as they see it: calls, latencies, refusals.

Every call a simulated client makes goes through :meth:`Stats.call_done`, so the live
display and the final report read the same numbers. Latencies are kept whole (a float per
call: a 30-minute run of 200 players is a few hundred thousand calls), so the report's
percentiles are exact rather than estimated.
"""

from __future__ import annotations

import math
import time
from collections import Counter, deque
from dataclasses import dataclass, field

WINDOW_SECONDS = 10.0
"""The live display's rates and percentiles cover the last this-many seconds."""


def percentile(values: list[float], fraction: float) -> float:
    """The nearest-rank percentile of ``values`` (0.0 for none)."""
    if not values:
        return 0.0
    ordered = sorted(values)
    rank = max(0, min(len(ordered) - 1, math.ceil(fraction * len(ordered)) - 1))
    return ordered[rank]


@dataclass
class TableRecord:
    """One table a simulated player sat at, as the players saw it."""

    table_id: str
    game: str
    mode: str
    stake: int
    players: list[str] = field(default_factory=list)
    """The simulated players seated there (player ids)."""
    status: str = "PLAYING"
    receipt: str = ""
    """The log hash the table handed its seats when it ended."""


@dataclass
class Stats:
    """Counters shared by every simulated player of one run."""

    started: float = field(default_factory=time.monotonic)
    calls: Counter[str] = field(default_factory=Counter)
    codes: Counter[str] = field(default_factory=Counter)
    """Status names of every call that did not answer OK."""
    unexpected: list[str] = field(default_factory=list)
    """INTERNAL and UNKNOWN answers: which call, and what it said."""
    latencies: list[float] = field(default_factory=list)
    actions: int = 0
    chats: int = 0
    activities: Counter[str] = field(default_factory=Counter)
    tables: dict[str, TableRecord] = field(default_factory=dict)
    cancelled_stakes: int = 0
    bot_fallbacks: int = 0
    players_ready: int = 0
    players_done: int = 0
    comebacks: int = 0
    refreshes: int = 0
    _recent: deque[tuple[float, float, bool]] = field(default_factory=deque)
    """(when, seconds, is an action) of the calls in the live window."""

    def call_done(self, method: str, seconds: float, code: str, detail: str = "") -> None:
        now = time.monotonic()
        self.calls[method] += 1
        self.latencies.append(seconds)
        is_action = method == "Act" and code == "OK"
        if is_action:
            self.actions += 1
        if code != "OK":
            self.codes[code] += 1
            if code in ("INTERNAL", "UNKNOWN"):
                self.unexpected.append(f"{method}: {code} {detail}"[:300])
        self._recent.append((now, seconds, is_action))
        while self._recent and self._recent[0][0] < now - WINDOW_SECONDS:
            self._recent.popleft()

    def table(self, record: TableRecord) -> TableRecord:
        """The shared record of a table (the first player to sit there makes it)."""
        return self.tables.setdefault(record.table_id, record)

    # -- what the display and the report read --------------------------------------------

    def elapsed(self) -> float:
        return time.monotonic() - self.started

    def live_rates(self) -> tuple[float, float, float, float]:
        """(calls/s, actions/s, p50, p99 seconds) over the last window."""
        window = list(self._recent)
        span = min(WINDOW_SECONDS, max(self.elapsed(), 1.0))
        seconds = [s for _, s, _ in window]
        actions = sum(1 for _, _, a in window if a)
        return (
            len(window) / span,
            actions / span,
            percentile(seconds, 0.50),
            percentile(seconds, 0.99),
        )

    def table_counts(self) -> Counter[str]:
        return Counter(record.status for record in self.tables.values())
