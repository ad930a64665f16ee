"""Tables for a player at once (versus computer, MODE-1) and among friends (rooms, MODE-2).

Versus computer: the lobby opens the table directly with ``Engine.OpenTable`` (the table
id chosen here, so a retry is the same table) and the player is seated at once.
Rooms: the host invites by nickname; friends accept or decline; the host starts, and the
table goes to the engine as a ``MatchFormed`` event written with the seating.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tavolo.lobby import events
from tavolo.lobby.accounts import store as accounts_store
from tavolo.lobby.accounts.nicknames import normalise, skeleton
from tavolo.lobby.accounts.sanctions import may_use_lobby
from tavolo.lobby.context import LobbyContext, busy_message, busy_metadata
from tavolo.lobby.play import rooms_store, tables_store
from tavolo.lobby.play.rooms import (
    Invitation,
    InvitationState,
    Room,
    check_invite,
    check_response,
    plan_start,
)
from tavolo.lobby.play.tables import BotLevel, Mode, Seat, bot_seats, table_spec
from tavolo.lobby.play.tables_store import Assignment, TableRecord
from tavolo.lobby.store import Connection
from tavolo.lobby.updates import InvitationChanged
from tavolo.servicekit.auth import Principal
from tavolo.servicekit.errors import FailedPrecondition, InvalidArgument, NotFound, quoted

DEFAULT_LEVEL = BotLevel.MEDIUM


class Play:
    def __init__(self, ctx: LobbyContext) -> None:
        self.ctx = ctx

    # -- versus computer (MODE-1) ------------------------------------------------------

    async def versus_computer(
        self,
        caller: Principal,
        game: str,
        options: Mapping[str, Any] | None,
        players: int,
        level: BotLevel | None,
    ) -> Assignment:
        """A table of the caller (seat 0) and bots, opened at once; it pays nothing."""
        spec = table_spec(game, players, options)
        level = level or DEFAULT_LEVEL
        table_id = self.ctx.new_id()
        now = self.ctx.clock()
        async with self.ctx.db.transaction() as conn:
            account = await self.ctx.lobby_account(conn, caller)
            seats = [
                Seat(0, account.player_id, account.nickname),
                *bot_seats(1, players - 1, level),
            ]
            busy = await tables_store.claim(conn, [account.player_id], now, table_id=table_id)
            if busy:
                raise FailedPrecondition(
                    busy_message(busy[0], account.nickname, you=True),
                    reason="PLAYER_BUSY",
                    metadata=busy_metadata(busy[0], account.nickname),
                )
            record = TableRecord(table_id, spec, Mode.VERSUS_COMPUTER, now)
            await tables_store.insert_tables(conn, [record], [seats])
            # Opened while the seat is claimed: if the engine refuses or cannot be
            # reached, the transaction rolls back and the player is free again.
            await self.ctx.engine.open_table(table_id, spec, seats, Mode.VERSUS_COMPUTER)
        return Assignment(table_id, 0, spec.game, Mode.VERSUS_COMPUTER, started=True)

    # -- rooms (MODE-2) ----------------------------------------------------------------

    async def create_room(
        self, caller: Principal, game: str, options: Mapping[str, Any] | None, players: int
    ) -> Room:
        spec = table_spec(game, players, options)
        async with self.ctx.db.transaction() as conn:
            host = await self.ctx.lobby_account(conn, caller)
            room = Room(self.ctx.new_id(), host.player_id, host.nickname, spec, self.ctx.clock())
            await rooms_store.insert_room(conn, room)
        return room

    async def invite(self, caller: Principal, room_id: str, nickname: str) -> Room:
        if not nickname.strip():
            raise InvalidArgument(
                "name the player to invite by their nickname",
                reason="FIELD_REQUIRED",
                metadata={"field": "nickname"},
            )
        async with self.ctx.db.transaction() as conn:
            await self.ctx.lobby_account(conn, caller)
            room = await self._room(conn, room_id)
            invitee = await accounts_store.account_by_key(conn, _key(nickname))
            if invitee is None:
                raise NotFound(
                    f"no player is called {quoted(nickname.strip())}",
                    reason="PLAYER_NOT_FOUND",
                    metadata={"nickname": nickname.strip()},
                )
            check_invite(room, caller.player_id, invitee.player_id, invitee.nickname)
            invitation = Invitation(
                room.room_id,
                invitee.player_id,
                invitee.nickname,
                InvitationState.PENDING,
                self.ctx.clock(),
            )
            await rooms_store.put_invitation(conn, invitation)
            room = await self._room(conn, room_id)
        await self.ctx.publish([(invitee.player_id, InvitationChanged(invitation, room))])
        return room

    async def respond(self, caller: Principal, room_id: str, accept: bool) -> Room:
        async with self.ctx.db.transaction() as conn:
            room = await self._room(conn, room_id)
            if accept:
                await self.ctx.lobby_account(conn, caller)
            invitation = check_response(room, caller.player_id, accept)
            state = InvitationState.ACCEPTED if accept else InvitationState.DECLINED
            answered = rooms_store.touched(invitation, state, self.ctx.clock())
            await rooms_store.put_invitation(conn, answered)
            room = await self._room(conn, room_id)
        update = InvitationChanged(answered, room)
        await self.ctx.publish([(caller.player_id, update), (room.host_id, update)])
        return room

    async def start_room(
        self, caller: Principal, room_id: str, fill_with_bots: bool, level: BotLevel | None
    ) -> Assignment:
        """The host starts: every human is claimed, the seating and MatchFormed commit together."""
        table_id = self.ctx.new_id()
        now = self.ctx.clock()
        async with self.ctx.db.transaction() as conn:
            await self.ctx.lobby_account(conn, caller)
            room = await self._room(conn, room_id)
            seats = plan_start(room, caller.player_id, fill_with_bots, level or DEFAULT_LEVEL)
            humans = [s for s in seats if s.player_id is not None]
            for seat in humans:  # a suspended member is seated nowhere (PCG-4)
                assert seat.player_id is not None
                sanctions = await self.ctx.sanctions(conn, seat.player_id)
                if not may_use_lobby(sanctions, now):
                    raise FailedPrecondition(
                        f"{seat.nickname} cannot play: their lobby access is suspended;"
                        " start without them",
                        reason="PLAYER_SUSPENDED",
                        metadata={"nickname": seat.nickname},
                    )
            busy = await tables_store.claim(
                conn, [s.player_id for s in humans if s.player_id], now, table_id=table_id
            )
            if busy:
                nick = next(s.nickname for s in humans if s.player_id == busy[0].player_id)
                you = busy[0].player_id == caller.player_id
                raise FailedPrecondition(
                    busy_message(busy[0], nick, you),
                    reason="PLAYER_BUSY",
                    metadata=busy_metadata(busy[0], nick),
                )
            record = TableRecord(
                table_id,
                room.spec,
                Mode.VERSUS_FRIENDS,
                now,
                room_id=room.room_id,
            )
            await tables_store.insert_tables(conn, [record], [seats])
            await rooms_store.set_table(conn, room.room_id, table_id)
            await self.ctx.append(
                conn,
                [
                    events.match_formed(
                        table_id,
                        room.spec,
                        Mode.VERSUS_FRIENDS,
                        seats,
                        engine_options=self.ctx.config.engine_options,
                    )
                ],
            )
        self.ctx.on_append()
        return Assignment(table_id, 0, room.spec.game, Mode.VERSUS_FRIENDS, started=False)

    async def _room(self, conn: Connection, room_id: str) -> Room:
        room = await rooms_store.room(conn, room_id, for_update=True) if room_id else None
        if room is None:
            raise NotFound(
                f"no room has the id {quoted(room_id)}",
                reason="ROOM_NOT_FOUND",
                metadata={"room_id": room_id},
            )
        return room


def _key(nickname: str) -> str:
    try:
        return skeleton(normalise(nickname))
    except InvalidArgument:
        raise NotFound(
            f"no player is called {quoted(nickname.strip())}",
            reason="PLAYER_NOT_FOUND",
            metadata={"nickname": nickname.strip()},
        ) from None
