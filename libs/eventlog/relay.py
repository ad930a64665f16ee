"""The outbox relay: every committed event leaves PostgreSQL for JetStream, once and in order.

PostgreSQL is the system of record (guarantee 6); the relay only copies. It tails the
global position, asks the service's encoder whether and how each event crosses NATS,
publishes it with ``Nats-Msg-Id`` = event id, waits for JetStream's ack, and after each
batch stores the last acknowledged position in ``<schema>.relay_checkpoints``.

Order: events are published in position order, in windows of up to ``window`` events
that are in flight together (sent in order on the one NATS connection, their acks awaited
together), and a window never holds two events of the same stream: an event is only sent
once its stream's previous event was acknowledged. So JetStream stores each stream's
events in version order, even when a publish fails mid-window and the retry republishes
from the first unacknowledged event (never skipping ahead; what the window did store is
dropped as a duplicate). The checkpoint is the last position acknowledged with every
position before it. Waiting for each ack before the next publish, as the relay once did,
cost one round trip to JetStream per event.

The resume gap: a crash loses at most the acknowledgements of one batch, so after a
restart the relay publishes again up to ``batch_size`` events that JetStream may already
hold. JetStream drops them by ``Nats-Msg-Id`` as long as its duplicate window (see
``tavolo.messaging.topology.DEFAULT_DUPLICATE_WINDOW``, 15 minutes) is longer than the
time from the first publish to the republish: one batch plus the time the relay was
down. An outage longer than the window lets duplicates through to the stream; nothing
is lost, and consumers still apply each event once because they record the event id they
handled in the same transaction as the effect (``tavolo.messaging.idempotency``).

One relay per schema and name publishes at a time: it holds a PostgreSQL advisory lock
on its own pooled connection, and other replicas stand by until that connection goes.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from typing import Any

import structlog

from tavolo.eventlog.model import RecordedEvent
from tavolo.eventlog.postgres import PostgresEventStore
from tavolo.eventlog.schema import quoted_schema
from tavolo.messaging.publish import publish_with_id
from tavolo.servicekit.metrics import OUTBOX_BACKLOG
from tavolo.servicekit.tracing import TRACEPARENT, publishing
from tavolo.servicekit.waiting import wait_event

#: What the encoder returns for an event that crosses NATS: subject, payload, headers.
Encoded = tuple[str, bytes, Mapping[str, str]]
#: Decides per event: None keeps it inside the service.
Encoder = Callable[[RecordedEvent], Encoded | None]

log = structlog.get_logger("tavolo.eventlog.relay")


@dataclass
class RelayStats:
    """Counts since the relay object was made; ``duplicates`` are JetStream's verdicts."""

    published: int = 0
    duplicates: int = 0
    skipped: int = 0


class OutboxRelay:
    """Publishes a store's events to JetStream; `run` until cancelled or `stop`."""

    def __init__(
        self,
        store: PostgresEventStore,
        js: Any,
        encoder: Encoder,
        *,
        name: str = "jetstream",
        batch_size: int = 100,
        window: int = 64,
        poll_interval: float = 0.2,
        retry_delay: float = 1.0,
        publish_timeout: float = 5.0,
    ) -> None:
        if batch_size < 1 or window < 1:
            raise ValueError("batch_size and window must be 1 or more")
        s = quoted_schema(store.schema)
        self.store = store
        self.name = name
        self.stats = RelayStats()
        self._js = js
        self._encoder = encoder
        self._batch_size = batch_size
        self._window = window
        self._poll_interval = poll_interval
        self._retry_delay = retry_delay
        self._publish_timeout = publish_timeout
        self._wake = asyncio.Event()
        self._stopping = False
        self._lock_key = f"tavolo.eventlog.relay/{store.schema}/{name}"
        self._sql_lock = "SELECT pg_try_advisory_lock(hashtext($1))"
        self._sql_unlock = "SELECT pg_advisory_unlock(hashtext($1))"
        self._sql_load = f"SELECT position FROM {s}.relay_checkpoints WHERE relay = $1"
        self._sql_save = (
            f"INSERT INTO {s}.relay_checkpoints (relay, position) VALUES ($1, $2)"
            " ON CONFLICT (relay) DO UPDATE SET position ="
            f" greatest({s}.relay_checkpoints.position, excluded.position), updated_at = now()"
        )

    def wake(self) -> None:
        """Look for new events now instead of at the next poll (after a local append)."""
        self._wake.set()

    def stop(self) -> None:
        """Finish the current batch, store the checkpoint and return from `run`."""
        self._stopping = True
        self._wake.set()

    async def checkpoint(self) -> int:
        """The last position confirmed by JetStream, as stored."""
        async with self.store.pool.acquire() as conn:
            position = await conn.fetchval(self._sql_load, self.name)
        return int(position) if position is not None else 0

    async def run(self) -> None:
        """Take the relay lock, then publish until stopped; failures are retried, never skipped.

        Cancelling the task is a crash as far as the log is concerned: nothing more is
        written, the lock goes with the connection, and the next relay resumes from the
        stored checkpoint.
        """
        standing_by = False
        while not self._stopping:
            try:
                async with self.store.pool.acquire() as conn:
                    if not await conn.fetchval(self._sql_lock, self._lock_key):
                        if not standing_by:
                            log.info("relay standing by: another one publishes", relay=self.name)
                            standing_by = True
                        # A wake() meant for the publishing replica must not spin this one.
                        self._wake.clear()
                        await self._sleep(self._poll_interval * 5)
                        continue
                    standing_by = False
                    try:
                        await self._publish_loop(conn)
                    finally:
                        await self._unlock(conn)
            except asyncio.CancelledError:
                raise
            except Exception as exc:
                task = asyncio.current_task()
                if task is not None and task.cancelling():
                    # Releasing a connection interrupted by the cancellation can raise a
                    # driver error that hides the CancelledError; the task must still end.
                    raise asyncio.CancelledError from exc
                log.error(
                    "relay failed; retrying from its checkpoint",
                    relay=self.name,
                    schema=self.store.schema,
                    error=repr(exc),
                    retry_in=self._retry_delay,
                )
                await self._sleep(self._retry_delay)

    async def _unlock(self, conn: Any) -> None:
        """Give the relay lock back. A pooled connection keeps its session state when
        released, so one that cannot unlock is closed instead: the lock goes with it."""
        if conn.is_closed():
            return
        try:
            await conn.fetchval(self._sql_unlock, self._lock_key)
        except asyncio.CancelledError:
            conn.terminate()
            raise
        except Exception:
            conn.terminate()

    async def publish_pending(self) -> int:
        """Publish everything committed so far, then return how many events were handled.

        For the command line and tests; a service runs `run`. Takes no lock: do not mix
        with a running relay of the same name.
        """
        async with self.store.pool.acquire() as conn:
            position = await self._load(conn)
            handled = 0
            while True:
                batch = await self.store.read_all(position, self._batch_size, conn=conn)
                if not batch:
                    return handled
                position = await self._publish_batch(conn, batch)
                handled += len(batch)

    async def _publish_loop(self, conn: Any) -> None:
        position = await self._load(conn)
        log.info("relay publishing", relay=self.name, schema=self.store.schema, after=position)
        while not self._stopping:
            self._wake.clear()
            batch = await self.store.read_all(position, self._batch_size, conn=conn)
            if batch:
                position = await self._publish_batch(conn, batch)
            await self._measure_backlog(conn, position)
            if len(batch) < self._batch_size:
                await self._sleep(self._poll_interval)

    async def _publish_batch(self, conn: Any, batch: list[RecordedEvent]) -> int:
        confirmed = 0
        try:
            for window in windows(batch, self._window):
                outcomes = await asyncio.gather(
                    *(self._publish(event) for event in window), return_exceptions=True
                )
                for event, outcome in zip(window, outcomes, strict=True):
                    if isinstance(outcome, BaseException):
                        raise outcome
                    confirmed = event.position
        except Exception:
            # Keep what JetStream did confirm, so the retry starts at the failed event.
            if confirmed:
                await conn.execute(self._sql_save, self.name, confirmed)
            raise
        await conn.execute(self._sql_save, self.name, confirmed)
        return confirmed

    async def _publish(self, event: RecordedEvent) -> None:
        encoded = self._encoder(event)
        if encoded is None:
            self.stats.skipped += 1
            return
        subject, payload, encoded_headers = encoded
        headers = dict(encoded_headers)
        with publishing(subject, event.metadata.get(TRACEPARENT), headers):
            ack = await publish_with_id(
                self._js,
                subject,
                payload,
                msg_id=str(event.event_id),
                headers=headers,
                ack_timeout=self._publish_timeout,
            )
        self.stats.published += 1
        if ack.duplicate:
            self.stats.duplicates += 1

    async def backlog(self) -> int:
        """Events committed but not yet confirmed by JetStream (the outbox-backlog alert's
        metric, which a publishing relay keeps up to date)."""
        async with self.store.pool.acquire() as conn:
            return await self._measure_backlog(conn, await self._load(conn))

    async def _measure_backlog(self, conn: Any, position: int) -> int:
        backlog = max(await self.store.head_position(conn=conn) - position, 0)
        OUTBOX_BACKLOG.labels(self.store.schema).set(backlog)
        return backlog

    async def _load(self, conn: Any) -> int:
        position = await conn.fetchval(self._sql_load, self.name)
        return int(position) if position is not None else 0

    async def _sleep(self, seconds: float) -> None:
        await wait_event(self._wake, seconds)


def windows(batch: list[RecordedEvent], size: int) -> list[list[RecordedEvent]]:
    """``batch`` cut, in order, into runs of at most ``size`` events, none holding two
    events of one stream."""
    runs: list[list[RecordedEvent]] = []
    run: list[RecordedEvent] = []
    streams: set[str] = set()
    for event in batch:
        if len(run) >= size or event.stream_id in streams:
            runs.append(run)
            run, streams = [], set()
        run.append(event)
        streams.add(event.stream_id)
    if run:
        runs.append(run)
    return runs
