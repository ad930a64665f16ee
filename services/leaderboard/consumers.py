"""The NATS events the leaderboard reacts to: ``TableFinished``, through the idempotent
consumer, so the handled message id and the projection change commit together.
"""

from __future__ import annotations

from typing import Any

import asyncpg
import structlog
from nats.aio.client import Client as NATS
from nats.aio.msg import Msg

from tavolo.leaderboard.app import Leaderboard
from tavolo.leaderboard.store import SCHEMA
from tavolo.leaderboard.wire import MalformedEvent
from tavolo.messaging import (
    Consumer,
    DeadLetters,
    Effect,
    IdempotentHandler,
    Topology,
    Unprocessable,
)

log = structlog.get_logger("tavolo.leaderboard")

SERVICE = "leaderboard"


def table_finished_effect(leaderboard: Leaderboard) -> Effect:
    """Project one TableFinished on the handler's connection and transaction."""

    async def effect(conn: Any, msg: Msg) -> None:
        try:
            await leaderboard.project_table_finished(conn, msg.data)
        except MalformedEvent as exc:
            # Retrying cannot help an event that can never be read: dead-lettered for
            # operators, and the rest of the stream flows on.
            raise Unprocessable(f"malformed TableFinished: {exc}") from exc

    return effect


def tournament_paid_consumer(
    nc: NATS, pool: asyncpg.Pool, topology: Topology, leaderboard: Leaderboard
) -> Consumer:
    """Tournament results (PCG-7), as the wallet paid them (``TournamentPaid``): their own
    durable consumer, shared by every replica."""
    durable = topology.consumer_name(SERVICE, "tournament_paid")

    async def effect(conn: Any, msg: Msg) -> None:
        try:
            await leaderboard.project_tournament_paid(conn, msg.data)
        except MalformedEvent as exc:
            raise Unprocessable(f"malformed TournamentPaid: {exc}") from exc

    handler = IdempotentHandler(pool, SCHEMA, durable, effect)
    return Consumer(
        nc,
        stream=topology.events_stream,
        durable=durable,
        subjects=[topology.tournament_paid],
        handler=handler,
        dead_letters=DeadLetters(nc.jetstream(), topology),
    )


def table_finished_consumer(
    nc: NATS, pool: asyncpg.Pool, topology: Topology, leaderboard: Leaderboard
) -> Consumer:
    """The durable consumer every leaderboard replica shares (work is spread between them)."""
    durable = topology.consumer_name(SERVICE, "table_finished")
    handler = IdempotentHandler(pool, SCHEMA, durable, table_finished_effect(leaderboard))
    return Consumer(
        nc,
        stream=topology.events_stream,
        durable=durable,
        subjects=[topology.table_finished],
        handler=handler,
        dead_letters=DeadLetters(nc.jetstream(), topology),
    )
