"""What WatchLobby starts with, and what the engine's table events mean to the lobby.

A WatchLobby stream opens with a snapshot of the caller's durable state (pending
invitations, waiting tickets, the live table once dealt), then follows live updates;
see ``tavolo.lobby.updates`` for why that pair loses nothing a client needs.

The engine's facts (consumed in ``consumers``):

- TableStarted: the table is dealt; each seated player is told where to sit.
- SeatLeft: a player left a table still in play (a bot took the seat); they are free at
  once for new tables, as if the table had ended for them.
- TableFinished / TableAborted: the table is over; its players are free for new tables.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavolo.lobby.context import LobbyContext
from tavolo.lobby.play import queue_store, rooms_store, tables_store
from tavolo.lobby.play.tables import Mode
from tavolo.lobby.play.tables_store import Assignment
from tavolo.lobby.store import Connection
from tavolo.lobby.updates import InvitationChanged, Seated, TicketChanged, Update
from tavolo.servicekit.auth import Principal


class Watch:
    def __init__(self, ctx: LobbyContext) -> None:
        self.ctx = ctx

    async def snapshot(self, caller: Principal) -> list[Update]:
        async with self.ctx.db.connection() as conn:
            await self.ctx.account(conn, caller)
            found: list[Update] = [
                InvitationChanged(invitation, room)
                for invitation, room in await rooms_store.pending_invitations_for(
                    conn, caller.player_id
                )
            ]
            found += [
                TicketChanged(t)
                for t in await queue_store.waiting_tickets_of(conn, caller.player_id)
            ]
            live = await tables_store.live_assignment(conn, caller.player_id)
            if live is not None and live.started:
                found.append(Seated(live))
        return found

    # -- the engine's table events ------------------------------------------------------

    async def table_started(
        self,
        conn: Connection,
        table_id: str,
        game: str,
        mode: Mode,
        seated: Sequence[tuple[int, str]],
    ) -> list[tuple[str, Update]]:
        """Record the start; the notices to send (each seated player) after commit."""
        await tables_store.mark_started(conn, table_id, self.ctx.clock())
        return [
            (player_id, Seated(Assignment(table_id, seat, game, mode, started=True)))
            for seat, player_id in seated
        ]

    async def table_ended(self, conn: Connection, table_id: str, reason: str) -> list[str]:
        """Free the table's players; the ids freed."""
        return await tables_store.end_table(conn, table_id, self.ctx.clock(), reason)

    async def seat_left(self, conn: Connection, table_id: str, player_id: str) -> bool:
        """Free a player who left ``table_id``; False if they were busy with something else."""
        return await tables_store.release_table_claim(conn, player_id, table_id)
