"""Protobuf ↔ domain for the lobby's API: translation only, nothing decided here."""

from __future__ import annotations

from datetime import datetime
from typing import Any

from google.protobuf import json_format, struct_pb2, timestamp_pb2

from tavolo.cardgames import Game
from tavolo.lobby.accounts.app import ProfileView, SessionTokens
from tavolo.lobby.accounts.sanctions import Sanction, SanctionDuration, SanctionKind
from tavolo.lobby.events import LEVEL_FROM_PROTO, MODE_TO_PROTO
from tavolo.lobby.play.queue_store import Ticket, TicketState
from tavolo.lobby.play.rooms import Invitation, InvitationState, Room
from tavolo.lobby.play.tables import BotLevel
from tavolo.lobby.play.tables_store import Assignment
from tavolo.lobby.social.chat_store import Channel, ChannelKind, ChatMessage
from tavolo.lobby.social.conduct import convert as conduct_convert
from tavolo.lobby.social.conduct.chat_settings import ChatSettings
from tavolo.lobby.social.conduct.language import Policy
from tavolo.lobby.updates import InvitationChanged, ReportHandled, Seated, TicketChanged, Update
from tavolo.servicekit.auth import Role
from tavolo.servicekit.errors import InvalidArgument
from tavolo.v1 import common_pb2, lobby_pb2

ROLE_TO_PROTO = {
    Role.PLAYER: lobby_pb2.ROLE_PLAYER,
    Role.MODERATOR: lobby_pb2.ROLE_MODERATOR,
    Role.AUDITOR: lobby_pb2.ROLE_AUDITOR,
    Role.OPERATOR: lobby_pb2.ROLE_OPERATOR,
}
ROLE_FROM_PROTO = {v: k for k, v in ROLE_TO_PROTO.items()}
KIND_TO_PROTO = {
    SanctionKind.CHAT: lobby_pb2.SANCTION_KIND_CHAT,
    SanctionKind.LOBBY: lobby_pb2.SANCTION_KIND_LOBBY,
    SanctionKind.ALL_ACCOUNTS: lobby_pb2.SANCTION_KIND_ALL_ACCOUNTS,
    SanctionKind.FREEZE: lobby_pb2.SANCTION_KIND_FREEZE,
}
KIND_FROM_PROTO = {v: k for k, v in KIND_TO_PROTO.items()}
DURATION_TO_PROTO = {
    SanctionDuration.WARNING: lobby_pb2.SANCTION_DURATION_WARNING,
    SanctionDuration.ONE_DAY: lobby_pb2.SANCTION_DURATION_ONE_DAY,
    SanctionDuration.ONE_WEEK: lobby_pb2.SANCTION_DURATION_ONE_WEEK,
    SanctionDuration.ONE_MONTH: lobby_pb2.SANCTION_DURATION_ONE_MONTH,
    SanctionDuration.THREE_MONTHS: lobby_pb2.SANCTION_DURATION_THREE_MONTHS,
    SanctionDuration.SIX_MONTHS: lobby_pb2.SANCTION_DURATION_SIX_MONTHS,
    SanctionDuration.ONE_YEAR: lobby_pb2.SANCTION_DURATION_ONE_YEAR,
    SanctionDuration.PERMANENT: lobby_pb2.SANCTION_DURATION_PERMANENT,
}
DURATION_FROM_PROTO = {v: k for k, v in DURATION_TO_PROTO.items()}
TICKET_TO_PROTO = {
    TicketState.WAITING: lobby_pb2.TICKET_STATE_WAITING,
    TicketState.SEATED: lobby_pb2.TICKET_STATE_SEATED,
    TicketState.LEFT: lobby_pb2.TICKET_STATE_LEFT,
    TicketState.CANCELLED: lobby_pb2.TICKET_STATE_CANCELLED,
    TicketState.HOLD_LOST: lobby_pb2.TICKET_STATE_HOLD_LOST,
}
INVITATION_TO_PROTO = {
    InvitationState.PENDING: lobby_pb2.INVITATION_STATE_PENDING,
    InvitationState.ACCEPTED: lobby_pb2.INVITATION_STATE_ACCEPTED,
    InvitationState.DECLINED: lobby_pb2.INVITATION_STATE_DECLINED,
}


def timestamp(moment: datetime | None) -> timestamp_pb2.Timestamp | None:
    if moment is None:
        return None
    stamp = timestamp_pb2.Timestamp()
    stamp.FromDatetime(moment)
    return stamp


def options_in(message: Any, field: str = "options") -> dict[str, Any]:
    if not message.HasField(field):
        return {}
    value = json_format.MessageToDict(getattr(message, field))
    return dict(value) if isinstance(value, dict) else {}


def game_info(game: Game[Any]) -> lobby_pb2.GameInfo:
    """A game and its table options, as a client needs them to build a table form."""
    return lobby_pb2.GameInfo(
        name=game.name,
        title=game.title,
        min_players=game.min_players,
        max_players=game.max_players,
        seat_counts=game.seat_counts(),
        options=[
            lobby_pb2.GameOption(
                name=spec.name,
                default=_value(spec.default),
                doc=spec.doc,
                choices=[_value(c) for c in spec.choices or ()],
            )
            for spec in game.option_specs
        ],
    )


def _value(value: Any) -> struct_pb2.Value:
    message = struct_pb2.Value()
    json_format.ParseDict(value, message)
    return message


def options_out(options: dict[str, Any]) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    struct.update(options)
    return struct


def bot_level_in(value: common_pb2.BotLevel.ValueType) -> BotLevel | None:
    if value == common_pb2.BOT_LEVEL_UNSPECIFIED:
        return None
    level = LEVEL_FROM_PROTO.get(value)
    if level is None:
        raise InvalidArgument(f"unknown bot level {value}", reason="BOT_LEVEL_UNKNOWN")
    return level


def roles_in(values: Any) -> list[Role]:
    roles = []
    for value in values:
        if value not in ROLE_FROM_PROTO:
            raise InvalidArgument(f"unknown role {value}", reason="ROLE_UNKNOWN")
        roles.append(ROLE_FROM_PROTO[value])
    return roles


def roles_out(roles: frozenset[Role]) -> list[Any]:
    return [ROLE_TO_PROTO[r] for r in sorted(roles) if r in ROLE_TO_PROTO]


def channel_in(message: lobby_pb2.ChatChannel) -> Channel:
    which = message.WhichOneof("channel")
    if which == "table_id":
        return Channel(ChannelKind.TABLE, message.table_id)
    if which == "room_id":
        return Channel(ChannelKind.ROOM, message.room_id)
    raise InvalidArgument(
        "say which chat: a table_id or a room_id",
        reason="FIELD_REQUIRED",
        metadata={"field": "channel"},
    )


def channel_out(channel: Channel) -> lobby_pb2.ChatChannel:
    if channel.kind is ChannelKind.TABLE:
        return lobby_pb2.ChatChannel(table_id=channel.channel_id)
    return lobby_pb2.ChatChannel(room_id=channel.channel_id)


def session(tokens: SessionTokens) -> lobby_pb2.Session:
    expires = timestamp_pb2.Timestamp(seconds=tokens.access_expires_at)
    return lobby_pb2.Session(
        player_id=tokens.account.player_id,
        nickname=tokens.account.nickname,
        access_token=tokens.access_token,
        access_expires_at=expires,
        refresh_token=tokens.refresh_token,
        roles=roles_out(tokens.account.roles),
    )


def sanction(found: Sanction) -> lobby_pb2.Sanction:
    return lobby_pb2.Sanction(
        sanction_id=found.sanction_id,
        player_id=found.player_id,
        kind=KIND_TO_PROTO[found.kind],
        applied_by=found.applied_by,
        reason=found.reason,
        applied_at=timestamp(found.applied_at),
        until=timestamp(found.until),
        lifted_at=timestamp(found.lifted_at),
        duration=(
            DURATION_TO_PROTO[found.duration]
            if found.duration
            else lobby_pb2.SANCTION_DURATION_UNSPECIFIED
        ),
        lifted_by=found.lifted_by or "",
    )


def profile(view: ProfileView) -> lobby_pb2.Profile:
    return lobby_pb2.Profile(
        player_id=view.account.player_id,
        nickname=view.account.nickname,
        roles=roles_out(view.account.roles),
        sanctions=[sanction(s) for s in view.sanctions],
        ratings=[
            lobby_pb2.ProfileRating(
                game=r.game,
                rating=r.shown,
                provisional=r.provisional,
                rated_tables=r.rated_tables,
            )
            for r in view.ratings
        ],
    )


def assignment(found: Assignment) -> lobby_pb2.TableAssignment:
    return lobby_pb2.TableAssignment(
        table_id=found.table_id, seat=found.seat, game=found.game, mode=MODE_TO_PROTO[found.mode]
    )


def invitation(found: Invitation, room: Room) -> lobby_pb2.Invitation:
    return lobby_pb2.Invitation(
        room_id=found.room_id,
        player_id=found.player_id,
        nickname=found.nickname,
        state=INVITATION_TO_PROTO[found.state],
        host_nickname=room.host_nickname,
        game=room.spec.game,
    )


def room(found: Room) -> lobby_pb2.Room:
    return lobby_pb2.Room(
        room_id=found.room_id,
        host_id=found.host_id,
        game=found.spec.game,
        options=options_out(dict(found.spec.options)),
        players=found.spec.players,
        invitations=[invitation(i, found) for i in found.invitations],
        table_id=found.table_id or "",
    )


def ticket(found: Ticket) -> lobby_pb2.Ticket:
    return lobby_pb2.Ticket(
        ticket_id=found.ticket_id,
        game=found.spec.game,
        players=found.spec.players,
        stake=found.stake,
        state=TICKET_TO_PROTO[found.state],
        table_id=found.table_id or "",
        queued_at=timestamp(found.queued_at),
    )


def chat_message(found: ChatMessage) -> lobby_pb2.ChatMessage:
    return lobby_pb2.ChatMessage(
        message_id=found.message_id,
        channel=channel_out(found.channel),
        sender_id=found.sender_id,
        sender_nickname=found.sender_nickname,
        text=found.text,
        sent_at=timestamp(found.sent_at),
        original_text=found.original_text or "",
        refused=found.refused,
    )


def chat_settings_in(message: lobby_pb2.ChatSettings) -> ChatSettings:
    policy = Policy.REFUSE if message.policy == lobby_pb2.CHAT_POLICY_REFUSE else Policy.MASK
    return ChatSettings(channel_in(message.channel), not message.disabled, policy)


def chat_settings_out(found: ChatSettings) -> lobby_pb2.ChatSettings:
    refuse = found.policy is Policy.REFUSE
    return lobby_pb2.ChatSettings(
        channel=channel_out(found.channel),
        disabled=not found.enabled,
        policy=lobby_pb2.CHAT_POLICY_REFUSE if refuse else lobby_pb2.CHAT_POLICY_MASK,
    )


def lobby_update(update: Update) -> lobby_pb2.LobbyUpdate:
    if isinstance(update, InvitationChanged):
        return lobby_pb2.LobbyUpdate(invitation=invitation(update.invitation, update.room))
    if isinstance(update, TicketChanged):
        return lobby_pb2.LobbyUpdate(ticket=ticket(update.ticket))
    if isinstance(update, Seated):
        return lobby_pb2.LobbyUpdate(seated=assignment(update.assignment))
    if isinstance(update, ReportHandled):
        return lobby_pb2.LobbyUpdate(report=conduct_convert.receipt(update.report))
    raise TypeError(f"not a lobby update: {update!r}")
