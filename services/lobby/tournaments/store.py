"""The SQL of tournaments (PCG-7): the index rows beside each tournament's event stream.

The tournament itself is read from its stream and folded (``stream.rebuild``); these rows
say which tournaments exist and which are live, keep the draw's seed until the draw, map
engine tables to tournaments, and record when a player last followed one.
"""

from __future__ import annotations

import uuid
from collections.abc import Sequence
from datetime import datetime

from tavolo.eventlog import EventStore, NewEvent
from tavolo.lobby.store import Connection, S
from tavolo.lobby.tournaments.stream import Event, Tournament, apply, rebuild


def stream_id(tournament_id: str) -> str:
    return f"tournament-{tournament_id}"


async def insert(
    conn: Connection, tournament_id: str, seed: bytes, starts_at: datetime, at: datetime
) -> None:
    await conn.execute(
        f"INSERT INTO {S}.tournaments (tournament_id, seed, starts_at, status, created_at)"
        " VALUES ($1, $2, $3, 'registering', $4)",
        tournament_id,
        seed,
        starts_at,
        at,
    )


async def lock(conn: Connection, tournament_id: str, *, wait: bool = True) -> bytes | None:
    """Lock the tournament's row for this transaction; its seed, or None if there is no
    such tournament (or, with ``wait=False``, another replica holds it)."""
    skip = "" if wait else " SKIP LOCKED"
    row = await conn.fetchrow(
        f"SELECT seed FROM {S}.tournaments WHERE tournament_id = $1 FOR UPDATE{skip}",
        tournament_id,
    )
    return None if row is None else bytes(row["seed"])


async def set_status(conn: Connection, tournament_id: str, status: str) -> None:
    await conn.execute(
        f"UPDATE {S}.tournaments SET status = $2 WHERE tournament_id = $1", tournament_id, status
    )


async def live(conn: Connection) -> list[str]:
    """Tournaments still registering or playing, the next to start first."""
    rows = await conn.fetch(
        f"SELECT tournament_id FROM {S}.tournaments"
        " WHERE status IN ('registering', 'playing') ORDER BY starts_at, tournament_id"
    )
    return [r["tournament_id"] for r in rows]


async def listed(conn: Connection, limit: int) -> list[str]:
    """Live tournaments first (the next to start first), then the latest ended ones."""
    rows = await conn.fetch(
        f"SELECT tournament_id FROM {S}.tournaments ORDER BY"
        " status NOT IN ('registering', 'playing'),"
        " CASE WHEN status IN ('registering', 'playing') THEN starts_at END,"
        " starts_at DESC, tournament_id LIMIT $1",
        limit,
    )
    return [r["tournament_id"] for r in rows]


async def add_table(conn: Connection, table_id: str, tournament_id: str) -> None:
    await conn.execute(
        f"INSERT INTO {S}.tournament_tables (table_id, tournament_id) VALUES ($1, $2)"
        " ON CONFLICT (table_id) DO NOTHING",
        table_id,
        tournament_id,
    )


async def tournament_of(conn: Connection, table_id: str) -> str | None:
    found: str | None = await conn.fetchval(
        f"SELECT tournament_id FROM {S}.tournament_tables WHERE table_id = $1", table_id
    )
    return found


async def seen(conn: Connection, tournament_id: str, player_id: str, at: datetime) -> None:
    await conn.execute(
        f"INSERT INTO {S}.tournament_presence (tournament_id, player_id, seen_at)"
        " VALUES ($1, $2, $3) ON CONFLICT (tournament_id, player_id)"
        # A follower asks every moment; one write in three seconds is plenty.
        " DO UPDATE SET seen_at = EXCLUDED.seen_at"
        " WHERE tournament_presence.seen_at < EXCLUDED.seen_at - interval '3 seconds'",
        tournament_id,
        player_id,
        at,
    )


async def seen_since(
    conn: Connection, tournament_id: str, players: Sequence[str], since: datetime
) -> set[str]:
    """Which of ``players`` followed the tournament at ``since`` or later."""
    rows = await conn.fetch(
        f"SELECT player_id FROM {S}.tournament_presence"
        " WHERE tournament_id = $1 AND player_id = ANY($2::text[]) AND seen_at >= $3",
        tournament_id,
        list(players),
        since,
    )
    return {r["player_id"] for r in rows}


async def read(
    events: EventStore, conn: Connection, tournament_id: str, known: Tournament | None = None
) -> Tournament | None:
    """The tournament its stream describes, or None if it has none; from ``known`` (the
    same tournament folded earlier) only the events after it are read and folded."""
    after = known.version if known is not None else 0
    recorded = await events.read_stream(stream_id(tournament_id), after + 1, conn=conn)
    if known is None:
        if not recorded:
            return None
        return rebuild(tournament_id, [(e.type, dict(e.data)) for e in recorded])
    for e in recorded:
        known = apply(known, e.type, dict(e.data))
    return known


async def append(
    events: EventStore, conn: Connection, t: Tournament, decided: Sequence[Event]
) -> None:
    """Append ``decided`` after the version ``t`` was folded at: a replica that decided on
    a stale tournament gets a ConcurrencyError and changes nothing."""
    new = [
        NewEvent(type_, data, _event_id(t.tournament_id, t.version + 1 + i))
        for i, (type_, data) in enumerate(decided)
    ]
    await events.append_events(stream_id(t.tournament_id), t.version, new, conn=conn)


def _event_id(tournament_id: str, version: int) -> uuid.UUID:
    return uuid.uuid5(_NAMESPACE, f"{tournament_id}:{version}")


_NAMESPACE = uuid.UUID("2c4f7e36-9f0b-4d55-8f7c-5b9a4e1d2a60")
