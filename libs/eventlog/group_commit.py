"""Group commit: appends that arrive while a commit is in flight share the next one.

A commit costs one WAL flush whether it carries one append or a hundred, so under load
the flush, not the work, is what limits appends. One drain task per store takes every
waiting append (at most one per stream, so two racing writers of a stream still meet
the stream's version check one after the other), hands the batch to the store, and
starts again as soon as that commit returns. A lone append waits for nobody: it commits
straight away, in its caller's task.

The store decides how each append of a batch ends (`GroupWriter.commit_group`); a stale
append or a duplicate event id fails only its own caller.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Protocol

from tavolo.eventlog.model import NewEvent, RecordedEvent


@dataclass(eq=False)
class PendingAppend:
    """One caller's append, waiting for its turn in a batch."""

    stream_id: str
    expected_version: int
    events: Sequence[NewEvent]
    outcome: asyncio.Future[list[RecordedEvent]] = field(
        default_factory=lambda: asyncio.get_running_loop().create_future()
    )

    def succeed(self, recorded: list[RecordedEvent]) -> None:
        if not self.outcome.done():
            self.outcome.set_result(recorded)

    def fail(self, error: BaseException) -> None:
        if self.outcome.done():
            return
        if isinstance(error, asyncio.CancelledError):
            self.outcome.cancel()
        else:
            self.outcome.set_exception(error)


class GroupWriter(Protocol):
    async def commit_group(self, batch: Sequence[PendingAppend]) -> None:
        """Commit what it can of ``batch`` together; settle every append's outcome."""
        ...


class GroupCommit:
    """Queues appends and commits them in batches, one batch in flight at a time."""

    def __init__(self, writer: GroupWriter, *, max_batch: int = 256) -> None:
        if max_batch < 1:
            raise ValueError("max_batch must be 1 or more")
        self._writer = writer
        self._max_batch = max_batch
        self._waiting: list[PendingAppend] = []
        self._drain: asyncio.Task[None] | None = None
        self._inline = False

    async def submit(self, append: PendingAppend) -> list[RecordedEvent]:
        if not self._committing and not self._waiting:
            return await self._alone(append)
        self._waiting.append(append)
        if not self._committing:
            self._drain = asyncio.get_running_loop().create_task(self._run())
        return await append.outcome

    @property
    def _committing(self) -> bool:
        return self._inline or (self._drain is not None and not self._drain.done())

    async def _alone(self, append: PendingAppend) -> list[RecordedEvent]:
        """Nothing in flight: commit in the caller's own task (no hand-over to the drain,
        which costs a lone writer two turns of the event loop); appends arriving meanwhile
        wait for the drain started after it."""
        self._inline = True
        try:
            await self._writer.commit_group([append])
        finally:
            self._inline = False
            if self._waiting:
                self._drain = asyncio.get_running_loop().create_task(self._run())
        _settle_unsettled([append])
        return await append.outcome

    def _next_batch(self) -> list[PendingAppend]:
        batch: list[PendingAppend] = []
        streams: set[str] = set()
        rest: list[PendingAppend] = []
        for append in self._waiting:
            if append.outcome.done():
                continue  # its caller was cancelled while it waited
            if append.stream_id in streams or len(batch) >= self._max_batch:
                rest.append(append)
            else:
                streams.add(append.stream_id)
                batch.append(append)
        self._waiting = rest
        return batch

    async def _run(self) -> None:
        while True:
            if not self._waiting:
                # The writers a commit just answered append again in the next turn of the
                # loop: wait for it, so they join the next batch instead of each going
                # alone and leaving the others one more commit behind.
                await asyncio.sleep(0)
                if not self._waiting:
                    return
            batch = self._next_batch()
            if not batch:
                continue
            try:
                await self._writer.commit_group(batch)
            except BaseException as exc:
                for append in batch:
                    append.fail(exc)
                if isinstance(exc, asyncio.CancelledError):
                    for append in self._waiting:
                        append.fail(exc)
                    raise
            _settle_unsettled(batch)


def _settle_unsettled(appends: Sequence[PendingAppend]) -> None:
    """Fail any append the writer left without an outcome (a bug, never a silent hang)."""
    for append in appends:
        append.fail(RuntimeError("the group commit settled no outcome for an append"))
