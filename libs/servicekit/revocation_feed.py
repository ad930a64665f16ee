"""Keeps a service's ``Revocations`` current: from the lobby's events, into its database.

Every replica follows ``AccountsSuspended`` and ``AccountsReinstated`` with its own ordered
JetStream consumer from the start of the stream (a shared durable consumer would hand each
event to one replica only), applies each in memory at once and records it in the table
``<schema>.revoked_sessions``. A replica that starts loads that table before it serves, so
it refuses the same tokens even before it has caught up with the stream (or when the
stream has aged the event out). Recording is idempotent: every replica writes the same rows.
"""

from __future__ import annotations

import asyncio
import contextlib
from datetime import UTC, datetime
from typing import Any

import asyncpg
import nats.errors
import structlog
from nats.js import JetStreamContext
from nats.js.api import ConsumerConfig, DeliverPolicy

from tavolo.eventlog.schema import quoted_schema
from tavolo.messaging import Topology, ensure_streams
from tavolo.servicekit.revocation import Revocations, Suspension
from tavolo.v1 import events_pb2

log = structlog.get_logger("tavolo.revocation")

_DDL = """
CREATE SCHEMA IF NOT EXISTS {s};
CREATE TABLE IF NOT EXISTS {s}.revoked_sessions (
    sanction_id text        PRIMARY KEY,
    player_ids  text[]      NOT NULL,
    since       timestamptz NOT NULL,
    until       timestamptz,
    lifted      boolean     NOT NULL DEFAULT false,
    reason      text        NOT NULL DEFAULT ''
);
"""


class RevocationFeed:
    """Loads, follows and records the suspensions of one service."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        js: JetStreamContext,
        topology: Topology,
        schema: str,
        revocations: Revocations,
    ) -> None:
        self._pool = pool
        self._js = js
        self._topology = topology
        self._s = quoted_schema(schema)
        self.revocations = revocations

    async def load(self) -> int:
        """Create the table if missing and apply every recorded suspension; how many."""
        async with self._pool.acquire() as conn:
            async with conn.transaction():
                await conn.execute(
                    "SELECT pg_advisory_xact_lock(hashtext('tavolo.revocation'), hashtext($1))",
                    self._s,
                )
                await conn.execute(_DDL.format(s=self._s))
            rows = await conn.fetch(
                f"SELECT sanction_id, player_ids, since, until, lifted, reason"
                f" FROM {self._s}.revoked_sessions"
            )
        for row in rows:
            self.revocations.apply(
                Suspension(
                    row["sanction_id"],
                    tuple(row["player_ids"]),
                    row["since"],
                    row["until"],
                    row["lifted"],
                    row["reason"],
                )
            )
        return len(rows)

    async def run(self) -> None:
        """Follow the events until cancelled."""
        await ensure_streams(self._js, self._topology)
        subjects = [self._topology.accounts_suspended, self._topology.accounts_reinstated]
        sub = await self._js.subscribe(
            subjects[0],
            stream=self._topology.events_stream,
            ordered_consumer=True,
            config=ConsumerConfig(filter_subjects=subjects, deliver_policy=DeliverPolicy.ALL),
        )
        try:
            while True:
                try:
                    msg = await sub.next_msg(timeout=5.0)
                except nats.errors.TimeoutError:
                    continue  # a cancellation this swallowed is sent again (cancel_and_wait)
                await self.record(msg.subject, msg.data)
        finally:
            with contextlib.suppress(nats.errors.Error, asyncio.CancelledError):
                await sub.unsubscribe()

    async def record(self, subject: str, data: bytes) -> None:
        """Apply one event in memory, then keep it in the database."""
        suspension = _suspension(self._topology, subject, data)
        if suspension is None:
            return
        now = self.revocations.apply(suspension)
        async with self._pool.acquire() as conn:
            await conn.execute(
                f"INSERT INTO {self._s}.revoked_sessions"
                " (sanction_id, player_ids, since, until, lifted, reason)"
                " VALUES ($1, $2, $3, $4, $5, $6)"
                " ON CONFLICT (sanction_id) DO UPDATE"
                f" SET lifted = {self._s}.revoked_sessions.lifted OR excluded.lifted",
                now.sanction_id,
                list(now.player_ids),
                now.since,
                now.until,
                now.lifted,
                now.reason,
            )
        log.info(
            "sessions revoked" if not now.lifted else "suspension lifted",
            sanction=now.sanction_id,
            players=len(now.player_ids),
        )


def _suspension(topology: Topology, subject: str, data: bytes) -> Suspension | None:
    if subject == topology.accounts_suspended:
        event: Any = events_pb2.AccountsSuspended.FromString(data)
        return Suspension(
            sanction_id=event.sanction_id,
            player_ids=tuple(event.player_ids),
            since=_when(event.header.occurred_at),
            until=_when(event.until) if event.HasField("until") else None,
            reason=event.reason,
        )
    if subject == topology.accounts_reinstated:
        lifted = events_pb2.AccountsReinstated.FromString(data)
        return Suspension(
            sanction_id=lifted.sanction_id,
            player_ids=tuple(lifted.player_ids),
            since=_when(lifted.header.occurred_at),
            lifted=True,
        )
    log.warning("not a revocation event", subject=subject)
    return None


def _when(stamp: Any) -> datetime:
    return stamp.ToDatetime(tzinfo=UTC)  # type: ignore[no-any-return]
