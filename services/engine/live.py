"""The in-memory cache of live tables a replica serves.

A cached table is only a copy: the event log is the truth, and every command checks the
stored head under the table's lock before deciding (a stale copy catches up first, and a
stale append is refused by the log anyway). The cache keeps each table's last few
versions, so a watcher a few events behind is served without touching the database;
older versions are rebuilt by replay.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Iterator
from dataclasses import dataclass, field
from typing import Any

from tavolo.tablelog.table import Table

HISTORY = 24
"""Versions kept per table: a watcher a little behind is served from memory; one further
behind (a reconnect after a while) costs one replay of the log."""


@dataclass
class LiveTable:
    """One table's latest version, its recent history, its seed and its bots."""

    table: Table
    seed: bytes
    history: deque[Table] = field(default_factory=lambda: deque(maxlen=HISTORY))
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)
    bots: dict[int, Any] = field(default_factory=dict)
    watchers: set[asyncio.Event] = field(default_factory=set)
    known_head: int = 0
    """The highest version another replica announced; above ``table.version`` the copy
    is known to be behind and the next reader catches up."""
    opened_by: str | None = None
    """The ``traceparent`` of the span that opened the table (in its first event's
    metadata, when tracing was on): the players' moves link to it (`tracing.linked`)."""
    ours: bool = False
    """This replica committed the table's latest known version: its timers are this
    replica's to fire at once. A table loaded only to be watched, or moved on by another
    replica since, is another's, and its timers wait for a takeover (`TimerLoop`)."""

    def __post_init__(self) -> None:
        if not self.history:
            self.history.append(self.table)

    def advance(self, table: Table) -> None:
        """Move on to ``table`` (one version or more ahead), keeping it in the history."""
        if table.version <= self.table.version:
            return
        self.table = table
        self.history.append(table)

    def at(self, version: int) -> Table | None:
        """The table at ``version`` if still in the history."""
        for table in reversed(self.history):
            if table.version == version:
                return table
            if table.version < version:
                return None
        return None

    @property
    def behind(self) -> bool:
        return self.known_head > self.table.version

    def announce(self, version: int) -> None:
        """A replica committed ``version`` (this one's own notices come back too): past
        the cached copy, another replica moved the table on, which is now its table."""
        if version > self.known_head:
            self.known_head = version
        if self.behind:
            self.ours = False
            self.wake_watchers()

    def settle(self) -> None:
        """A closed table that no one watches keeps only its last version, and no bots:
        nothing moves it again, its earlier versions are in the log, and every object
        kept alive here is one more for each full pass of the garbage collector (a cache
        of finished tables with their histories made those pauses grow run after run)."""
        if self.table.playing or self.watchers:
            return
        if len(self.history) > 1:
            self.history = deque([self.table], maxlen=HISTORY)
        self.bots.clear()

    def wake_watchers(self) -> None:
        for event in self.watchers:
            event.set()


class LiveTables:
    """An LRU map of table id to :class:`LiveTable`; tables being watched stay in."""

    def __init__(self, capacity: int = 10_000) -> None:
        self.capacity = capacity
        self._tables: OrderedDict[str, LiveTable] = OrderedDict()

    def get(self, table_id: str) -> LiveTable | None:
        live = self._tables.get(table_id)
        if live is not None:
            self._tables.move_to_end(table_id)
        return live

    def put(self, live: LiveTable) -> LiveTable:
        """Cache ``live`` unless another copy got in first; return the one cached."""
        existing = self._tables.get(live.table.table_id)
        if existing is not None:
            return existing
        self._tables[live.table.table_id] = live
        self._evict()
        return live

    def __len__(self) -> int:
        return len(self._tables)

    def holds(self, table_id: str) -> bool:
        """Whether the table is cached here (without counting as a use)."""
        return table_id in self._tables

    def owns(self, table_id: str) -> bool:
        """Whether this replica made the table's latest known commit (`LiveTable.ours`)."""
        live = self._tables.get(table_id)
        return live is not None and live.ours

    def __iter__(self) -> Iterator[LiveTable]:
        return iter(list(self._tables.values()))

    def in_play(self) -> int:
        """Tables still being played whose latest commit is this replica's: summed over
        the replicas, every table in play once (a table moves with its commits)."""
        return sum(1 for live in list(self._tables.values()) if live.ours and live.table.playing)

    def _evict(self) -> None:
        excess = len(self._tables) - self.capacity
        if excess <= 0:
            return
        for table_id, live in list(self._tables.items()):
            if excess <= 0:
                break
            if live.watchers or live.lock.locked():
                continue
            del self._tables[table_id]
            excess -= 1
