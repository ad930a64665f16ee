"""Where the milliseconds of one table's ``Act`` go, as seen from inside one process.

`bench_engine.py --timeline` wraps a few of the engine's methods with timestamps (the
engine runs in the bench's process, so one clock serves the client and the engine) and
prints, for the player's actions at one table, the median time from the client's send to
each step: the call reaching the servicer, the decision made (the commit statement sent),
the statement back (its WAL flush included), the watcher's view handed to gRPC, the
answer handed to gRPC, the notice of the commit back from PostgreSQL, and the client
seeing the stream's view and the answer.
"""

from __future__ import annotations

import asyncio
import statistics
import time
from collections import defaultdict
from collections.abc import AsyncIterator, Iterator
from contextlib import contextmanager
from typing import Any

from tavolo.engine.grpc_api import EngineServicer
from tavolo.engine.notifications import TableNotifications
from tavolo.engine.store import TableStore

STEPS = (
    ("arrived", "the call reaches the servicer (past the interceptor)"),
    ("decided", "decided: the commit statement is sent"),
    ("committed", "the statement is back (its WAL flush included)"),
    ("view_sent", "the watcher's view handed to gRPC"),
    ("answered", "the answer handed to gRPC"),
    ("noticed", "the commit's notice back from PostgreSQL"),
    ("shown", "the client's stream shows it (the bench's figure)"),
    ("replied", "the client has the answer"),
)

Key = tuple[str, int]


class Timeline:
    """Timestamps per (table, version) of the player's actions."""

    def __init__(self) -> None:
        self.marks: dict[Key, dict[str, float]] = defaultdict(dict)
        self.turns: dict[Key, dict[str, int]] = defaultdict(dict)
        self.sent: dict[Key, float] = {}
        self.turn = 0

    def clear(self) -> None:
        """Forget what was noted (the next level starts)."""
        self.marks.clear()
        self.turns.clear()
        self.sent.clear()

    def mark(self, key: Key, step: str, at: float | None = None, turn: int | None = None) -> None:
        if step not in self.marks[key]:
            self.marks[key][step] = time.perf_counter() if at is None else at
            self.turns[key][step] = self.turn if turn is None else turn

    def client(self, table_id: str, version: int, sent: float, replied: float) -> None:
        """The client's own times for the action that produced ``version``."""
        self.sent[(table_id, version)] = sent
        self.mark((table_id, version), "replied", replied)

    def shown(self, table_id: str, version: int, at: float) -> None:
        self.mark((table_id, version), "shown", at)

    def report(self, tables: int) -> list[str]:
        offsets: dict[str, list[float]] = defaultdict(list)
        turns: dict[str, list[int]] = defaultdict(list)
        for key, sent in self.sent.items():
            arrived = self.turns[key].get("arrived")
            for step, at in self.marks[key].items():
                offsets[step].append((at - sent) * 1000)
                if arrived is not None:
                    turns[step].append(self.turns[key][step] - arrived)
        lines = [
            f"  timeline of {len(self.sent)} actions at {tables} table(s), median after the"
            " client's send, its p99, and the median turns of the event loop after the call"
            " reached the servicer:"
        ]
        for step, words in STEPS:
            found = offsets.get(step)
            if found:
                turn = statistics.median(turns[step]) if turns.get(step) else float("nan")
                p99 = sorted(found)[int(0.99 * (len(found) - 1))]
                lines.append(
                    f"  {statistics.median(found):6.2f} ms {p99:7.2f} ms {turn:4.0f}  {words}"
                )
        return lines

    def _count_turns(self, loop: Any) -> Any:
        """Count the loop's turns (each `_run_once`); returns what to restore."""
        run_once = loop._run_once

        def counted() -> None:
            self.turn += 1
            run_once()

        loop._run_once = counted
        return run_once

    @contextmanager
    def installed(self) -> Iterator[None]:
        """Wrap the engine's methods for the duration (restored afterwards)."""
        act, watch = EngineServicer.Act, EngineServicer.WatchTable
        commit, notified = TableStore.commit_commands, TableNotifications._on_notify
        timeline = self

        async def timed_act(servicer: EngineServicer, request: Any, context: Any) -> Any:
            arrived, turn = time.perf_counter(), timeline.turn
            reply = await act(servicer, request, context)
            key = (request.table_id, reply.view.version)
            timeline.mark(key, "arrived", arrived, turn)
            timeline.mark(key, "answered")
            return reply

        async def timed_watch(
            servicer: EngineServicer, request: Any, context: Any
        ) -> AsyncIterator[Any]:
            async for view in watch(servicer, request, context):
                timeline.mark((request.table_id, view.version), "view_sent")
                yield view

        async def timed_commit(store: TableStore, commands: Any, *args: Any, **kw: Any) -> Any:
            decided, turn = time.perf_counter(), timeline.turn
            outcomes = await commit(store, commands, *args, **kw)
            for command in commands:
                if command.request is not None and command.version is not None:
                    key = (command.table_id, command.version)
                    timeline.mark(key, "decided", decided, turn)
                    timeline.mark(key, "committed")
            return outcomes

        def timed_notice(notifications: TableNotifications, *args: Any) -> None:
            for line in args[-1].splitlines():
                table_id, _, version = line.partition(" ")
                if version.isdigit():
                    timeline.mark((table_id, int(version)), "noticed")
            notified(notifications, *args)

        loop = asyncio.get_running_loop()
        run_once = self._count_turns(loop)
        EngineServicer.Act = timed_act  # type: ignore[method-assign]
        EngineServicer.WatchTable = timed_watch  # type: ignore[method-assign,assignment]
        TableStore.commit_commands = timed_commit  # type: ignore[method-assign]
        TableNotifications._on_notify = timed_notice  # type: ignore[method-assign]
        try:
            yield
        finally:
            loop._run_once = run_once  # type: ignore[attr-defined]
            EngineServicer.Act = act  # type: ignore[method-assign]
            EngineServicer.WatchTable = watch  # type: ignore[method-assign]
            TableStore.commit_commands = commit  # type: ignore[method-assign]
            TableNotifications._on_notify = notified  # type: ignore[method-assign]
