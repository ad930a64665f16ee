"""Rooms and invitations (MODE-2): who may invite, answer and start, and who sits where.

Pure rules over a room as loaded; the use cases load, ask here, then write.

- The host holds seat 0; accepted friends follow in the order they accepted.
- Only the host invites and starts; nobody can be invited twice while an invitation is
  pending or accepted (a declined one may be renewed).
- Accepting needs a free seat; once the room has started, nothing changes any more.
- Starting needs at least one accepted friend (a table of one player and bots is a
  versus-computer table, MODE-1, which pays nothing), and either every seat taken or the
  host's request to fill the empty seats with bots.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from tavolo.lobby.play.tables import BotLevel, Seat, TableSpec, bot_seats
from tavolo.servicekit.errors import (
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
)


class InvitationState(StrEnum):
    PENDING = "pending"
    ACCEPTED = "accepted"
    DECLINED = "declined"


@dataclass(frozen=True, slots=True)
class Invitation:
    room_id: str
    player_id: str
    nickname: str
    state: InvitationState
    invited_at: datetime
    responded_at: datetime | None = None


@dataclass(frozen=True, slots=True)
class Room:
    room_id: str
    host_id: str
    host_nickname: str
    spec: TableSpec
    created_at: datetime
    invitations: tuple[Invitation, ...] = ()
    table_id: str | None = None

    @property
    def accepted(self) -> tuple[Invitation, ...]:
        taken = [i for i in self.invitations if i.state is InvitationState.ACCEPTED]
        return tuple(sorted(taken, key=lambda i: (i.responded_at or i.invited_at, i.player_id)))

    @property
    def seats_taken(self) -> int:
        return 1 + len(self.accepted)

    def invitation_of(self, player_id: str) -> Invitation | None:
        return next((i for i in self.invitations if i.player_id == player_id), None)

    def is_member(self, player_id: str) -> bool:
        """The host and accepted friends are in the room (they read and write its chat)."""
        if player_id == self.host_id:
            return True
        invitation = self.invitation_of(player_id)
        return invitation is not None and invitation.state is InvitationState.ACCEPTED


def _not_started(room: Room) -> None:
    if room.table_id is not None:
        raise FailedPrecondition(
            "this room has started its table; create a new room to play again",
            reason="ROOM_STARTED",
            metadata={"room_id": room.room_id},
        )


def check_invite(room: Room, caller_id: str, invitee_id: str, invitee_nickname: str) -> None:
    """May ``caller_id`` invite ``invitee_id`` now?"""
    if caller_id != room.host_id:
        raise PermissionDenied("only the room's host can invite players", reason="HOST_ONLY")
    _not_started(room)
    if invitee_id == room.host_id:
        raise InvalidArgument(
            "you are the host: you hold a seat already", reason="INVITATION_INVALID"
        )
    existing = room.invitation_of(invitee_id)
    if existing is not None and existing.state is not InvitationState.DECLINED:
        raise AlreadyExists(
            f"{invitee_nickname} is already invited to this room ({existing.state.value})",
            reason="ALREADY_INVITED",
            metadata={"nickname": invitee_nickname, "state": existing.state.value},
        )
    if room.seats_taken >= room.spec.players:
        raise FailedPrecondition(
            f"every seat of this room is taken ({room.spec.players}); start the table",
            reason="ROOM_FULL",
            metadata={"allowed": room.spec.players},
        )


def check_response(room: Room, caller_id: str, accept: bool) -> Invitation:
    """The caller's pending invitation, if they may answer it now."""
    invitation = room.invitation_of(caller_id)
    if invitation is None:
        raise NotFound(
            "you have no invitation to this room",
            reason="INVITATION_NOT_FOUND",
            metadata={"room_id": room.room_id},
        )
    _not_started(room)
    if invitation.state is not InvitationState.PENDING:
        raise FailedPrecondition(
            f"you have already {invitation.state.value} this invitation",
            reason="INVITATION_ANSWERED",
            metadata={"state": invitation.state.value},
        )
    if accept and room.seats_taken >= room.spec.players:
        raise FailedPrecondition(
            "every seat of this room is taken; ask the host for a new room",
            reason="ROOM_FULL",
            metadata={"allowed": room.spec.players},
        )
    return invitation


def plan_start(room: Room, caller_id: str, fill_with_bots: bool, level: BotLevel) -> list[Seat]:
    """The seats of the room's table: host, accepted friends, then bots if asked."""
    if caller_id != room.host_id:
        raise PermissionDenied("only the room's host can start its table", reason="HOST_ONLY")
    _not_started(room)
    friends = room.accepted
    if not friends:
        raise FailedPrecondition(
            "invite at least one friend and wait for them to accept; to play bots alone,"
            " play versus computer",
            reason="ROOM_NOT_READY",
            metadata={"taken": room.seats_taken, "allowed": room.spec.players},
        )
    empty = room.spec.players - room.seats_taken
    if empty and not fill_with_bots:
        raise FailedPrecondition(
            f"{room.seats_taken} of {room.spec.players} seats are taken: wait for more"
            " friends to accept, or start with bots in the empty seats",
            reason="ROOM_NOT_READY",
            metadata={"taken": room.seats_taken, "allowed": room.spec.players},
        )
    seats = [Seat(0, room.host_id, room.host_nickname)]
    seats += [Seat(i + 1, inv.player_id, inv.nickname) for i, inv in enumerate(friends)]
    seats += bot_seats(len(seats), empty, level)
    return seats
