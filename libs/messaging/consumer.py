"""Durable pull consumers with explicit acks, retries with backoff, and a clean stop.

A handler that returns has its message acked; one that raises gets it back later with
``nak(delay)``, the delay doubling per attempt; after ``max_deliver`` attempts, or at once
when the handler raises `Unprocessable`, the message is dead-lettered (see
``tavolo.messaging.deadletters``) and terminated, so one poison message cannot stall the
rest and none is dropped unseen. Handlers must be idempotent (``IdempotentHandler`` makes
them so): JetStream delivers at least once, and an ack can be lost.

`Consumer.run` ends when `stop` is called (after the batch in hand), when the NATS
connection drains or closes, or when its task is cancelled; a handler interrupted by
cancellation leaves its message unacked, to be redelivered after ``ack_wait``.
"""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable, Sequence
from dataclasses import dataclass

import nats.errors
import structlog
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg
from nats.js import JetStreamContext
from nats.js.api import AckPolicy, ConsumerConfig, DeliverPolicy

from tavolo.messaging.deadletters import DeadLetters, Unprocessable
from tavolo.messaging.publish import MSG_ID_HEADER
from tavolo.servicekit.metrics import EVENTS_HANDLED
from tavolo.servicekit.tracing import consuming

log = structlog.get_logger("tavolo.messaging")

Handler = Callable[[Msg], Awaitable[None]]

# The connection is going away: stop consuming rather than retrying.
_GONE = (
    nats.errors.ConnectionClosedError,
    nats.errors.ConnectionDrainingError,
    nats.errors.BadSubscriptionError,
)


@dataclass(frozen=True, slots=True)
class RetryPolicy:
    """How often and how patiently a failing message is retried."""

    max_deliver: int = 8
    first_delay: float = 1.0
    max_delay: float = 60.0

    def delay(self, attempt: int) -> float:
        """Seconds before delivery ``attempt + 1``: 1, 2, 4, ... capped at ``max_delay``."""
        return float(min(self.first_delay * 2 ** (attempt - 1), self.max_delay))


class Consumer:
    """One durable pull consumer on a stream, feeding ``handler`` one message at a time.

    ``nc`` is the NATS client (or its JetStream context): the consumer watches the
    client's state to stop when it drains.
    """

    def __init__(
        self,
        nc: NATS | JetStreamContext,
        *,
        stream: str,
        durable: str,
        subjects: Sequence[str],
        handler: Handler,
        retry: RetryPolicy | None = None,
        batch: int = 16,
        fetch_timeout: float = 1.0,
        ack_wait: float = 30.0,
        dead_letters: DeadLetters | None = None,
    ) -> None:
        if not subjects:
            raise ValueError("a consumer needs at least one subject")
        self.durable = durable
        self.stream = stream
        self._nc, self._js = _client_and_context(nc)
        self._subjects = list(subjects)
        self._handler = handler
        self._retry = retry or RetryPolicy()
        self._batch = batch
        self._fetch_timeout = fetch_timeout
        self._ack_wait = ack_wait
        self._dead_letters = dead_letters
        self._stopping = False

    def config(self) -> ConsumerConfig:
        one = len(self._subjects) == 1
        return ConsumerConfig(
            name=self.durable,
            durable_name=self.durable,
            deliver_policy=DeliverPolicy.ALL,
            ack_policy=AckPolicy.EXPLICIT,
            ack_wait=self._ack_wait,
            # The server's own bound, for when this process dies holding a message.
            max_deliver=self._retry.max_deliver,
            filter_subject=self._subjects[0] if one else None,
            filter_subjects=None if one else self._subjects,
        )

    def stop(self) -> None:
        """Return from `run` after the messages already fetched are handled."""
        self._stopping = True

    async def run(self) -> None:
        info = await self._js.add_consumer(self.stream, config=self.config())
        applied = info.config.filter_subjects or [info.config.filter_subject or ">"]
        if sorted(applied) != sorted(self._subjects):
            # NATS before 2.10 ignores filter_subjects and would deliver the whole stream.
            raise RuntimeError(
                f"consumer {self.durable} filters {applied}, not {self._subjects}: several"
                f" subjects per consumer need nats-server 2.10 or later"
                f" (this is {self._nc.connected_server_version})"
            )
        sub = await self._js.pull_subscribe_bind(durable=self.durable, stream=self.stream)
        log.info("consumer started", consumer=self.durable, stream=self.stream)
        try:
            while not self._stopping:
                try:
                    messages = await sub.fetch(self._batch, timeout=self._fetch_timeout)
                except TimeoutError:  # nothing to do, or the connection is going away
                    if self._nc.is_closed or self._nc.is_draining:
                        break
                    continue
                except _GONE:
                    break
                for msg in messages:
                    await self._handle(msg)
        finally:
            if not self._stopping:
                log.info("consumer stopping", consumer=self.durable)
            try:
                await sub.unsubscribe()
            except (*_GONE, asyncio.CancelledError):
                pass
        log.info("consumer stopped", consumer=self.durable)

    async def _handle(self, msg: Msg) -> None:
        headers = msg.headers
        message_id = headers.get(MSG_ID_HEADER) if headers else None
        with consuming(msg.subject, headers, self.durable, message_id):
            await self._handle_traced(msg)

    async def _handle_traced(self, msg: Msg) -> None:
        try:
            await self._handler(msg)
        except asyncio.CancelledError:
            raise
        except Unprocessable as exc:
            self._count("unprocessable")
            await self._give_up(msg, exc)
        except Exception as exc:
            self._count("failed")
            await self._failed(msg, exc)
        else:
            self._count("handled")
            await msg.ack()

    def _count(self, outcome: str) -> None:
        """``tavolo_events_handled_total``: durable names start with their service
        (``Topology.consumer_name``), so each replica's share of the work can be read."""
        service = self.durable.split("_", 1)[0]
        EVENTS_HANDLED.labels(service, self.durable, outcome).inc()

    async def _failed(self, msg: Msg, exc: Exception) -> None:
        attempt = msg.metadata.num_delivered
        fields = {
            "consumer": self.durable,
            "subject": msg.subject,
            "stream_seq": msg.metadata.sequence.stream,
            "attempt": attempt,
            "error": repr(exc),
        }
        if attempt >= self._retry.max_deliver:
            log.error("message failed for the last time", **fields)
            await self._give_up(msg, exc)
            return
        delay = self._retry.delay(attempt)
        log.warning("message failed; will retry", retry_in=delay, **fields)
        await msg.nak(delay=delay)

    async def _give_up(self, msg: Msg, exc: Exception) -> None:
        """Dead-letter the message, then terminate it: it is never delivered again."""
        if self._dead_letters is None:
            log.error("message terminated", consumer=self.durable, subject=msg.subject)
        else:
            try:
                await self._dead_letters.post(self.durable, msg, exc)
            except Exception:
                log.exception("dead letter not kept", consumer=self.durable, subject=msg.subject)
        await msg.term()


async def run_consumer(
    nc: NATS | JetStreamContext,
    *,
    stream: str,
    durable: str,
    subjects: Sequence[str],
    handler: Handler,
    retry: RetryPolicy | None = None,
    batch: int = 16,
    fetch_timeout: float = 1.0,
    ack_wait: float = 30.0,
    dead_letters: DeadLetters | None = None,
) -> None:
    """Run one durable consumer until cancelled or the connection drains."""
    consumer = Consumer(
        nc,
        stream=stream,
        durable=durable,
        subjects=subjects,
        handler=handler,
        retry=retry,
        batch=batch,
        fetch_timeout=fetch_timeout,
        ack_wait=ack_wait,
        dead_letters=dead_letters,
    )
    await consumer.run()


def _client_and_context(conn: NATS | JetStreamContext) -> tuple[NATS, JetStreamContext]:
    """The client (whose state tells a drain) and its JetStream context, from either one."""
    if isinstance(conn, NATS):
        return conn, conn.jetstream()
    client = getattr(conn, "_nc", None)  # where nats.py's JetStreamContext keeps its client
    if not isinstance(client, NATS):
        raise TypeError(f"expected a NATS client or its JetStream context, not {conn!r}")
    return client, conn
