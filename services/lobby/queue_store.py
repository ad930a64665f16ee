"""Matchmaking tickets and pending hold releases, durable in the lobby schema (MODE-3, MODE-4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

import asyncpg

from tavolo.lobby.matchmaking import WaitingTicket
from tavolo.lobby.store import Connection, S, from_json, to_json
from tavolo.lobby.tables import TableSpec
from tavolo.servicekit import tracing


class TicketState(StrEnum):
    WAITING = "waiting"
    SEATED = "seated"
    LEFT = "left"
    CANCELLED = "cancelled"
    HOLD_LOST = "hold_lost"  # the stake hold failed at the wallet before a table formed


@dataclass(frozen=True, slots=True)
class Ticket:
    ticket_id: str
    player_id: str
    nickname: str
    spec: TableSpec
    stake: int
    state: TicketState
    queued_at: datetime
    hold_id: str | None = None
    table_id: str | None = None
    seat: int | None = None

    @property
    def pool(self) -> str:
        return self.spec.pool(self.stake)


@dataclass(frozen=True, slots=True)
class PoolSummary:
    """One pool's waiting tickets at a glance, for the matchmaker to pick its work."""

    pool: str
    players: int
    stake: int
    waiting: int
    oldest: datetime


_TICKET = (
    "ticket_id, player_id, nickname, game, players, stake, options, state, queued_at,"
    " hold_id, table_id, seat"
)


def _ticket(row: asyncpg.Record) -> Ticket:
    return Ticket(
        ticket_id=row["ticket_id"],
        player_id=row["player_id"],
        nickname=row["nickname"],
        spec=TableSpec(row["game"], row["players"], from_json(row["options"])),
        stake=row["stake"],
        state=TicketState(row["state"]),
        queued_at=row["queued_at"],
        hold_id=row["hold_id"],
        table_id=row["table_id"],
        seat=row["seat"],
    )


async def insert_ticket(conn: Connection, ticket: Ticket) -> None:
    await conn.execute(
        f"INSERT INTO {S}.tickets (ticket_id, player_id, nickname, game, players, stake,"
        " options, pool, state, queued_at, hold_id, traceparent)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12)",
        ticket.ticket_id,
        ticket.player_id,
        ticket.nickname,
        ticket.spec.game,
        ticket.spec.players,
        ticket.stake,
        to_json(ticket.spec.options),
        ticket.pool,
        ticket.state.value,
        ticket.queued_at,
        ticket.hold_id,
        tracing.current_traceparent(),
    )


async def ticket_for_update(conn: Connection, ticket_id: str) -> Ticket | None:
    """The ticket, locked: the matchmaker's SKIP LOCKED passes it by until we commit."""
    row = await conn.fetchrow(
        f"SELECT {_TICKET} FROM {S}.tickets WHERE ticket_id = $1 FOR UPDATE", ticket_id
    )
    return _ticket(row) if row else None


async def close_ticket(
    conn: Connection, ticket_id: str, state: TicketState, at: datetime
) -> Ticket:
    row = await conn.fetchrow(
        f"UPDATE {S}.tickets SET state = $2, closed_at = $3 WHERE ticket_id = $1"
        f" RETURNING {_TICKET}",
        ticket_id,
        state.value,
        at,
    )
    return _ticket(row)


async def waiting_tickets_of(conn: Connection, player_id: str) -> list[Ticket]:
    rows = await conn.fetch(
        f"SELECT {_TICKET} FROM {S}.tickets WHERE player_id = $1 AND state = 'waiting'",
        player_id,
    )
    return [_ticket(r) for r in rows]


async def pools(conn: Connection) -> list[PoolSummary]:
    rows = await conn.fetch(
        f"SELECT pool, players, stake, count(*) AS waiting, min(queued_at) AS oldest"
        f" FROM {S}.tickets WHERE state = 'waiting' GROUP BY pool, players, stake"
    )
    return [
        PoolSummary(r["pool"], r["players"], r["stake"], r["waiting"], r["oldest"]) for r in rows
    ]


async def lock_pool(conn: Connection, pool: str, limit: int) -> list[WaitingTicket]:
    """The pool's oldest waiting tickets, locked; tickets another transaction holds are
    skipped, so replicas (and a player leaving) never block each other or double-seat."""
    rows = await conn.fetch(
        f"SELECT ticket_id, player_id, nickname, queued_at, hold_id, traceparent FROM {S}.tickets"
        " WHERE pool = $1 AND state = 'waiting' ORDER BY queued_at, ticket_id LIMIT $2"
        " FOR UPDATE SKIP LOCKED",
        pool,
        limit,
    )
    return [
        WaitingTicket(
            r["ticket_id"],
            r["player_id"],
            r["nickname"],
            r["queued_at"],
            r["hold_id"],
            r["traceparent"],
        )
        for r in rows
    ]


async def seat_tickets(
    conn: Connection,
    ticket_ids: Sequence[str],
    table_ids: Sequence[str],
    seats: Sequence[int],
    at: datetime,
) -> None:
    await conn.execute(
        f"UPDATE {S}.tickets t SET state = 'seated', table_id = m.table_id, seat = m.seat,"
        " closed_at = $4"
        " FROM unnest($1::text[], $2::text[], $3::int[]) AS m(ticket_id, table_id, seat)"
        " WHERE t.ticket_id = m.ticket_id",
        list(ticket_ids),
        list(table_ids),
        list(seats),
        at,
    )


async def cancel_tickets(conn: Connection, ticket_ids: Sequence[str], at: datetime) -> None:
    await conn.execute(
        f"UPDATE {S}.tickets SET state = 'cancelled', closed_at = $2"
        " WHERE ticket_id = ANY($1::text[])",
        list(ticket_ids),
        at,
    )


async def tickets_by_id(conn: Connection, ticket_ids: Sequence[str]) -> list[Ticket]:
    rows = await conn.fetch(
        f"SELECT {_TICKET} FROM {S}.tickets WHERE ticket_id = ANY($1::text[])", list(ticket_ids)
    )
    return [_ticket(r) for r in rows]


# -- stake holds to void at the wallet -------------------------------------------------


async def request_hold_release(
    conn: Connection, hold_id: str, player_id: str, at: datetime
) -> None:
    await conn.execute(
        f"INSERT INTO {S}.hold_releases (hold_id, player_id, requested_at) VALUES ($1, $2, $3)"
        " ON CONFLICT (hold_id) DO NOTHING",
        hold_id,
        player_id,
        at,
    )


async def pending_hold_releases(conn: Connection, limit: int = 100) -> list[str]:
    rows = await conn.fetch(
        f"SELECT hold_id FROM {S}.hold_releases WHERE done_at IS NULL"
        " ORDER BY requested_at LIMIT $1",
        limit,
    )
    return [r["hold_id"] for r in rows]


async def hold_release_done(conn: Connection, hold_id: str, at: datetime) -> None:
    await conn.execute(
        f"UPDATE {S}.hold_releases SET done_at = $2, attempts = attempts + 1, last_error = NULL"
        " WHERE hold_id = $1",
        hold_id,
        at,
    )


async def hold_release_failed(conn: Connection, hold_id: str, error: str) -> None:
    await conn.execute(
        f"UPDATE {S}.hold_releases SET attempts = attempts + 1, last_error = $2 WHERE hold_id = $1",
        hold_id,
        error[:500],
    )
