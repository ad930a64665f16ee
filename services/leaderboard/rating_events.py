"""``RatingsChanged``: each rated table's new ratings, told to the platform (RATE-2).

The lobby seats tickets by rating without asking the leaderboard per ticket: it keeps the
ratings it hears here. Each rated table's fact is appended to the leaderboard's own event
log in the transaction that rated it (stream ``ratings-<table id>``, written once), and
the outbox relay publishes it, so a crash between the two loses nothing. A rebuild
publishes nothing: it gives the same numbers, and after a rules change a player's new
rating reaches the lobby with their next rated table.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC

import asyncpg

from tavolo.eventlog import ConcurrencyError, NewEvent, PostgresEventStore, RecordedEvent
from tavolo.eventlog.relay import Encoded
from tavolo.leaderboard.rating_replay import RatedTable
from tavolo.messaging import Topology
from tavolo.v1 import events_pb2

RATINGS_CHANGED = "ratings_changed"
SUBJECT_TYPE = "RatingsChanged"


class RatingEvents:
    """Appends a rated table's fact to the leaderboard's event log, on the caller's
    connection."""

    def __init__(self, store: PostgresEventStore) -> None:
        self._store = store

    async def tell(self, conn: asyncpg.Connection, rated: RatedTable) -> None:
        # The log's canonical form holds no floats: each number as its exact hex text.
        data = {
            "table_id": rated.table_id,
            "game": rated.game,
            "ratings": [
                [c.player_id, c.after.mu.hex(), c.after.sigma.hex(), c.after.tables]
                for c in rated.changes
            ],
        }
        try:
            await self._store.append_events(
                f"ratings-{rated.table_id}", 0, [NewEvent(RATINGS_CHANGED, data)], conn=conn
            )
        except ConcurrencyError:  # told already: a table is rated once
            return


class RatingsEncoder:
    """``RecordedEvent -> (subject, payload, headers) | None`` for the leaderboard's relay."""

    def __init__(self, topology: Topology) -> None:
        self._subject = topology.subject_for(SUBJECT_TYPE)

    def __call__(self, event: RecordedEvent) -> Encoded | None:
        if event.type != RATINGS_CHANGED:
            return None
        data = event.data
        message = events_pb2.RatingsChanged(table_id=str(data["table_id"]), game=str(data["game"]))
        for player_id, mu, sigma, tables in data["ratings"]:
            message.ratings.add(
                player_id=str(player_id),
                mu=float.fromhex(str(mu)),
                sigma=float.fromhex(str(sigma)),
                rated_tables=int(str(tables)),
            )
        message.header.event_id = str(event.event_id)
        message.header.stream_id = event.stream_id
        message.header.version = event.version
        message.header.occurred_at.FromDatetime(event.recorded_at.astimezone(UTC))
        headers: Mapping[str, str] = {}
        return self._subject, message.SerializeToString(), headers
