"""What every field of every request may hold: defaults by kind, and the few exceptions.

The edge (``tavolo.servicekit.validation``) applies these to each request before any
servicer runs, so PostgreSQL never meets a NUL byte, an index never meets a 1 MB key, a
rules engine never meets NaN, and no error message repeats a megabyte back to the caller.

The defaults follow the descriptor: a string named ``*_id`` (or ``request_id``) is an id,
printable ASCII without spaces; any other string is one line of printable text; every
integer is a count, a version or an amount, so never negative, and at most 2^53 (exact in
JSON and in a double); a repeated field holds at most 100 items; an enum holds one of its
defined values; a ``Struct`` (game options) holds finite numbers and short plain strings.
``FIELD_RULES`` names the fields that differ, by ``Message.field``. The limits are a
safety net wider than each service's own rules (a nickname's 3-20 characters, a chat
line's 500): those keep their own, more specific messages.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from enum import Enum

MAX_SAFE_INTEGER = 2**53


class Shape(Enum):
    """Which characters a string may hold."""

    LINE = "one line of printable text"
    PROSE = "printable text (line breaks and tabs allowed)"
    ID = "an id: printable ASCII letters, digits and punctuation, no spaces"
    UUID = "a UUID such as 0b4e7f1c-3c2a-4d7e-9a51-2f0c6d8e1a7b"


@dataclass(frozen=True, slots=True)
class Rule:
    """The limits of one field; which of them apply depends on the field's type."""

    shape: Shape = Shape.LINE
    max_chars: int = 200
    low: int = 0
    high: int = MAX_SAFE_INTEGER
    max_items: int = 100


ID = Rule(shape=Shape.ID, max_chars=200)
UUID = Rule(shape=Shape.UUID, max_chars=36)
TEXT = Rule()


def prose(max_chars: int) -> Rule:
    return Rule(shape=Shape.PROSE, max_chars=max_chars)


def line(max_chars: int) -> Rule:
    return Rule(shape=Shape.LINE, max_chars=max_chars)


def whole(low: int, high: int) -> Rule:
    return Rule(low=low, high=high)


def items(max_items: int, of: Rule = TEXT) -> Rule:
    return Rule(shape=of.shape, max_chars=of.max_chars, max_items=max_items)


def default_rule(field_name: str, is_string: bool) -> Rule:
    """The rule of a field that ``FIELD_RULES`` does not name."""
    if is_string and (field_name.endswith("_id") or field_name == "request_id"):
        return ID
    return TEXT


#: What a ``google.protobuf.Timestamp`` in a request may hold: a datetime from 1970 (nothing
#: here is dated earlier) to the end of the year 9999, nanos within one second.
TIMESTAMP_SECONDS = (0, 253_402_300_799)
TIMESTAMP_NANOS = (0, 999_999_999)

CARD = line(20)

# Rooms, tickets and sanctions are named by the lobby alone, always with a UUID. Table and
# player ids are not: a table id may be chosen by whoever opens it, and player ids come
# from tokens.
FIELD_RULES: Mapping[str, Rule] = {
    "RegisterRequest.nickname": line(100),
    "RegisterRequest.password": line(1024),
    "LoginRequest.nickname": line(100),
    "LoginRequest.password": line(1024),
    "RefreshRequest.refresh_token": Rule(shape=Shape.ID, max_chars=4096),
    "LogoutRequest.refresh_token": Rule(shape=Shape.ID, max_chars=4096),
    "InviteRequest.room_id": UUID,
    "InviteRequest.nickname": line(100),
    "RespondToInvitationRequest.room_id": UUID,
    "StartRoomRequest.room_id": UUID,
    "LeaveQueueRequest.ticket_id": UUID,
    "ChatChannel.room_id": UUID,
    "SendChatRequest.text": prose(2000),
    "PageRequest.page_token": ID,
    "ApplySanctionRequest.reason": prose(2000),
    "LiftSanctionRequest.sanction_id": UUID,
    "SetRolesRequest.roles": items(10),
    "OpenTableRequest.seats": items(16),
    "OpenTableRequest.turn_seconds": whole(0, 24 * 3600),
    "OpenTableRequest.bot_think_millis": whole(0, 60_000),
    "Seat.nickname": line(100),
    "Action.cards": items(200, of=CARD),
    "Action.capture": items(200, of=CARD),
    "ReorderHandRequest.cards": items(200, of=CARD),
    "HoldStakeRequest.cause": line(200),
    "HoldStakeRequest.expires_in_seconds": whole(0, 30 * 24 * 3600),
    "GrantRequest.reason": prose(1000),
    "FreezeRequest.reason": prose(1000),
    "ReportPlayerRequest.message_id": UUID,
    "ReportPlayerRequest.reason": prose(2000),
    "ResolveReportRequest.report_id": UUID,
    "ResolveReportRequest.sanction_id": UUID,
    "ResolveReportRequest.note": prose(2000),
}

# Game options (a Struct): how deep, how many entries, how long a key or a string.
STRUCT_DEPTH = 4
STRUCT_ENTRIES = 100
STRUCT_KEY = Rule(shape=Shape.LINE, max_chars=100)
STRUCT_STRING = Rule(shape=Shape.LINE, max_chars=200)
