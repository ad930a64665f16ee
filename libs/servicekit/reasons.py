"""The one registry of refusal reasons a client app can act on (API-1).

Every refusal a service sends carries a ``google.rpc.ErrorInfo`` whose ``reason`` is one of
these names, with domain ``tavolo.v1`` and the metadata keys listed beside it, so a client
can say "it is not your turn" in its own language, or retry only what can be retried,
without reading our English. A name, once published, keeps its meaning and its status
code; ``docs/errors.md`` is generated from this table (``python -m
tavolo.servicekit.reasons``) and a test checks it is up to date.

The rules engines (``tavolo.cardgames``) name their refusals with the ``RULE`` reasons
here; they do not import this module, so the rules stay free of gRPC.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

import grpc

DOMAIN = "tavolo.v1"

_INVALID = grpc.StatusCode.INVALID_ARGUMENT
_MISSING = grpc.StatusCode.NOT_FOUND
_EXISTS = grpc.StatusCode.ALREADY_EXISTS
_STATE = grpc.StatusCode.FAILED_PRECONDITION
_DENIED = grpc.StatusCode.PERMISSION_DENIED
_AUTH = grpc.StatusCode.UNAUTHENTICATED
_ABORTED = grpc.StatusCode.ABORTED
_DOWN = grpc.StatusCode.UNAVAILABLE
_BUG = grpc.StatusCode.INTERNAL
_LOST = grpc.StatusCode.DATA_LOSS
_LIMIT = grpc.StatusCode.RESOURCE_EXHAUSTED


@dataclass(frozen=True, slots=True)
class Reason:
    """One reason: its name, the status it comes with, what it means, its metadata keys."""

    name: str
    status: grpc.StatusCode
    meaning: str
    metadata: tuple[str, ...] = ()
    area: str = ""


def _area(area: str, *rows: tuple[str, grpc.StatusCode, str, tuple[str, ...]]) -> list[Reason]:
    return [Reason(name, status, meaning, keys, area) for name, status, meaning, keys in rows]


_TABLE = [
    *_area(
        "Every service",
        (
            "FIELD_INVALID",
            _INVALID,
            "a field breaks its rule (length, characters, range); a BadRequest names it",
            ("field",),
        ),
        (
            "FIELD_REQUIRED",
            _INVALID,
            "a field the call needs is empty; a BadRequest names it",
            ("field",),
        ),
        (
            "REQUEST_UNDECODABLE",
            _INVALID,
            "the request bytes are not the method's message",
            ("method",),
        ),
        (
            "PAGE_TOKEN_INVALID",
            _INVALID,
            "the page token was not issued by this service for this listing: start from page one",
            ("field",),
        ),
        ("TOKEN_MISSING", _AUTH, "the call needs a session token and none was sent", ()),
        ("TOKEN_MALFORMED", _AUTH, "the authorization header is not 'Bearer <token>'", ()),
        ("TOKEN_EXPIRED", _AUTH, "the session token has expired: refresh it or log in", ()),
        (
            "TOKEN_INVALID",
            _AUTH,
            "the session token is not valid here (signature, type or role)",
            (),
        ),
        ("ROLE_REQUIRED", _DENIED, "the call needs a role the caller does not have", ("role",)),
        (
            "SESSION_REVOKED",
            _DENIED,
            "the account is suspended, or the session predates a suspension: log in again",
            (),
        ),
        (
            "SERVICE_UNREACHABLE",
            _DOWN,
            "another service this one needs is not reachable; a RetryInfo says when to try again",
            ("service",),
        ),
        (
            "DEPENDENCY_OUTAGE",
            _DOWN,
            "the database or the broker is restarting; a RetryInfo says when to try again",
            (),
        ),
        ("SCHEMA_MISMATCH", _STATE, "a database migration changed or failed (at start-up)", ()),
        ("REFUSED", _BUG, "a refusal the server gave no specific reason for (a bug to report)", ()),
    ),
    *_area(
        "Accounts and sanctions (lobby)",
        ("LOGIN_FAILED", _AUTH, "the nickname or the password is wrong", ()),
        ("SESSION_ENDED", _AUTH, "the refresh token names no live session: log in again", ()),
        (
            "REFRESH_TOKEN_REUSED",
            _AUTH,
            "a refresh token was used twice: every session of the login is revoked",
            (),
        ),
        ("ACCOUNT_MISSING", _AUTH, "the session belongs to no account: register or log in", ()),
        (
            "NICKNAME_TAKEN",
            _EXISTS,
            "the nickname (or a look-alike) belongs to another player",
            ("nickname",),
        ),
        (
            "NICKNAME_INVALID",
            _INVALID,
            "a nickname has 3 to 20 letters, digits, '_' or '-', with one letter or digit",
            ("min_length", "max_length"),
        ),
        (
            "PASSWORD_INVALID",
            _INVALID,
            "a password is too short or too long",
            ("min_length", "max_length"),
        ),
        ("ROLE_UNKNOWN", _INVALID, "a role that does not exist", ("allowed",)),
        (
            "PLAYER_NOT_FOUND",
            _MISSING,
            "no player has that id or nickname",
            ("player_id", "nickname"),
        ),
        (
            "NICKNAME_VULGAR",
            _INVALID,
            "the nickname reads as vulgar language (the chat's filter, PCG-3)",
            ("nickname",),
        ),
        (
            "NICKNAME_RESERVED",
            _INVALID,
            "the nickname reads as staff (moderator, operator, admin ...) and is kept for them",
            ("nickname",),
        ),
        (
            "PLAYER_BUSY",
            _STATE,
            "the player is seated at a table or waits in a queue already",
            ("nickname", "table_id", "ticket_id"),
        ),
        (
            "PLAYER_SUSPENDED",
            _STATE,
            "a player chosen for a seat has their lobby access suspended",
            ("nickname",),
        ),
        ("ACCOUNTS_SUSPENDED", _DENIED, "all of the caller's accounts are suspended", ("until",)),
        ("LOBBY_SUSPENDED", _DENIED, "the caller's lobby access is suspended", ("until",)),
        ("CHAT_SUSPENDED", _DENIED, "the caller's chat is suspended", ("until",)),
        (
            "SANCTION_INVALID",
            _INVALID,
            "a sanction's kind, length or reason is missing or not allowed",
            ("field",),
        ),
        ("SANCTION_NOT_FOUND", _MISSING, "no sanction has that id", ("sanction_id",)),
        ("SANCTION_LIFTED", _STATE, "the sanction was lifted already", ("sanction_id",)),
        ("SELF_SANCTION", _STATE, "a moderator cannot sanction themselves", ()),
    ),
    *_area(
        "Rooms, queues and tables (lobby)",
        ("GAME_UNKNOWN", _INVALID, "no game of that name is offered", ("game", "allowed")),
        (
            "PLAYER_COUNT_INVALID",
            _INVALID,
            "the game is not played by that many players",
            ("game", "min", "max"),
        ),
        (
            "OPTION_INVALID",
            _INVALID,
            "a table option the game does not offer, or a value out of range",
            ("option", "allowed"),
        ),
        ("STAKE_INVALID", _INVALID, "a stake that is not one of the offered levels", ("allowed",)),
        ("BOT_LEVEL_UNKNOWN", _INVALID, "no bot of that level plays the game", ("allowed",)),
        (
            "KNOCKOUT_UNSUPPORTED",
            _INVALID,
            "the game has no tie-break hand for knock-out play",
            ("game",),
        ),
        (
            "TABLE_SETUP_INVALID",
            _INVALID,
            "the seats, mode, timers or id of a new table do not fit together",
            ("field",),
        ),
        ("ROOM_NOT_FOUND", _MISSING, "no room has that id", ("room_id",)),
        ("ROOM_STARTED", _STATE, "the room has started its table already", ("room_id",)),
        ("ROOM_FULL", _STATE, "every seat of the room is taken", ("allowed",)),
        (
            "ROOM_NOT_READY",
            _STATE,
            "too few friends have accepted to start the room's table",
            ("taken", "allowed"),
        ),
        ("HOST_ONLY", _DENIED, "only the room's host (or a moderator, for chat) may do this", ()),
        (
            "INVITATION_INVALID",
            _INVALID,
            "an invitation that cannot be sent (to the host, or to no one)",
            (),
        ),
        (
            "ALREADY_INVITED",
            _EXISTS,
            "the player is invited to the room already",
            ("nickname", "state"),
        ),
        (
            "INVITATION_NOT_FOUND",
            _MISSING,
            "the caller has no invitation to that room",
            ("room_id",),
        ),
        (
            "INVITATION_ANSWERED",
            _STATE,
            "the invitation was accepted or declined already",
            ("state",),
        ),
        (
            "TICKET_NOT_FOUND",
            _MISSING,
            "the caller has no queue ticket with that id",
            ("ticket_id",),
        ),
        (
            "TICKET_SEATED",
            _STATE,
            "the ticket is seated at a table already: leave the table instead",
            ("table_id",),
        ),
        ("TICKET_CLOSED", _STATE, "the ticket has left the queue already", ("state",)),
    ),
    *_area(
        "Chat and reports (lobby)",
        (
            "CHAT_MESSAGE_INVALID",
            _INVALID,
            "a chat message is empty, too long or holds control characters",
            ("max_length",),
        ),
        ("CHAT_VULGAR", _INVALID, "a chat message holds vulgar language and was not sent", ()),
        ("CHAT_OFF", _STATE, "chat is switched off in that channel", ()),
        ("CHAT_CLOSED", _STATE, "the table has ended and its chat is closed", ("table_id",)),
        ("NOT_IN_ROOM", _MISSING, "the caller is not in that room", ("room_id",)),
        (
            "NOT_AT_TABLE",
            _MISSING,
            "the caller (or the player named) did not sit at that table",
            ("table_id", "player_id"),
        ),
        (
            "MESSAGE_NOT_FOUND",
            _MISSING,
            "no chat message with that id in a chat the caller can read",
            ("message_id",),
        ),
        (
            "REPORT_INVALID",
            _INVALID,
            "a report names nothing, the reporter, or has no reason",
            ("field",),
        ),
        ("REPORT_NOT_FOUND", _MISSING, "no report has that id", ("report_id",)),
        ("REPORT_HANDLED", _STATE, "the report was handled already", ("report_id",)),
        (
            "REPORT_THROTTLED",
            _LIMIT,
            "the reporter filed the most reports an hour allows, or reported this target"
            " already and it is not decided yet",
            ("player_id", "table_id"),
        ),
        (
            "SANCTION_MISMATCH",
            _INVALID,
            "the sanction linked is on another player than the reported one",
            ("sanction_id",),
        ),
    ),
    *_area(
        "Tournaments and Duplicate Solitario (lobby)",
        (
            "TOURNAMENT_INVALID",
            _INVALID,
            "a tournament's entrants, fee, times, prize split or no-show rule is not allowed",
            ("field",),
        ),
        ("TOURNAMENT_NOT_FOUND", _MISSING, "no tournament has that id", ("tournament_id",)),
        (
            "TOURNAMENT_STATE",
            _STATE,
            "the tournament's status forbids this now (not started, over, not drawn)",
            ("status",),
        ),
        (
            "REGISTRATION_CLOSED",
            _STATE,
            "registration is not open (not yet, or the tournament started)",
            ("opens_at",),
        ),
        ("ALREADY_REGISTERED", _STATE, "the caller is registered already", ()),
        ("NOT_REGISTERED", _STATE, "the caller is not registered", ()),
        ("TOURNAMENT_FULL", _STATE, "the tournament has all the entrants it takes", ("allowed",)),
        (
            "SEED_MISMATCH",
            _INVALID,
            "the revealed seed does not match the tournament's commitment",
            (),
        ),
        (
            "MATCH_STATE",
            _STATE,
            "the bracket match is decided, not waiting, or played at another table",
            ("round", "match"),
        ),
        ("BRACKET_INVALID", _INVALID, "a bracket or match result that does not fit the draw", ()),
        (
            "COMPETITION_INVALID",
            _INVALID,
            "a Duplicate competition's id or times are not allowed",
            ("field",),
        ),
        ("COMPETITION_NOT_FOUND", _MISSING, "no competition has that id", ("duplicate_id",)),
        (
            "COMPETITION_EXISTS",
            _EXISTS,
            "a competition with that id exists already",
            ("duplicate_id",),
        ),
        ("COMPETITION_NOT_OPEN", _STATE, "the competition opens later", ("opens_at",)),
        (
            "COMPETITION_CLOSED",
            _STATE,
            "the competition has closed: its standings are final",
            ("closes_at",),
        ),
    ),
    *_area(
        "Tables (engine)",
        (
            "TABLE_NOT_FOUND",
            _MISSING,
            "no table has that id (or none the caller can see)",
            ("table_id",),
        ),
        ("TABLE_EXISTS", _EXISTS, "a table with that id exists with another setup", ("table_id",)),
        ("NO_SEAT", _DENIED, "the caller has no seat at the table", ("table_id",)),
        (
            "SEAT_NOT_YOURS",
            _DENIED,
            "the caller sits at another seat than the one named",
            ("seat", "requested"),
        ),
        (
            "SEAT_LEFT",
            _DENIED,
            "the caller left the table; a bot plays their seat",
            ("table_id", "seat"),
        ),
        ("ALREADY_LEFT", _STATE, "the caller left the table already", ("table_id",)),
        (
            "TABLE_KIND_FORBIDDEN",
            _DENIED,
            "players open only versus-computer tables, with themselves in one seat",
            (),
        ),
        ("SEED_FORBIDDEN", _DENIED, "only the platform's services choose a table's seed", ()),
        ("SEED_INVALID", _INVALID, "a deal seed that is too short or a sealed log without one", ()),
        (
            "TIMER_CLIENT_FORBIDDEN",
            _DENIED,
            "timers are run by the engine: a client cannot expire one",
            (),
        ),
        (
            "LOG_SEALED",
            _STATE,
            "the table's log opens later (still in play, or a Duplicate deal not closed)",
            ("table_id", "until"),
        ),
        (
            "TABLE_LOG_CHANGED",
            _LOST,
            "the table's stored log no longer replays: it was changed after it was written;"
            " its log is still served to auditors",
            ("table_id",),
        ),
        (
            "TABLE_LOG_UNREADABLE",
            _STATE,
            "the table's opening event no longer names its seats: an auditor must check it",
            ("table_id",),
        ),
        ("VERSION_UNKNOWN", _INVALID, "the table has no such version yet", ("table_id", "version")),
        (
            "VERSION_NOT_FOUND",
            _MISSING,
            "the table's log holds no such version",
            ("table_id", "version"),
        ),
        (
            "TABLE_MOVED_ON",
            _ABORTED,
            "the table moved on since the version the caller saw: reload the view and choose again",
            ("table_id", "version", "expected_version"),
        ),
        (
            "TABLE_BUSY",
            _ABORTED,
            "the table is very busy; a RetryInfo says when to try again",
            ("table_id",),
        ),
        (
            "TABLE_ENDED",
            _STATE,
            "the table has finished or was aborted: no more actions",
            ("table_id", "status"),
        ),
        (
            "ACTION_MALFORMED",
            _INVALID,
            "an action without a kind, of an unknown kind or with fields of the wrong type",
            (),
        ),
        (
            "LOG_CONFLICT",
            _ABORTED,
            "another write to the same log won: reload and retry",
            ("version",),
        ),
    ),
    *_area(
        "Rules of the games (engine; metadata table_id, version, seat)",
        ("NOT_YOUR_TURN", _STATE, "the seat may not act now", ("table_id", "version", "seat")),
        ("SEAT_UNKNOWN", _STATE, "the table has no such seat", ("table_id", "version", "seat")),
        ("GAME_OVER", _STATE, "the game has ended: no action is accepted", ("table_id", "version")),
        (
            "RULE_VIOLATION",
            _STATE,
            "the rules do not allow this action now; the message says why",
            ("table_id", "version", "seat"),
        ),
        (
            "ACTION_NOT_ALLOWED",
            _STATE,
            "this kind of action is not one the game allows now",
            ("table_id", "version", "seat"),
        ),
        (
            "CARD_NOT_HELD",
            _STATE,
            "the card played is not in the seat's hand",
            ("table_id", "version", "seat", "card"),
        ),
        (
            "CARD_UNKNOWN",
            _STATE,
            "the text given is not a card of the game's deck",
            ("table_id", "version", "seat", "card"),
        ),
        (
            "ONE_CARD_EXPECTED",
            _STATE,
            "the action plays exactly one card of the hand",
            ("table_id", "version", "seat"),
        ),
        (
            "MUST_FOLLOW_SUIT",
            _STATE,
            "a card of the suit led must be played",
            ("table_id", "version", "seat", "suit"),
        ),
        (
            "SUIT_NOT_BROKEN",
            _STATE,
            "hearts or spades may not be led before they are broken",
            ("table_id", "version", "seat"),
        ),
        (
            "FIRST_TRICK_RESTRICTED",
            _STATE,
            "the first trick has its own lead and discard rules",
            ("table_id", "version", "seat"),
        ),
        (
            "CAPTURE_COMPULSORY",
            _STATE,
            "the card played must take from the table",
            ("table_id", "version", "seat", "card"),
        ),
        (
            "CAPTURE_INVALID",
            _STATE,
            "the card played cannot take the table cards named",
            ("table_id", "version", "seat", "card"),
        ),
        (
            "CARD_DOES_NOT_MATCH",
            _STATE,
            "the card matches neither the colour nor the value in play",
            ("table_id", "version", "seat", "card"),
        ),
        (
            "COLOUR_REQUIRED",
            _STATE,
            "a black or wild card needs a colour named",
            ("table_id", "version", "seat"),
        ),
        (
            "COLOUR_NOT_ALLOWED",
            _STATE,
            "only a black or wild card names a colour",
            ("table_id", "version", "seat"),
        ),
        (
            "DRAW_NOT_ALLOWED",
            _STATE,
            "drawing is allowed only when the seat cannot play",
            ("table_id", "version", "seat"),
        ),
        (
            "STOCK_EMPTY",
            _STATE,
            "the stock has no card left to draw",
            ("table_id", "version", "seat"),
        ),
        (
            "CALL_NOT_ALLOWED",
            _STATE,
            "a call (Pika, UNO, colour, accuso) that is not open now",
            ("table_id", "version", "seat"),
        ),
        (
            "DECLARATION_INVALID",
            _STATE,
            "a declaration (accuso) the hand does not hold, or made too late",
            ("table_id", "version", "seat"),
        ),
        (
            "AMOUNT_OUT_OF_RANGE",
            _STATE,
            "a bet or bid outside what the game allows now",
            ("table_id", "version", "seat"),
        ),
        (
            "OPTION_OFF",
            _STATE,
            "the move needs a table option that is off at this table",
            ("table_id", "version", "seat"),
        ),
        (
            "TIMER_NOT_RUNNING",
            _STATE,
            "no such turn timer runs for the seat",
            ("table_id", "version", "seat"),
        ),
    ),
    *_area(
        "Coins (wallet)",
        (
            "INSUFFICIENT_COINS",
            _STATE,
            "the account has fewer available coins than needed",
            ("available", "needed"),
        ),
        (
            "ACCOUNT_FROZEN",
            _STATE,
            "the account is frozen until a moderator or operator unfreezes it",
            ("player_id",),
        ),
        (
            "WALLET_ACCOUNT_NOT_FOUND",
            _MISSING,
            "the wallet has no account for the player",
            ("player_id",),
        ),
        ("OWN_ACCOUNT_ONLY", _DENIED, "a player reads only their own account", ()),
        ("HOLD_NOT_FOUND", _MISSING, "no hold has that id", ("hold_id",)),
        (
            "HOLD_ID_USED",
            _EXISTS,
            "the hold id was used already: a new hold needs a new id",
            ("hold_id", "state"),
        ),
        (
            "TRANSFER_ID_USED",
            _EXISTS,
            "the transfer id names another transfer already",
            ("transfer_id",),
        ),
        ("GRANT_INVALID", _INVALID, "a grant outside the allowed amount", ("allowed",)),
    ),
    *_area(
        "Rankings (leaderboard)",
        ("REBUILD_RUNNING", _STATE, "a rebuild of the rankings is running already", ()),
        (
            "RATING_NOT_FOUND",
            _MISSING,
            "the player has no rating (in that game) yet: ratings start with the first"
            " finished online or stake table",
            ("player_id", "game"),
        ),
    ),
]

#: Every reason by name.
REASONS: Mapping[str, Reason] = {reason.name: reason for reason in _TABLE}
#: The reason a refusal gets when its raise site named none (a bug the tests catch).
FALLBACK = "REFUSED"
#: The reasons whose refusal may succeed if simply retried later, and after how long.
RETRY_SECONDS: Mapping[str, float] = {
    "SERVICE_UNREACHABLE": 1.0,
    "DEPENDENCY_OUTAGE": 1.0,
    "TABLE_BUSY": 0.2,
}


def reason(name: str) -> Reason:
    """The registered reason called ``name`` (KeyError if there is none)."""
    return REASONS[name]


def document() -> str:
    """``docs/errors.md``: every reason, by area, with its status and metadata keys."""
    lines = [
        "# Refusal reasons",
        "",
        "Every refusal of every service carries a `google.rpc.ErrorInfo` in the",
        "`grpc-status-details-bin` trailer, with domain `tavolo.v1`, one of the reasons",
        "below and the metadata keys beside it (each present when it applies), so a client",
        "can explain the refusal in its own language. A refusal of an invalid field also",
        "carries a `google.rpc.BadRequest` naming the field; one a retry may cure (an",
        "outage, a busy table) carries a `google.rpc.RetryInfo`. The status message stays a",
        "sentence in English for people. Names and their status codes are stable.",
        "",
        "One refusal comes before any service code runs and so carries no ErrorInfo: a",
        "request over gRPC's 4 MiB message limit is refused by gRPC itself with",
        "RESOURCE_EXHAUSTED (`Received message larger than max`); nothing is changed.",
        "",
        "Generated from `libs/servicekit/reasons.py` by `python -m tavolo.servicekit.reasons`;",
        "a test checks this file is what the registry generates.",
    ]
    area = None
    for entry in _TABLE:
        if entry.area != area:
            area = entry.area
            lines += ["", f"## {area}", "", "| reason | status | meaning | metadata |"]
            lines.append("| --- | --- | --- | --- |")
        keys = ", ".join(f"`{key}`" for key in entry.metadata)
        lines.append(f"| `{entry.name}` | {entry.status.name} | {entry.meaning} | {keys} |")
    return "\n".join(lines) + "\n"


if __name__ == "__main__":
    print(document(), end="")
