"""Exactly-once effects over at-least-once delivery (guarantee 6).

`IdempotentHandler` opens a transaction, records ``(consumer, message id)`` in the
service's ``processed_messages`` table, and runs the effect with that same connection;
both commit together or not at all. A redelivered message finds its id recorded and
changes nothing; a failed effect rolls its record back, so the retry runs it again.

The message id is the ``Nats-Msg-Id`` header (the event id, set by the outbox relay),
else ``<stream>:<stream sequence>``. Rows may be pruned once JetStream can no longer
deliver them: after the stream's ``max_age`` (`prune_processed_messages`).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from datetime import timedelta
from typing import Any

import asyncpg
import structlog
from nats.aio.msg import Msg

from tavolo.eventlog.schema import quoted_schema
from tavolo.messaging.publish import MSG_ID_HEADER

log = structlog.get_logger("tavolo.messaging")

#: The effect: runs inside the transaction that records the message, on its connection.
Effect = Callable[[Any, Msg], Awaitable[None]]

_DDL = """
CREATE SCHEMA IF NOT EXISTS {s};
CREATE TABLE IF NOT EXISTS {s}.processed_messages (
    consumer   text        NOT NULL,
    message_id text        NOT NULL,
    handled_at timestamptz NOT NULL DEFAULT now(),
    PRIMARY KEY (consumer, message_id)
);
CREATE INDEX IF NOT EXISTS processed_messages_handled_at
    ON {s}.processed_messages (handled_at);
"""


def message_id_of(msg: Msg) -> str:
    """The id a redelivery shares with the first delivery."""
    headers = msg.headers or {}
    explicit = headers.get(MSG_ID_HEADER)
    if explicit:
        return explicit
    meta = msg.metadata
    return f"{meta.stream}:{meta.sequence.stream}"


async def install_processed_messages(conn: Any, schema: str) -> None:
    """Create ``<schema>.processed_messages`` if missing."""
    s = quoted_schema(schema)
    async with conn.transaction():
        await conn.execute(
            "SELECT pg_advisory_xact_lock(hashtext('tavolo.messaging.install'), hashtext($1))",
            schema,
        )
        await conn.execute(_DDL.format(s=s))


async def prune_processed_messages(conn: Any, schema: str, older_than: timedelta) -> int:
    """Forget handled ids older than ``older_than``; only safe beyond the stream's max_age."""
    s = quoted_schema(schema)
    status: str = await conn.execute(
        f"DELETE FROM {s}.processed_messages WHERE handled_at < now() - $1::interval",
        older_than,
    )
    return int(status.split()[-1])


class IdempotentHandler:
    """A consumer handler that applies ``effect`` at most once per message id."""

    def __init__(self, pool: asyncpg.Pool, schema: str, consumer: str, effect: Effect) -> None:
        s = quoted_schema(schema)
        self._pool = pool
        self._consumer = consumer
        self._effect = effect
        self._sql_record = (
            f"INSERT INTO {s}.processed_messages (consumer, message_id) VALUES ($1, $2)"
            " ON CONFLICT DO NOTHING RETURNING true"
        )

    async def __call__(self, msg: Msg) -> None:
        await self.handle(msg)

    async def handle(self, msg: Msg) -> bool:
        """Apply the effect unless this message was handled; True if it was applied now.

        A concurrent redelivery of the same message waits on the first one's uncommitted
        row, then finds it recorded: the effect still runs once.
        """
        message_id = message_id_of(msg)
        async with self._pool.acquire() as conn, conn.transaction():
            first = await conn.fetchval(self._sql_record, self._consumer, message_id)
            if not first:
                log.info("message already handled", consumer=self._consumer, id=message_id)
                return False
            await self._effect(conn, msg)
        return True
