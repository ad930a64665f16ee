"""Rooms and invitations in the lobby schema (MODE-2)."""

from __future__ import annotations

from datetime import datetime

import asyncpg

from tavolo.lobby.play.rooms import Invitation, InvitationState, Room
from tavolo.lobby.play.tables import TableSpec
from tavolo.lobby.store import Connection, S, from_json, to_json

_ROOM = "room_id, host_id, host_nickname, game, players, options, created_at, table_id"
_INVITATION = "room_id, player_id, nickname, state, invited_at, responded_at"


def _invitation(row: asyncpg.Record) -> Invitation:
    return Invitation(
        room_id=row["room_id"],
        player_id=row["player_id"],
        nickname=row["nickname"],
        state=InvitationState(row["state"]),
        invited_at=row["invited_at"],
        responded_at=row["responded_at"],
    )


async def insert_room(conn: Connection, room: Room) -> None:
    await conn.execute(
        f"INSERT INTO {S}.rooms ({_ROOM}) VALUES ($1, $2, $3, $4, $5, $6::jsonb, $7, $8)",
        room.room_id,
        room.host_id,
        room.host_nickname,
        room.spec.game,
        room.spec.players,
        to_json(room.spec.options),
        room.created_at,
        room.table_id,
    )


async def room(conn: Connection, room_id: str, *, for_update: bool = False) -> Room | None:
    """The room with its invitations; ``for_update`` serialises changes to one room."""
    lock = " FOR UPDATE" if for_update else ""
    row = await conn.fetchrow(f"SELECT {_ROOM} FROM {S}.rooms WHERE room_id = $1{lock}", room_id)
    if row is None:
        return None
    invitations = await conn.fetch(
        f"SELECT {_INVITATION} FROM {S}.invitations WHERE room_id = $1 ORDER BY invited_at",
        room_id,
    )
    return Room(
        room_id=row["room_id"],
        host_id=row["host_id"],
        host_nickname=row["host_nickname"],
        spec=TableSpec(row["game"], row["players"], from_json(row["options"])),
        created_at=row["created_at"],
        invitations=tuple(_invitation(i) for i in invitations),
        table_id=row["table_id"],
    )


async def put_invitation(conn: Connection, invitation: Invitation) -> None:
    """Create an invitation, or renew a declined one."""
    await conn.execute(
        f"INSERT INTO {S}.invitations ({_INVITATION}) VALUES ($1, $2, $3, $4, $5, $6)"
        " ON CONFLICT (room_id, player_id) DO UPDATE SET state = excluded.state,"
        " invited_at = excluded.invited_at, responded_at = excluded.responded_at",
        invitation.room_id,
        invitation.player_id,
        invitation.nickname,
        invitation.state.value,
        invitation.invited_at,
        invitation.responded_at,
    )


async def set_table(conn: Connection, room_id: str, table_id: str) -> None:
    await conn.execute(f"UPDATE {S}.rooms SET table_id = $2 WHERE room_id = $1", room_id, table_id)


async def pending_invitations_for(
    conn: Connection, player_id: str
) -> list[tuple[Invitation, Room]]:
    """The player's unanswered invitations to rooms that have not started."""
    rows = await conn.fetch(
        f"SELECT i.room_id FROM {S}.invitations i JOIN {S}.rooms r ON r.room_id = i.room_id"
        " WHERE i.player_id = $1 AND i.state = 'pending' AND r.table_id IS NULL"
        " ORDER BY i.invited_at",
        player_id,
    )
    found: list[tuple[Invitation, Room]] = []
    for r in rows:
        loaded = await room(conn, r["room_id"])
        if loaded is None:
            continue
        invitation = loaded.invitation_of(player_id)
        if invitation is not None:
            found.append((invitation, loaded))
    return found


def touched(invitation: Invitation, state: InvitationState, at: datetime) -> Invitation:
    return Invitation(
        invitation.room_id,
        invitation.player_id,
        invitation.nickname,
        state,
        invitation.invited_at,
        at,
    )
