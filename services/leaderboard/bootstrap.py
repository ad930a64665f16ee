"""Composition root: builds the leaderboard from the infrastructure at start-up.

Migrations, the processed-messages table and the events stream are ensured here, once,
before the gRPC server says SERVING; importing any module of the service does nothing.
"""

from __future__ import annotations

import asyncio
import contextlib

from tavolo.cardgames.registry import all_games
from tavolo.eventlog import PostgresEventStore
from tavolo.eventlog.relay import OutboxRelay
from tavolo.leaderboard import store
from tavolo.leaderboard.app import Clock, Leaderboard, utc_now
from tavolo.leaderboard.config import LeaderboardConfig
from tavolo.leaderboard.consumers import table_finished_consumer, tournament_paid_consumer
from tavolo.leaderboard.grpc_api import leaderboard_service
from tavolo.leaderboard.rating_events import RatingEvents, RatingsEncoder
from tavolo.messaging import (
    ProcessedMessagesPruner,
    Topology,
    ensure_streams,
    install_processed_messages,
)
from tavolo.servicekit.runtime import Assemble, Infrastructure, ServiceApp

RELAY_STOP_SECONDS = 10.0  # at most one batch and one publish timeout


def make_assemble(
    config: LeaderboardConfig | None = None,
    clock: Clock = utc_now,
    games: frozenset[str] | None = None,
) -> Assemble:
    """An ``assemble`` with the given config (default: from the environment) and clock."""

    async def assemble(infra: Infrastructure) -> ServiceApp:
        settings = config if config is not None else LeaderboardConfig.from_env()
        await store.migrate(infra.pool)
        async with infra.pool.acquire() as conn:
            await install_processed_messages(conn, store.SCHEMA)
        topology = Topology(infra.settings.namespace, replicas=infra.settings.stream_replicas)
        await ensure_streams(infra.js, topology)
        events = PostgresEventStore(infra.pool, store.SCHEMA)
        await events.install()
        relay = OutboxRelay(events, infra.js, RatingsEncoder(topology), name="leaderboard")
        known = games if games is not None else frozenset(all_games())
        leaderboard = Leaderboard(
            infra.pool, settings, known, clock, tell_rated=RatingEvents(events).tell
        )
        consumer = table_finished_consumer(infra.nats, infra.pool, topology, leaderboard)
        tournaments = tournament_paid_consumer(infra.nats, infra.pool, topology, leaderboard)

        async def publish_ratings() -> None:
            """The relay, asked to stop after its batch rather than cancelled mid-publish."""
            running = asyncio.create_task(relay.run())
            try:
                await asyncio.shield(running)
            except asyncio.CancelledError:
                relay.stop()
                with contextlib.suppress(Exception, asyncio.CancelledError):
                    await asyncio.wait_for(running, RELAY_STOP_SECONDS)
                raise

        return ServiceApp(
            grpc_services=[leaderboard_service(leaderboard)],
            background=[
                publish_ratings,
                consumer.run,
                tournaments.run,
                ProcessedMessagesPruner.configured(infra.pool, store.SCHEMA, infra.settings).run,
            ],
        )

    return assemble


assemble = make_assemble()
