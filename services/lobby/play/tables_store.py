"""Tables the lobby formed, their seats, and what each player is busy with.

``busy_players`` is the guard behind "never seated at two tables at once" (MODE-3): a
player holds one row while waiting in a queue or sitting at a live table, and its
primary key refuses a second one on every replica alike.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime

import asyncpg

from tavolo.lobby.play.tables import BotLevel, Mode, Seat, TableSpec
from tavolo.lobby.store import Connection, S, from_json, to_json


@dataclass(frozen=True, slots=True)
class TableRecord:
    table_id: str
    spec: TableSpec
    mode: Mode
    formed_at: datetime
    stake: int = 0
    bot_filled: bool = False
    room_id: str | None = None
    started_at: datetime | None = None
    ended_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Busy:
    """What a player is doing: waiting with a ticket, or seated at a table."""

    player_id: str
    ticket_id: str | None
    table_id: str | None


@dataclass(frozen=True, slots=True)
class Assignment:
    """A player's seat at a table, with what a client needs to open it."""

    table_id: str
    seat: int
    game: str
    mode: Mode
    started: bool


_TABLE = (
    "table_id, game, mode, players, options, stake, bot_filled, room_id, formed_at,"
    " started_at, ended_at"
)


def _table(row: asyncpg.Record) -> TableRecord:
    return TableRecord(
        table_id=row["table_id"],
        spec=TableSpec(row["game"], row["players"], from_json(row["options"])),
        mode=Mode(row["mode"]),
        formed_at=row["formed_at"],
        stake=row["stake"],
        bot_filled=row["bot_filled"],
        room_id=row["room_id"],
        started_at=row["started_at"],
        ended_at=row["ended_at"],
    )


async def claim(
    conn: Connection,
    player_ids: Sequence[str],
    since: datetime,
    *,
    ticket_id: str | None = None,
    table_id: str | None = None,
) -> list[Busy]:
    """Mark the players busy; return those already busy with something else (none claimed
    then: the caller rolls back)."""
    claimed = await conn.fetch(
        f"INSERT INTO {S}.busy_players (player_id, ticket_id, table_id, since)"
        " SELECT unnest($1::text[]), $2, $3, $4 ON CONFLICT (player_id) DO NOTHING"
        " RETURNING player_id",
        list(player_ids),
        ticket_id,
        table_id,
        since,
    )
    if len(claimed) == len(player_ids):
        return []
    done = {r["player_id"] for r in claimed}
    others = [p for p in player_ids if p not in done]
    rows = await conn.fetch(
        f"SELECT player_id, ticket_id, table_id FROM {S}.busy_players"
        " WHERE player_id = ANY($1::text[])",
        others,
    )
    return [Busy(r["player_id"], r["ticket_id"], r["table_id"]) for r in rows]


async def busy_with(conn: Connection, player_id: str) -> Busy | None:
    row = await conn.fetchrow(
        f"SELECT player_id, ticket_id, table_id FROM {S}.busy_players WHERE player_id = $1",
        player_id,
    )
    return Busy(row["player_id"], row["ticket_id"], row["table_id"]) if row else None


async def release_ticket_claim(conn: Connection, player_id: str, ticket_id: str) -> None:
    await conn.execute(
        f"DELETE FROM {S}.busy_players WHERE player_id = $1 AND ticket_id = $2",
        player_id,
        ticket_id,
    )


async def release_table_claim(conn: Connection, player_id: str, table_id: str) -> bool:
    """Free a player from ``table_id`` (and only from it); False if it was not their claim."""
    status = await conn.execute(
        f"DELETE FROM {S}.busy_players WHERE player_id = $1 AND table_id = $2",
        player_id,
        table_id,
    )
    return bool(status.endswith(" 1"))


async def release_ticket_claims(conn: Connection, ticket_ids: Sequence[str]) -> None:
    await conn.execute(
        f"DELETE FROM {S}.busy_players WHERE ticket_id = ANY($1::text[])", list(ticket_ids)
    )


async def move_claims_to_tables(
    conn: Connection, ticket_ids: Sequence[str], table_ids: Sequence[str]
) -> None:
    """Waiting players become seated: each ticket's claim now names its table."""
    await conn.execute(
        f"UPDATE {S}.busy_players b SET ticket_id = NULL, table_id = m.table_id"
        " FROM unnest($1::text[], $2::text[]) AS m(ticket_id, table_id)"
        " WHERE b.ticket_id = m.ticket_id",
        list(ticket_ids),
        list(table_ids),
    )


async def insert_tables(
    conn: Connection, tables: Sequence[TableRecord], seats: Sequence[Sequence[Seat]]
) -> None:
    """Record tables and their seats in two statements, however many tables."""
    await conn.execute(
        f"INSERT INTO {S}.game_tables (table_id, game, mode, players, options, stake,"
        " bot_filled, room_id, formed_at)"
        " SELECT * FROM unnest($1::text[], $2::text[], $3::text[], $4::int[], $5::jsonb[],"
        " $6::bigint[], $7::bool[], $8::text[], $9::timestamptz[])",
        [t.table_id for t in tables],
        [t.spec.game for t in tables],
        [t.mode.value for t in tables],
        [t.spec.players for t in tables],
        [to_json(t.spec.options) for t in tables],
        [t.stake for t in tables],
        [t.bot_filled for t in tables],
        [t.room_id for t in tables],
        [t.formed_at for t in tables],
    )
    flat = [
        (t.table_id, s) for t, table_seats in zip(tables, seats, strict=True) for s in table_seats
    ]
    await conn.execute(
        f"INSERT INTO {S}.table_seats (table_id, seat, player_id, nickname, bot_level)"
        " SELECT * FROM unnest($1::text[], $2::int[], $3::text[], $4::text[], $5::text[])",
        [table_id for table_id, _ in flat],
        [s.seat for _, s in flat],
        [s.player_id for _, s in flat],
        [s.nickname for _, s in flat],
        [s.bot_level.value if s.bot_level else None for _, s in flat],
    )


async def table(conn: Connection, table_id: str) -> TableRecord | None:
    row = await conn.fetchrow(f"SELECT {_TABLE} FROM {S}.game_tables WHERE table_id = $1", table_id)
    return _table(row) if row else None


async def seats_of(conn: Connection, table_id: str) -> list[Seat]:
    rows = await conn.fetch(
        f"SELECT seat, player_id, nickname, bot_level FROM {S}.table_seats WHERE table_id = $1"
        " ORDER BY seat",
        table_id,
    )
    return [
        Seat(
            r["seat"],
            r["player_id"],
            r["nickname"],
            BotLevel(r["bot_level"]) if r["bot_level"] else None,
        )
        for r in rows
    ]


async def is_seated(conn: Connection, table_id: str, player_id: str) -> bool:
    found = await conn.fetchval(
        f"SELECT 1 FROM {S}.table_seats WHERE table_id = $1 AND player_id = $2",
        table_id,
        player_id,
    )
    return found is not None


async def mark_started(conn: Connection, table_id: str, at: datetime) -> bool:
    """Record that the engine dealt; False if unknown or already recorded."""
    status = await conn.execute(
        f"UPDATE {S}.game_tables SET started_at = $2 WHERE table_id = $1 AND started_at IS NULL",
        table_id,
        at,
    )
    return bool(status.endswith(" 1"))


async def end_table(conn: Connection, table_id: str, at: datetime, reason: str) -> list[str]:
    """The table is over: its players are free again. Returns the players freed."""
    await conn.execute(
        f"UPDATE {S}.game_tables SET ended_at = $2, end_reason = $3"
        " WHERE table_id = $1 AND ended_at IS NULL",
        table_id,
        at,
        reason,
    )
    rows = await conn.fetch(
        f"DELETE FROM {S}.busy_players WHERE table_id = $1 RETURNING player_id", table_id
    )
    return [r["player_id"] for r in rows]


async def live_assignment(conn: Connection, player_id: str) -> Assignment | None:
    """The live table the player sits at, if any."""
    row = await conn.fetchrow(
        f"SELECT t.table_id, s.seat, t.game, t.mode, t.started_at IS NOT NULL AS started"
        f" FROM {S}.busy_players b JOIN {S}.game_tables t ON t.table_id = b.table_id"
        f" JOIN {S}.table_seats s ON s.table_id = t.table_id AND s.player_id = b.player_id"
        " WHERE b.player_id = $1",
        player_id,
    )
    if row is None:
        return None
    return Assignment(row["table_id"], row["seat"], row["game"], Mode(row["mode"]), row["started"])


async def end_unstarted(conn: Connection, formed_before: datetime, at: datetime) -> list[str]:
    """Tables the engine never dealt: end them and free their players; the table ids."""
    rows = await conn.fetch(
        f"UPDATE {S}.game_tables SET ended_at = $2, end_reason = 'never started'"
        " WHERE started_at IS NULL AND ended_at IS NULL AND formed_at < $1"
        " RETURNING table_id",
        formed_before,
        at,
    )
    ended = [r["table_id"] for r in rows]
    if ended:
        await conn.execute(f"DELETE FROM {S}.busy_players WHERE table_id = ANY($1::text[])", ended)
    return ended
