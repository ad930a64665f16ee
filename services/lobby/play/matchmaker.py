"""The matchmaker loop: forms tables from the durable queues, on every replica at once.

Each round looks at the pools with waiting tickets and works those that are due (enough
tickets for a table, or an oldest ticket past its wait). One pool batch is one
transaction:

1. ``pg_try_advisory_xact_lock`` on the pool: one replica works a pool at a time (the
   others skip it this round instead of splitting its tickets into incomplete tables);
2. ``SELECT ... FOR UPDATE SKIP LOCKED`` of the pool's oldest tickets: a ticket being
   left right now is passed by, never waited for, never seated;
3. ``matchmaking.plan_pool`` decides; tables, seats, ticket states and the busy claims
   are written with one statement each, and the MatchFormed / MatchCancelled events are
   appended last, in one append, in the same transaction.

So a player is seated once or not at all, whatever crashes where; a restart resumes from
the tickets in PostgreSQL. The one thing a replica keeps between rounds is each rated
pool's half hour of history (``queue_store.pool_history``), read again every
``HISTORY_REFRESH``: a cache, rebuilt from the tickets after a restart.
"""

from __future__ import annotations

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass, field
from datetime import datetime, timedelta

import structlog

from tavolo.lobby import events
from tavolo.lobby.context import LobbyContext, seconds
from tavolo.lobby.play import queue_store, tables_store
from tavolo.lobby.play.foresight import Arrivals
from tavolo.lobby.play.matchmaking import CancelTable, FormTable, next_deadline, plan_pool
from tavolo.lobby.play.queue_store import PoolSummary
from tavolo.lobby.play.tables import Mode, Seat, TableSpec, bot_seats
from tavolo.lobby.play.tables_store import TableRecord
from tavolo.lobby.store import Connection
from tavolo.lobby.updates import TicketChanged
from tavolo.servicekit import tracing

log = structlog.get_logger("tavolo.lobby.play.matchmaker")

CANCEL_REASON = "the stake table did not fill with real players in time; your stake is refunded"

HISTORY_REFRESH = timedelta(seconds=30)
"""How long a pool's history (its arrivals of the last half hour) is kept before it is
read again: the steady rate it gives moves slowly by design, and reading it is the
dearest part of a rated pool's round."""


def _fresh(read_at: datetime, now: datetime) -> bool:
    """A history read at ``read_at`` still serves at ``now`` (a clock set back reads it
    again)."""
    return timedelta(0) <= now - read_at < HISTORY_REFRESH


@dataclass
class RoundResult:
    """What one round did (for logs, tests and the benchmark)."""

    tables_formed: int = 0
    bot_filled: int = 0
    cancelled: int = 0
    tickets_seated: int = 0
    never_started: int = 0
    match_ids: list[str] = field(default_factory=list)


class Matchmaker:
    def __init__(self, ctx: LobbyContext) -> None:
        self.ctx = ctx
        self._histories: dict[str, tuple[datetime, Arrivals]] = {}

    async def run(self) -> None:
        """Background loop: a round every ``matchmaker_interval`` seconds."""
        while True:
            result = await self.run_round()
            if result.tables_formed or result.cancelled:
                log.info(
                    "matchmaking round",
                    tables=result.tables_formed,
                    bot_filled=result.bot_filled,
                    cancelled=result.cancelled,
                )
            await asyncio.sleep(self.ctx.config.matchmaker_interval)

    async def run_round(self) -> RoundResult:
        now = self.ctx.clock()
        policy = self.ctx.config.policy
        result = RoundResult()
        async with self.ctx.db.connection() as conn:
            summaries = await queue_store.pools(conn)
        self._histories = {
            pool: kept for pool, kept in self._histories.items() if _fresh(kept[0], now)
        }
        for summary in summaries:
            due = summary.waiting >= summary.players or now >= next_deadline(
                summary.oldest, stake=summary.stake, policy=policy
            )
            if due:
                # A span of its own: the matchmaker is a loop, not a call, and what a
                # round forms (MatchFormed, the tables it opens) is traced from here.
                with tracing.span("lobby matchmaking", pool=summary.pool):
                    await self._work_pool(summary, now, result)
        async with self.ctx.db.transaction() as conn:
            stale = now - seconds(self.ctx.config.start_timeout)
            ended = await tables_store.end_unstarted(conn, stale, now)
        if ended:
            log.warning("tables never dealt; players freed", tables=ended)
            result.never_started = len(ended)
        return result

    async def _work_pool(self, summary: PoolSummary, now: datetime, result: RoundResult) -> None:
        batch = self.ctx.config.matchmaker_batch
        while True:
            notices: list[str] = []
            async with self.ctx.db.transaction() as conn:
                mine = await conn.fetchval(
                    "SELECT pg_try_advisory_xact_lock(hashtext('tavolo.lobby.pool'), hashtext($1))",
                    summary.pool,
                )
                if not mine:
                    return
                tickets = await queue_store.lock_pool(conn, summary.pool, batch)
                complete = len(tickets) < batch
                policy = self.ctx.config.policy
                rated = policy.rated_for(summary.pool)
                outlook = None
                if rated and policy.foresight:
                    outlook = await queue_store.pool_outlook(
                        conn,
                        summary.pool,
                        now=now,
                        players=summary.players,
                        policy=policy,
                        round_seconds=self.ctx.config.matchmaker_interval,
                        history=await self._history(conn, summary.pool, now),
                    )
                decisions = plan_pool(
                    tickets,
                    players=summary.players,
                    stake=summary.stake,
                    now=now,
                    policy=policy,
                    complete=complete,
                    rated=rated,
                    outlook=outlook,
                )
                if not decisions:
                    return
                forms = [d for d in decisions if isinstance(d, FormTable)]
                cancels = [d for d in decisions if isinstance(d, CancelTable)]
                spec = await _pool_spec(conn, tickets[0].ticket_id)
                pending = await self._form(conn, forms, spec, summary.stake, now, result)
                pending += await self._cancel(conn, cancels, now, result)
                together = events.batch(f"matchmaking-{self.ctx.new_id()}", pending)
                await self.ctx.append(conn, [together] if together else [])
                notices = [t.ticket_id for d in decisions for t in d.tickets]
            self.ctx.on_append()
            await self._tell(notices)
            if complete:
                return

    async def _history(self, conn: Connection, pool: str, now: datetime) -> Arrivals:
        """The pool's history, as read at most ``HISTORY_REFRESH`` ago."""
        kept = self._histories.get(pool)
        if kept is None or not _fresh(kept[0], now):
            history = await queue_store.pool_history(
                conn, pool, now=now, policy=self.ctx.config.policy
            )
            kept = self._histories[pool] = (now, history)
        return kept[1]

    async def _form(
        self,
        conn: Connection,
        forms: Sequence[FormTable],
        spec: TableSpec,
        stake: int,
        now: datetime,
        result: RoundResult,
    ) -> list[events.Pending]:
        if not forms:
            return []
        mode = Mode.STAKE if stake else Mode.ONLINE
        level = self.ctx.config.policy.bot_level
        records: list[TableRecord] = []
        all_seats: list[list[Seat]] = []
        pending: list[events.Pending] = []
        ticket_ids: list[str] = []
        table_ids: list[str] = []
        seat_numbers: list[int] = []
        for form in forms:
            table_id = self.ctx.new_id()
            # Links this match's trace to the JoinQueue calls of the players it seats.
            with tracing.linked(
                "lobby form table", [t.traceparent for t in form.tickets], table_id=table_id
            ):
                pass
            seats = [Seat(i, t.player_id, t.nickname) for i, t in enumerate(form.tickets)]
            seats += bot_seats(len(seats), form.bots, level)
            records.append(TableRecord(table_id, spec, mode, now, stake, form.bot_filled))
            all_seats.append(seats)
            holds = {i: t.hold_id for i, t in enumerate(form.tickets) if t.hold_id}
            pending.append(
                events.match_formed(
                    table_id,
                    spec,
                    mode,
                    seats,
                    stake=stake,
                    bot_filled=form.bot_filled,
                    hold_ids=holds,
                    engine_options=self.ctx.config.engine_options,
                )
            )
            for i, ticket in enumerate(form.tickets):
                ticket_ids.append(ticket.ticket_id)
                table_ids.append(table_id)
                seat_numbers.append(i)
            result.tables_formed += 1
            result.bot_filled += int(form.bot_filled)
            result.tickets_seated += len(form.tickets)
            result.match_ids.append(table_id)
        await tables_store.insert_tables(conn, records, all_seats)
        await queue_store.seat_tickets(conn, ticket_ids, table_ids, seat_numbers, now)
        await tables_store.move_claims_to_tables(conn, ticket_ids, table_ids)
        return pending

    async def _cancel(
        self,
        conn: Connection,
        cancels: Sequence[CancelTable],
        now: datetime,
        result: RoundResult,
    ) -> list[events.Pending]:
        pending: list[events.Pending] = []
        for cancel in cancels:
            match_id = self.ctx.new_id()
            ids = [t.ticket_id for t in cancel.tickets]
            await queue_store.cancel_tickets(conn, ids, now)
            await tables_store.release_ticket_claims(conn, ids)
            holds = {t.player_id: t.hold_id for t in cancel.tickets if t.hold_id}
            pending.append(events.match_cancelled(match_id, CANCEL_REASON, holds))
            result.cancelled += 1
            result.match_ids.append(match_id)
        return pending

    async def _tell(self, ticket_ids: Sequence[str]) -> None:
        if not ticket_ids:
            return
        async with self.ctx.db.connection() as conn:
            tickets = await queue_store.tickets_by_id(conn, ticket_ids)
        await self.ctx.publish([(t.player_id, TicketChanged(t)) for t in tickets])


async def _pool_spec(conn: Connection, ticket_id: str) -> TableSpec:
    """The table every ticket of the pool wants (the pool key is made of it)."""
    found = await queue_store.tickets_by_id(conn, [ticket_id])
    return found[0].spec
