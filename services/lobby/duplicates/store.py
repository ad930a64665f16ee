"""Duplicate competitions and their entries in the lobby's schema (migration 090)."""

from __future__ import annotations

from datetime import datetime

import asyncpg

from tavolo.lobby.duplicates.competition import Competition
from tavolo.lobby.duplicates.ranking import Entry
from tavolo.lobby.play.tables import TableSpec
from tavolo.lobby.store import Connection, S, from_json, to_json

_COMPETITION = "duplicate_id, game, options, opens_at, closes_at, seed"
_ENTRY = "player_id, nickname, table_id, result, score, moves, millis"


def _competition(row: asyncpg.Record) -> Competition:
    return Competition(
        row["duplicate_id"],
        TableSpec(row["game"], 1, from_json(row["options"])),
        row["opens_at"],
        row["closes_at"],
        bytes(row["seed"]),
    )


def _entry(row: asyncpg.Record) -> Entry:
    return Entry(
        row["player_id"],
        row["nickname"],
        row["table_id"],
        row["result"],
        int(row["score"] or 0),
        int(row["millis"] or 0),
        int(row["moves"] or 0),
    )


async def insert(conn: Connection, c: Competition, created_by: str, now: datetime) -> bool:
    """Record a competition; False when one with its id exists (left unchanged)."""
    status = await conn.execute(
        f"INSERT INTO {S}.duplicates (duplicate_id, game, options, opens_at, closes_at, seed,"
        " commitment, created_by, created_at) VALUES ($1, $2, $3::jsonb, $4, $5, $6, $7, $8, $9)"
        " ON CONFLICT (duplicate_id) DO NOTHING",
        c.duplicate_id,
        c.spec.game,
        to_json(c.spec.options),
        c.opens_at,
        c.closes_at,
        c.seed,
        c.commitment,
        created_by,
        now,
    )
    return bool(status.endswith(" 1"))


async def competition(conn: Connection, duplicate_id: str) -> Competition | None:
    row = await conn.fetchrow(
        f"SELECT {_COMPETITION} FROM {S}.duplicates WHERE duplicate_id = $1", duplicate_id
    )
    return _competition(row) if row else None


async def entry(conn: Connection, duplicate_id: str, player_id: str) -> Entry | None:
    row = await conn.fetchrow(
        f"SELECT {_ENTRY} FROM {S}.duplicate_entries WHERE duplicate_id = $1 AND player_id = $2",
        duplicate_id,
        player_id,
    )
    return _entry(row) if row else None


async def entries(conn: Connection, duplicate_id: str) -> list[Entry]:
    rows = await conn.fetch(
        f"SELECT {_ENTRY} FROM {S}.duplicate_entries WHERE duplicate_id = $1", duplicate_id
    )
    return [_entry(r) for r in rows]


async def add_entry(conn: Connection, duplicate_id: str, entry: Entry, joined_at: datetime) -> None:
    await conn.execute(
        f"INSERT INTO {S}.duplicate_entries (duplicate_id, player_id, nickname, table_id,"
        " joined_at) VALUES ($1, $2, $3, $4, $5)",
        duplicate_id,
        entry.player_id,
        entry.nickname,
        entry.table_id,
        joined_at,
    )


async def finish_entry(
    conn: Connection, table_id: str, result: str, score: int, moves: int, ended_at: datetime
) -> bool:
    """Fill in the result of the entry playing ``table_id``, timed from its deal; False
    when no entry plays that table or its result is already recorded."""
    status = await conn.execute(
        f"UPDATE {S}.duplicate_entries SET result = $2, score = $3, moves = $4,"
        " millis = GREATEST(0, (EXTRACT(EPOCH FROM ($5 - joined_at)) * 1000)::bigint)"
        " WHERE table_id = $1 AND result IS NULL",
        table_id,
        result,
        score,
        moves,
        ended_at,
    )
    return bool(status.endswith(" 1"))
