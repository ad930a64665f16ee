"""Dead letters: events a consumer gave up on, kept where operators can see them.

A consumer gives up on a message in two cases: every retry failed (``max_deliver``
deliveries), or the handler raised `Unprocessable` (an event no retry can ever handle,
such as one that cannot be decoded). Either way the message is posted, with the consumer,
the last error and its delivery count, to the namespace's dead-letter stream
(``<NS>_DEAD_LETTERS``, one subject per consumer), counted in the
``tavolo_dead_letters_total`` metric, logged as an error, and only then terminated, so the
rest of the stream flows on and nothing is dropped in silence. The letter's id is the
consumer and message id, so a letter posted twice (a crash between post and terminate) is
kept once. The stream is created with the events stream (``ensure_streams``). Operators
list them with ``Lobby.ListDeadLetters``; the event itself stays in
its publisher's PostgreSQL log, so a letter can be replayed once its cause is fixed.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

import structlog
from nats.aio.msg import Msg
from nats.js.errors import NotFoundError
from prometheus_client import Counter

from tavolo.messaging.idempotency import message_id_of
from tavolo.messaging.publish import publish_with_id
from tavolo.messaging.topology import Topology
from tavolo.v1 import events_pb2

log = structlog.get_logger("tavolo.messaging")

DEAD_LETTERS = Counter(
    "tavolo_dead_letters_total", "events a consumer gave up on", ["consumer", "subject"]
)
MAX_LISTED = 500
_MAX_ERROR = 2000


class Unprocessable(Exception):
    """Raised by a handler for an event no retry can handle: dead-lettered at once."""


class DeadLetters:
    """Posts and lists the dead letters of one namespace."""

    def __init__(self, js: Any, topology: Topology) -> None:
        self._js = js
        self._topology = topology

    async def post(self, consumer: str, msg: Msg, error: BaseException) -> None:
        """Keep ``msg`` as a dead letter of ``consumer``, with ``error`` as its cause."""
        message_id = message_id_of(msg)
        meta = msg.metadata
        letter = events_pb2.DeadLetter(
            consumer=consumer,
            subject=msg.subject,
            message_id=message_id,
            stream_sequence=meta.sequence.stream,
            deliveries=meta.num_delivered,
            error=_describe(error),
            data=msg.data,
        )
        letter.dead_at.FromDatetime(datetime.now(UTC))
        await publish_with_id(
            self._js,
            self._topology.dead_letter_subject(consumer),
            letter.SerializeToString(),
            msg_id=f"{consumer}:{message_id}",
        )
        DEAD_LETTERS.labels(consumer, msg.subject).inc()
        log.error(
            "event dead-lettered",
            consumer=consumer,
            subject=msg.subject,
            id=message_id,
            deliveries=meta.num_delivered,
            error=letter.error,
        )

    async def latest(self, limit: int) -> list[events_pb2.DeadLetter]:
        """Up to ``limit`` letters, newest first."""
        stream = self._topology.dead_letters_stream
        try:
            info = await self._js.stream_info(stream)
        except NotFoundError:
            return []
        letters: list[events_pb2.DeadLetter] = []
        seq = info.state.last_seq
        while seq >= max(info.state.first_seq, 1) and len(letters) < min(limit, MAX_LISTED):
            try:
                raw = await self._js.get_msg(stream, seq)
            except NotFoundError:  # removed by the stream's limits meanwhile
                seq -= 1
                continue
            letters.append(events_pb2.DeadLetter.FromString(raw.data or b""))
            seq -= 1
        return letters


def _describe(error: BaseException) -> str:
    text = str(error) or type(error).__name__
    return text if len(text) <= _MAX_ERROR else text[:_MAX_ERROR] + "..."
