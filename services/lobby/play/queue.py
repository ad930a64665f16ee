"""Joining and leaving the matchmaking queues (MODE-3, MODE-4).

A stake is held by the wallet before the ticket exists (``hold_id`` = ticket id, so a
retry holds once): a player short of coins or frozen is refused with the wallet's own
message and nothing is queued. Leaving voids the hold: the release is recorded in the
same transaction as the ticket's end and sent to the wallet at once; if the wallet
cannot be reached, the background loop retries until it answers, so no stake stays
held for a ticket that has ended.
"""

from __future__ import annotations

import asyncio
from collections.abc import Mapping
from datetime import datetime
from typing import Any

import structlog

from tavolo.lobby.accounts.store import Account
from tavolo.lobby.context import LobbyContext, busy_message, busy_metadata
from tavolo.lobby.play import queue_store, tables_store
from tavolo.lobby.play.queue_store import Ticket, TicketState
from tavolo.lobby.play.tables import TableSpec, check_stake, table_spec
from tavolo.lobby.store import Connection
from tavolo.lobby.updates import TicketChanged
from tavolo.servicekit.auth import Principal
from tavolo.servicekit.errors import DomainError, FailedPrecondition, NotFound, Unavailable, quoted

log = structlog.get_logger("tavolo.lobby.play.queue")


class Queue:
    def __init__(self, ctx: LobbyContext) -> None:
        self.ctx = ctx

    async def join(
        self,
        caller: Principal,
        game: str,
        players: int,
        options: Mapping[str, Any] | None,
        stake: int,
    ) -> Ticket:
        spec = table_spec(game, players, options)
        check_stake(stake)
        ticket_id = self.ctx.new_id()
        if not stake:
            # No coins involved: check and record in one transaction (the busy claim is
            # the guard against a second ticket or a live table).
            async with self.ctx.db.transaction() as conn:
                account = await self.ctx.lobby_account(conn, caller)
                rating = await queue_store.rating_in(conn, account.player_id, spec.game)
                ticket = self._ticket(ticket_id, account, spec, 0, None, rating)
                await _record(conn, ticket)
        else:
            ticket = await self._join_with_stake(caller, ticket_id, spec, stake)
        await self.ctx.publish([(ticket.player_id, TicketChanged(ticket))])
        return ticket

    async def _join_with_stake(
        self, caller: Principal, ticket_id: str, spec: TableSpec, stake: int
    ) -> Ticket:
        """Check, hold the stake at the wallet, then record; a ticket that cannot be
        recorded has its hold released."""
        async with self.ctx.db.connection() as conn:
            account = await self.ctx.lobby_account(conn, caller)
            await self.ctx.ensure_free(conn, account.player_id, account.nickname, you=True)
            rating = await queue_store.rating_in(conn, account.player_id, spec.game)
        hold_id = ticket_id
        try:
            await self.ctx.wallet.hold_stake(
                hold_id, account.player_id, stake, f"ticket:{ticket_id}"
            )
        except Unavailable:
            # The hold may have been made with its answer lost: void it to be sure.
            await self._release_later(hold_id, account.player_id)
            raise
        ticket = self._ticket(ticket_id, account, spec, stake, hold_id, rating)
        try:
            async with self.ctx.db.transaction() as conn:
                await _record(conn, ticket)
        except BaseException:
            await self._release_later(hold_id, account.player_id)
            raise
        return ticket

    def _ticket(
        self,
        ticket_id: str,
        account: Account,
        spec: TableSpec,
        stake: int,
        hold_id: str | None,
        rating: tuple[float, float] | None,
    ) -> Ticket:
        """A new waiting ticket, carrying the rating its player joins with (RATE-2)."""
        return Ticket(
            ticket_id,
            account.player_id,
            account.nickname,
            spec,
            stake,
            TicketState.WAITING,
            self.ctx.clock(),
            hold_id=hold_id,
            rating=rating,
        )

    async def leave(self, caller: Principal, ticket_id: str) -> Ticket:
        """Leave the queue; a held stake is released. Leaving twice is refused politely."""
        now = self.ctx.clock()
        async with self.ctx.db.transaction() as conn:
            ticket = await queue_store.ticket_for_update(conn, ticket_id) if ticket_id else None
            if ticket is None or ticket.player_id != caller.player_id:
                raise NotFound(
                    f"you have no ticket {quoted(ticket_id)}",
                    reason="TICKET_NOT_FOUND",
                    metadata={"ticket_id": ticket_id},
                )
            if ticket.state is TicketState.SEATED:
                raise FailedPrecondition(
                    f"this ticket is already seated at table {ticket.table_id}: leave the"
                    " table in the game instead",
                    reason="TICKET_SEATED",
                    metadata={"table_id": ticket.table_id},
                )
            if ticket.state is not TicketState.WAITING:
                raise FailedPrecondition(
                    f"this ticket has already {ticket.state.value}",
                    reason="TICKET_CLOSED",
                    metadata={"state": ticket.state.value},
                )
            left = await queue_store.close_ticket(conn, ticket_id, TicketState.LEFT, now)
            await tables_store.release_ticket_claim(conn, ticket.player_id, ticket_id)
            if ticket.hold_id is not None:
                await queue_store.request_hold_release(conn, ticket.hold_id, ticket.player_id, now)
        if ticket.hold_id is not None:
            await self._release_now(ticket.hold_id)
        await self.ctx.publish([(caller.player_id, TicketChanged(left))])
        return left

    async def release_pending_holds(self) -> int:
        """Send every recorded release the wallet has not confirmed; how many succeeded."""
        async with self.ctx.db.connection() as conn:
            pending = await queue_store.pending_hold_releases(conn)
        done = 0
        for hold_id in pending:
            done += await self._release_now(hold_id)
        return done

    async def run_hold_releases(self) -> None:
        """Background loop: retry releases the wallet did not confirm."""
        while True:
            await self.release_pending_holds()
            await asyncio.sleep(self.ctx.config.hold_release_interval)

    async def _release_later(self, hold_id: str, player_id: str) -> None:
        async with self.ctx.db.transaction() as conn:
            await queue_store.request_hold_release(conn, hold_id, player_id, self.ctx.clock())
        await self._release_now(hold_id)

    async def release_now(self, hold_id: str) -> int:
        """Void a hold whose release is recorded; 1 once the wallet confirmed it."""
        return await self._release_now(hold_id)

    async def _release_now(self, hold_id: str) -> int:
        try:
            await self.ctx.wallet.release_hold(hold_id)
        except Unavailable as exc:
            log.warning("hold release failed; will retry", hold_id=hold_id, error=str(exc))
            async with self.ctx.db.transaction() as conn:
                await queue_store.hold_release_failed(conn, hold_id, str(exc))
            return 0
        except DomainError as exc:
            # The wallet knows this hold's fate (never made, already voided or posted):
            # nothing is left to release.
            log.info("hold needs no release", hold_id=hold_id, reason=str(exc))
        async with self.ctx.db.transaction() as conn:
            await queue_store.hold_release_done(conn, hold_id, self.ctx.clock())
        return 1


async def _record(conn: Connection, ticket: Ticket) -> None:
    """Claim the player for this ticket and store it; refused if they are busy."""
    busy = await tables_store.claim(
        conn, [ticket.player_id], ticket.queued_at, ticket_id=ticket.ticket_id
    )
    if busy:
        raise FailedPrecondition(
            busy_message(busy[0], ticket.nickname, you=True),
            reason="PLAYER_BUSY",
            metadata=busy_metadata(busy[0], ticket.nickname),
        )
    await queue_store.insert_ticket(conn, ticket)


async def hold_lost(conn: Connection, hold_id: str, why: str, at: datetime) -> Ticket | None:
    """A waiting ticket whose stake hold failed at the wallet leaves the queue (MODE-4):
    the matchmaker seats only tickets still waiting, so no table forms on a hold that is
    gone. The ticket, closed, to tell its player; None if no waiting ticket had it."""
    ticket = await queue_store.ticket_for_update(conn, hold_id)
    if ticket is None or ticket.hold_id != hold_id or ticket.state is not TicketState.WAITING:
        return None
    lost = await queue_store.close_ticket(conn, ticket.ticket_id, TicketState.HOLD_LOST, at)
    await tables_store.release_ticket_claim(conn, ticket.player_id, ticket.ticket_id)
    log.warning("stake hold lost; ticket closed", ticket=ticket.ticket_id, why=why)
    return lost
