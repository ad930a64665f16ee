"""Every service that records handled message ids forgets them on its own schedule, once
the events stream can no longer redeliver them (guarantee 6 without a table that grows
for ever)."""

from __future__ import annotations

import asyncpg
import pytest

from tavolo.engine.bootstrap import assemble as engine_assemble
from tavolo.leaderboard.bootstrap import make_assemble as leaderboard_assemble
from tavolo.leaderboard.config import LeaderboardConfig
from tavolo.servicekit.runtime import RunningService, start_service
from tavolo.wallet.bootstrap import make_assemble as wallet_assemble
from tavolo.wallet.config import WalletConfig
from tests.integration.lobby.harness import settings_for, start_lobby
from tests.waiting import eventually

pytestmark = pytest.mark.e2e

SCHEMAS = ("engine", "wallet", "leaderboard", "lobby")


async def _ids(conn: asyncpg.Connection, schema: str) -> set[str]:
    rows = await conn.fetch(f'SELECT message_id FROM "{schema}".processed_messages')
    return {r["message_id"] for r in rows}


async def test_each_service_prunes_ids_older_than_its_retention_and_keeps_the_rest(
    database_url: str, nats_url: str, namespace: str
) -> None:
    settings = settings_for(
        database_url,
        nats_url,
        namespace,
        processed_retention_days=15.0,
        prune_interval_seconds=0.1,
    )
    services: list[RunningService] = []
    conn = await asyncpg.connect(database_url)
    try:
        services.append(
            await start_service("wallet", wallet_assemble(WalletConfig()), settings, port=0)
        )
        services.append(await start_service("engine", engine_assemble, settings, port=0))
        services.append(
            await start_service(
                "leaderboard", leaderboard_assemble(LeaderboardConfig()), settings, port=0
            )
        )
        lobby, _ = await start_lobby(settings)
        services.append(lobby)
        for schema in SCHEMAS:
            await conn.execute(
                f'INSERT INTO "{schema}".processed_messages (consumer, message_id, handled_at)'
                " VALUES ('c', 'old', now() - interval '16 days'),"
                " ('c', 'recent', now() - interval '14 days'), ('c', 'new', now())"
            )

        async def pruned() -> bool:
            return all([await _ids(conn, s) == {"recent", "new"} for s in SCHEMAS])

        await eventually(pruned, "every service pruned its handled ids older than 15 days")
    finally:
        for service in reversed(services):
            await service.stop(0.5)
        await conn.close()


def test_a_retention_shorter_than_the_stream_keeps_messages_is_refused() -> None:
    from datetime import timedelta

    from tavolo.messaging.housekeeping import retention_for

    with pytest.raises(ValueError, match="at least as long as the events stream"):
        retention_for(timedelta(days=3))
