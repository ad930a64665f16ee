"""Matchmaking tickets and pending hold releases, durable in the lobby schema (MODE-3, MODE-4)."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

import asyncpg

from tavolo.lobby.play.foresight import Arrivals, PoolOutlook, pool_pace
from tavolo.lobby.play.policy import NEW_MU, NEW_SIGMA, MatchPolicy, WaitingTicket
from tavolo.lobby.play.tables import TableSpec
from tavolo.lobby.store import Connection, S, from_json, to_json
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
    rating: tuple[float, float] | None = None  # (mu, sigma) at joining; None = not rated

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
        " options, pool, state, queued_at, hold_id, rating_mu, rating_sigma, traceparent)"
        " VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11, $12, $13, $14)",
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
        None if ticket.rating is None else ticket.rating[0],
        None if ticket.rating is None else ticket.rating[1],
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
        "SELECT ticket_id, player_id, nickname, queued_at, hold_id, rating_mu, rating_sigma,"
        f" traceparent FROM {S}.tickets"
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
            NEW_MU if r["rating_mu"] is None else r["rating_mu"],
            NEW_SIGMA if r["rating_sigma"] is None else r["rating_sigma"],
            r["traceparent"],
        )
        for r in rows
    ]


OUTLOOK_SAMPLE = 256  # the latest tickets' ratings read for the density of those to come


async def pool_history(
    conn: Connection, pool: str, *, now: datetime, policy: MatchPolicy
) -> Arrivals:
    """The pool's arrivals over ``policy.rate_window`` (seated, waiting or gone), for its
    steady rate: the dearest read of the outlook (8 ms a round at 20 tickets a second
    over a half hour), so the matchmaker keeps it a while."""
    row = await conn.fetchrow(
        "SELECT count(*) AS arrivals, min(queued_at) AS earliest, max(queued_at) AS latest"
        f" FROM {S}.tickets WHERE pool = $1 AND queued_at > $2",
        pool,
        now - policy.rate_window,
    )
    if not row["arrivals"]:
        return Arrivals(0, now, now)
    return Arrivals(row["arrivals"], row["earliest"], row["latest"])


async def pool_outlook(
    conn: Connection,
    pool: str,
    *,
    now: datetime,
    players: int,
    policy: MatchPolicy,
    round_seconds: float,
    history: Arrivals,
) -> PoolOutlook | None:
    """What the pool's tickets of the last ``policy.outlook_window`` say of those to come
    (tickets that left the queue count as arrivals, not as waits), its rate steadied by
    its ``history`` (``pool_history``)."""
    since = now - policy.outlook_window
    row = await conn.fetchrow(
        f"SELECT count(*) AS arrivals, min(queued_at) AS earliest, max(queued_at) AS latest,"
        " array(SELECT coalesce(rating_mu, $3) FROM"
        f" (SELECT rating_mu FROM {S}.tickets WHERE pool = $1 AND queued_at > $2"
        "   ORDER BY queued_at DESC LIMIT $4) AS latest) AS ratings"
        f" FROM {S}.tickets WHERE pool = $1 AND queued_at > $2",
        pool,
        since,
        NEW_MU,
        OUTLOOK_SAMPLE,
    )
    if not row["arrivals"]:
        return None
    pace = pool_pace(
        Arrivals(row["arrivals"], row["earliest"], row["latest"]),
        history,
        players=players,
        policy=policy,
        round_seconds=round_seconds,
    )
    if pace is None:
        return None
    rate, target = pace
    late = await conn.fetchval(
        f"SELECT count(*) FROM {S}.tickets WHERE pool = $1 AND queued_at > $2"
        " AND state IN ('waiting', 'seated') AND coalesce(closed_at, $3) - queued_at > $4",
        pool,
        since,
        now,
        target,
    )
    return PoolOutlook.of(
        rate=rate,
        target=target,
        arrivals=row["arrivals"],
        late=int(late),
        ratings=list(row["ratings"]),
        policy=policy,
        round_seconds=round_seconds,
    )


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


# -- ratings the leaderboard told (RATE-2) ---------------------------------------------

PROVISIONAL_TABLES = 10  # as the leaderboard counts it (tavolo.leaderboard.ratings)


@dataclass(frozen=True, slots=True)
class KnownRating:
    """A player's rating in one game as the leaderboard last told it."""

    game: str
    mu: float
    sigma: float
    rated_tables: int

    @property
    def shown(self) -> float:
        """As the leaderboard shows it: mu - 3 sigma, never below 0."""
        return max(0.0, self.mu - 3.0 * self.sigma)

    @property
    def provisional(self) -> bool:
        return self.rated_tables < PROVISIONAL_TABLES


async def record_ratings(
    conn: Connection, game: str, ratings: Sequence[tuple[str, float, float, int]]
) -> None:
    """Keep each (player, mu, sigma, rated tables) unless a newer rating is known."""
    await conn.execute(
        f"INSERT INTO {S}.player_ratings AS r (player_id, game, mu, sigma, rated_tables)"
        " SELECT p, $1, m, s, n FROM unnest($2::text[], $3::float8[], $4::float8[],"
        " $5::bigint[]) AS u(p, m, s, n) ORDER BY 1"
        " ON CONFLICT (player_id, game) DO UPDATE SET mu = excluded.mu, sigma = excluded.sigma,"
        " rated_tables = excluded.rated_tables WHERE r.rated_tables < excluded.rated_tables",
        game,
        [r[0] for r in ratings],
        [r[1] for r in ratings],
        [r[2] for r in ratings],
        [r[3] for r in ratings],
    )


async def ratings_of(conn: Connection, player_id: str) -> list[KnownRating]:
    rows = await conn.fetch(
        f"SELECT game, mu, sigma, rated_tables FROM {S}.player_ratings WHERE player_id = $1"
        " ORDER BY game",
        player_id,
    )
    return [KnownRating(r[0], r[1], r[2], r[3]) for r in rows]


async def rating_in(conn: Connection, player_id: str, game: str) -> tuple[float, float] | None:
    row = await conn.fetchrow(
        f"SELECT mu, sigma FROM {S}.player_ratings WHERE player_id = $1 AND game = $2",
        player_id,
        game,
    )
    return None if row is None else (row[0], row[1])
