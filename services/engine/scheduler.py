"""The timer loop: fires due turn timers, call windows and bot moves, each exactly once.

Deadlines are rows written in the same transaction as the event that started them. The
loop reads the due ones and fires each through the ordinary command path, which locks the
table's row with SKIP LOCKED and re-checks that the deadline still exists: if another
replica is firing it (or a player's action is being committed) this replica moves on,
and whoever commits first deletes the row in the same transaction as its event. So a
timer fires once across replicas, and after a restart the rows are simply still there.
An expiry is recorded as an ``EXPIRE`` action, so replay needs no clock. The one clock is
the database's: "due" means ``due_at <= now()`` in SQL, and the firing transaction checks
it again, so a replica whose own clock runs fast or slow fires nothing early or late.

`run` fires due rows as soon as a slot is free and looks for more as soon as a firing is
done (or a commit leaves a timer due before its next look), instead of waiting for a
whole batch: one slow table no longer holds every other table's bots back. The due rows
of up to ``together`` tables fire in one statement (`TableRepository.fire_together`):
under load most of a bot move's cost was its five round trips and its commit, not the
move. A table fires one due row per look; a second row of the same table (a turn timer
beside a bot move) is still due at the next look.

Players come first. gRPC's asyncio server takes a new call about once per turn of the
event loop, so when bots keep the loop busy every player's call waits at the door: a
batch during which a player sent a command is followed by a pause as long as the batch.
While players act, bots then take at most half the loop (at 200 tables of one player and
three bots with no think time, `Act` p50 600 ms without the pause, 16 ms with it, the
moves per second the same); bots among themselves run at full speed.

Each replica fires at once the deadlines of its own tables (`LiveTable.ours`: it made
their latest commit), and another's only once they have waited ``takeover_seconds``
longer than its own due deadlines are waiting (`to_fire`). Every replica sees every due
row, and replicas that fired each other's tables would each load them, catch up from the
log and wake their watchers through notices, doing twice the work for one move. Why the
wait is relative: under load every row waits, a replica's own as much as another's (at 200
tables of bots on two replicas sharing this machine, rows waited up to half a second),
and with a fixed delay the replicas took each other's tables all the time and played 14%
fewer moves together than one replica alone. A replica that stops falls ever further
behind the others, so its tables are taken over once they have waited that much longer;
the table's timers are then the new owner's, and the old owner, told of the commit, fires
them no more.
"""

from __future__ import annotations

import asyncio
import functools
import time
from collections import defaultdict
from collections.abc import Callable, Collection, Sequence
from datetime import timedelta

import structlog

from tavolo.engine.app import EngineApp
from tavolo.engine.store import DeadlineRow, TableStore
from tavolo.servicekit.errors import DomainError
from tavolo.servicekit.metrics import (
    TIMER_GAVE_WAY_SECONDS,
    TIMER_OVERDUE_SECONDS,
    TIMER_TAKEOVERS,
)
from tavolo.servicekit.runtime import cancel_and_wait
from tavolo.servicekit.waiting import wait_event

log = structlog.get_logger("tavolo.engine.timers")


class TimerLoop:
    """Polls for due deadlines (and wakes early when this replica starts one)."""

    def __init__(
        self,
        store: TableStore,
        app: EngineApp,
        *,
        poll_seconds: float = 0.25,
        batch: int = 200,
        concurrency: int = 6,
        together: int = 8,
        takeover_seconds: float = 0.5,
    ) -> None:
        self._store = store
        self._app = app
        self._poll = poll_seconds
        self._batch = batch
        self._together = together
        self._slots = asyncio.Semaphore(concurrency)
        # One batch in flight: a batch decides its tables in the event loop, and with more
        # than one at a time the loop's turns grow long enough that the gRPC server, which
        # takes a few turns to accept each call, leaves players' calls queued (measured at
        # 200 tables, batches of 16: Act p50 700 ms with two in flight, 70 ms with one).
        self._batch_slot = asyncio.Semaphore(1)
        self._takeover = takeover_seconds
        self._wake = asyncio.Event()
        self._busy: set[str] = set()
        self._running: set[asyncio.Task[int]] = set()
        for counter in (TIMER_TAKEOVERS, TIMER_GAVE_WAY_SECONDS):
            counter.labels("engine")  # exported at 0 from the start, so rates see the first

    def poke(self) -> None:
        """A deadline may be due now (a bot with no think time): look at once."""
        self._wake.set()

    def committed(self, wanted: Sequence[DeadlineRow]) -> None:
        """A command committed and its table now wants these timers: look at once only
        if one falls due before the loop's next regular look (a bot thinking less than
        a poll); the loop finds the others in time by itself. A look finding nothing
        costs two statements (the due rows, then the next due time), and a player's
        action at a table of people, whose turn timers run for seconds, woke the loop
        for nothing after every commit."""
        clock = self._store.clock
        if not clock.known:
            self.poke()
            return
        soon = clock.now() + timedelta(seconds=self._poll)
        if any(row.due <= soon for row in wanted):
            self.poke()

    async def run(self) -> None:
        try:
            while True:
                self._wake.clear()
                started = await self._start_due()
                if started:
                    await self._wait(self._poll)
                else:
                    await self._sleep(0)
        finally:
            # a firing left running would hold a pooled connection past the pool's close
            await cancel_and_wait(self._running)

    async def _start_due(self) -> int:
        """Start firing the due tables that are not being fired yet; how many started."""
        due = await self._store.due_waits(self._batch)
        TIMER_OVERDUE_SECONDS.labels("engine").set(max((w for _, w in due), default=0.0))
        owns = self._app.repo.cache.owns
        firsts = to_fire(due, owns, self._busy, self._takeover)
        taken = sum(not owns(row.table_id) for row in firsts)
        if taken:
            TIMER_TAKEOVERS.labels("engine").inc(taken)
        for start in range(0, len(firsts), self._together):
            rows = firsts[start : start + self._together]
            tables = [row.table_id for row in rows]
            self._busy.update(tables)
            task = asyncio.get_running_loop().create_task(self._fire_rows(rows))
            self._running.add(task)
            task.add_done_callback(functools.partial(self._done, tables))
        return len(firsts)

    def _done(self, tables: list[str], task: asyncio.Task[int]) -> None:
        self._running.discard(task)
        self._busy.difference_update(tables)
        self._wake.set()

    async def _fire_rows(self, rows: list[DeadlineRow]) -> int:
        """One timer each of several tables: together in one statement, and alone those
        the batch could not take (see `TableRepository.fire_together`)."""
        if len(rows) == 1:
            return await self._fire_table(rows)
        async with self._batch_slot:
            players = self._app.player_acted_at
            started = time.perf_counter()
            try:
                fired, alone = await self._app.fire_together(rows)
            except Exception:
                log.exception("timers fired together failed", tables=len(rows))
                fired, alone = 0, rows
            if self._app.player_acted_at != players:
                # Players first: while they act, bots take at most half the loop's time
                # (the batch slot stays held, so no other batch starts meanwhile).
                pause = time.perf_counter() - started
                TIMER_GAVE_WAY_SECONDS.labels("engine").inc(pause)
                await asyncio.sleep(pause)
        return fired + await self._fire_table(alone)

    async def fire_due(self) -> int:
        """Fire what is due now; tables in parallel, each table's deadlines in order."""
        rows, waited = await self._store.due(self._batch)
        TIMER_OVERDUE_SECONDS.labels("engine").set(waited)
        by_table: dict[str, list[DeadlineRow]] = defaultdict(list)
        for row in rows:
            by_table[row.table_id].append(row)
        counts = await asyncio.gather(*(self._fire_table(r) for r in by_table.values()))
        return sum(counts)

    async def _fire_table(self, rows: list[DeadlineRow]) -> int:
        fired = 0
        async with self._slots:
            for row in rows:
                try:
                    if await self._app.fire(row):
                        fired += 1
                except DomainError as exc:  # the table is gone or busy: try again later
                    log.info(
                        "timer not fired", table_id=row.table_id, timer=row.key, reason=str(exc)
                    )
                except Exception:
                    log.exception("timer failed", table_id=row.table_id, timer=row.key)
        return fired

    async def _sleep(self, fired: int) -> None:
        delay = self._poll
        if not fired:
            wait = await self._store.next_due()
            if wait is not None:
                delay = min(delay, max(wait.total_seconds(), 0.02))
        else:
            delay = 0.0
        if delay <= 0:
            return
        await self._wait(delay)

    async def _wait(self, seconds: float) -> None:
        await wait_event(self._wake, seconds)


def to_fire(
    due: Sequence[tuple[DeadlineRow, float]],
    owns: Callable[[str], bool],
    busy: Collection[str],
    takeover: float,
) -> list[DeadlineRow]:
    """The first due row of each table to fire now (a table's next row is due again at
    the next look): every table this replica owns, and another's whose row has waited
    ``takeover`` seconds longer than the longest wait among this replica's own rows."""
    own_lag = max((waited for row, waited in due if owns(row.table_id)), default=0.0)
    firsts: dict[str, tuple[DeadlineRow, float]] = {}
    for row, waited in due:
        if row.table_id not in busy:
            firsts.setdefault(row.table_id, (row, waited))
    return [
        row
        for table_id, (row, waited) in firsts.items()
        if owns(table_id) or waited >= takeover + own_lag
    ]
