"""The facts the lobby records and publishes, and how they cross NATS.

Each fact is written to the lobby's event log (``tavolo.eventlog``) in the same
transaction as the change it reports; the outbox relay then publishes it with
``encode`` (subject from ``Topology``, payload the ``events.proto`` message). Event ids
are derived from what they report, so a retried write is recognised, not doubled.

Streams: ``player-<id>`` (PlayerRegistered), ``match-<id>`` (a room's MatchFormed),
``matchmaking-<batch id>`` (every MatchFormed and MatchCancelled of one matchmaker
transaction, appended at once: appends to a schema commit one at a time, so one append
per batch instead of one per table is what lets the matchmaker seat thousands of tickets
a second), ``sanction-<id>`` (AccountFrozen, then AccountUnfrozen when lifted; or
AccountsSuspended, then AccountsReinstated, for a suspension of all accounts),
``tournament-<id>`` (a tournament's own stream, see ``tournaments.stream``; of its events
only the draw, as TournamentDrawn, and the end, as TournamentFinished, cross NATS). Each
event keeps its own id whatever its stream, so de-duplication is unchanged.
"""

from __future__ import annotations

import json
import uuid
from collections.abc import Callable, Mapping, Sequence
from datetime import datetime

from google.protobuf import struct_pb2, timestamp_pb2
from google.protobuf.message import Message

from tavolo.eventlog import NewEvent, RecordedEvent
from tavolo.eventlog.relay import Encoded
from tavolo.lobby.play.tables import BotLevel, Mode, Seat, TableSpec
from tavolo.messaging import Topology
from tavolo.v1 import common_pb2, events_pb2

PLAYER_REGISTERED = "PlayerRegistered"
MATCH_FORMED = "MatchFormed"
MATCH_CANCELLED = "MatchCancelled"
ACCOUNT_FROZEN = "AccountFrozen"
ACCOUNT_UNFROZEN = "AccountUnfrozen"
ACCOUNTS_SUSPENDED = "AccountsSuspended"
ACCOUNTS_REINSTATED = "AccountsReinstated"
# A tournament's stream (``tournament-<id>``) and the two of its events published.
TOURNAMENT_STREAM = "tournament-"
TOURNAMENT_DRAWN = "bracket_drawn"
TOURNAMENT_FINISHED = "prizes_paid"
TOURNAMENT_CANCELLED = "tournament_cancelled"  # published only after the draw

_NAMESPACE = uuid.UUID("6f0b2b9e-4a51-4d0c-9a57-2d5b1f7c3e10")

MODE_TO_PROTO = {
    Mode.VERSUS_COMPUTER: common_pb2.MODE_VERSUS_COMPUTER,
    Mode.VERSUS_FRIENDS: common_pb2.MODE_VERSUS_FRIENDS,
    Mode.ONLINE: common_pb2.MODE_ONLINE,
    Mode.STAKE: common_pb2.MODE_STAKE,
    Mode.TOURNAMENT: common_pb2.MODE_TOURNAMENT,
}
MODE_FROM_PROTO = {v: k for k, v in MODE_TO_PROTO.items()}
LEVEL_TO_PROTO = {
    BotLevel.EASY: common_pb2.BOT_LEVEL_EASY,
    BotLevel.MEDIUM: common_pb2.BOT_LEVEL_MEDIUM,
    BotLevel.HARD: common_pb2.BOT_LEVEL_HARD,
}
LEVEL_FROM_PROTO = {v: k for k, v in LEVEL_TO_PROTO.items()}


class Pending:
    """Events to append together: the stream, the version they follow, the events."""

    __slots__ = ("events", "expected_version", "stream_id")

    def __init__(self, stream_id: str, expected_version: int, *events: NewEvent) -> None:
        self.stream_id = stream_id
        self.expected_version = expected_version
        self.events = events

    @property
    def event(self) -> NewEvent:
        return self.events[0]


def batch(stream_id: str, pending: Sequence[Pending]) -> Pending | None:
    """Several events as one append to a new stream (None when there are none)."""
    if not pending:
        return None
    return Pending(stream_id, 0, *[p.event for p in pending])


def _event_id(kind: str, key: str) -> uuid.UUID:
    return uuid.uuid5(_NAMESPACE, f"{kind}:{key}")


def _seat_data(seat: Seat) -> dict[str, object]:
    return {
        "seat": seat.seat,
        "player_id": seat.player_id or "",
        "nickname": seat.nickname,
        "bot": seat.bot,
        "bot_level": seat.bot_level.value if seat.bot_level else "",
    }


def player_registered(player_id: str, nickname: str, person_id: str) -> Pending:
    """A new account; ``person_id`` (the account's owner) tells the wallet whether the person
    already had an account, so a linked second account earns no second welcome grant."""
    data = {"player_id": player_id, "nickname": nickname, "person_id": person_id}
    event = NewEvent(PLAYER_REGISTERED, data, _event_id(PLAYER_REGISTERED, player_id))
    return Pending(f"player-{player_id}", 0, event)


def match_formed(
    match_id: str,
    spec: TableSpec,
    mode: Mode,
    seats: Sequence[Seat],
    *,
    stake: int = 0,
    bot_filled: bool = False,
    hold_ids: Mapping[int, str] | None = None,
    engine_options: Mapping[str, int] | None = None,
) -> Pending:
    """A formed table; ``engine_options`` (turn_seconds, bot_think_millis) ride along with
    the game's options, where the engine looks for them."""
    options = {**spec.options, **(engine_options or {})}
    data = {
        "match_id": match_id,
        "game": spec.game,
        "mode": mode.value,
        # Options travel as JSON text: the log holds integers only, options may not.
        "options_json": json.dumps(options, sort_keys=True, separators=(",", ":")),
        "seats": [_seat_data(s) for s in seats],
        "stake": stake,
        "bot_filled": bot_filled,
        "hold_ids": {str(seat): hold for seat, hold in (hold_ids or {}).items()},
    }
    event = NewEvent(MATCH_FORMED, data, _event_id(MATCH_FORMED, match_id))
    return Pending(f"match-{match_id}", 0, event)


def match_cancelled(match_id: str, reason: str, hold_ids: Mapping[str, str]) -> Pending:
    data = {"match_id": match_id, "reason": reason, "hold_ids": dict(hold_ids)}
    event = NewEvent(MATCH_CANCELLED, data, _event_id(MATCH_CANCELLED, match_id))
    return Pending(f"match-{match_id}", 0, event)


def account_frozen(sanction_id: str, player_id: str, reason: str, by: str) -> Pending:
    data = {"sanction_id": sanction_id, "player_id": player_id, "reason": reason, "by": by}
    event = NewEvent(ACCOUNT_FROZEN, data, _event_id(ACCOUNT_FROZEN, sanction_id))
    return Pending(f"sanction-{sanction_id}", 0, event)


def account_unfrozen(sanction_id: str, player_id: str, by: str) -> Pending:
    data = {"sanction_id": sanction_id, "player_id": player_id, "by": by}
    event = NewEvent(ACCOUNT_UNFROZEN, data, _event_id(ACCOUNT_UNFROZEN, sanction_id))
    return Pending(f"sanction-{sanction_id}", 1, event)


def accounts_suspended(
    sanction_id: str, player_ids: Sequence[str], until: datetime | None, reason: str
) -> Pending:
    """Every account of a person suspended: every service revokes their tokens at once."""
    data = {
        "sanction_id": sanction_id,
        "player_ids": list(player_ids),
        "until": until.isoformat() if until else "",
        "reason": reason,
    }
    event = NewEvent(ACCOUNTS_SUSPENDED, data, _event_id(ACCOUNTS_SUSPENDED, sanction_id))
    return Pending(f"sanction-{sanction_id}", 0, event)


def accounts_reinstated(sanction_id: str, player_ids: Sequence[str]) -> Pending:
    data = {"sanction_id": sanction_id, "player_ids": list(player_ids)}
    event = NewEvent(ACCOUNTS_REINSTATED, data, _event_id(ACCOUNTS_REINSTATED, sanction_id))
    return Pending(f"sanction-{sanction_id}", 1, event)


# -- crossing NATS ---------------------------------------------------------------------


def header(event: RecordedEvent) -> events_pb2.EventHeader:
    occurred = timestamp_pb2.Timestamp()
    occurred.FromDatetime(event.recorded_at)
    return events_pb2.EventHeader(
        event_id=str(event.event_id),
        stream_id=event.stream_id,
        version=event.version,
        occurred_at=occurred,
    )


def _struct(options_json: str) -> struct_pb2.Struct:
    options = struct_pb2.Struct()
    options.update(json.loads(options_json))
    return options


def _seat_proto(data: Mapping[str, object]) -> common_pb2.Seat:
    level = str(data.get("bot_level") or "")
    return common_pb2.Seat(
        seat=int(str(data["seat"])),
        player_id=str(data.get("player_id") or ""),
        nickname=str(data.get("nickname") or ""),
        bot=bool(data.get("bot")),
        bot_level=LEVEL_TO_PROTO[BotLevel(level)] if level else common_pb2.BOT_LEVEL_UNSPECIFIED,
    )


def to_proto(event: RecordedEvent) -> Message | None:
    """The events.proto message for a recorded lobby event (None: stays in the lobby)."""
    d = event.data
    h = header(event)
    if event.type == PLAYER_REGISTERED:
        return events_pb2.PlayerRegistered(
            header=h,
            player_id=d["player_id"],
            nickname=d["nickname"],
            # Events recorded before accounts carried their person leave it empty.
            person_id=d.get("person_id", ""),
        )
    if event.type == MATCH_FORMED:
        return events_pb2.MatchFormed(
            header=h,
            match_id=d["match_id"],
            game=d["game"],
            mode=MODE_TO_PROTO[Mode(d["mode"])],
            options=_struct(d["options_json"]),
            seats=[_seat_proto(s) for s in d["seats"]],
            stake=d["stake"],
            bot_filled=d["bot_filled"],
            hold_ids={int(k): v for k, v in d["hold_ids"].items()},
        )
    if event.type == MATCH_CANCELLED:
        return events_pb2.MatchCancelled(
            header=h, match_id=d["match_id"], reason=d["reason"], hold_ids=d["hold_ids"]
        )
    if event.type == ACCOUNT_FROZEN:
        return events_pb2.AccountFrozen(
            header=h, player_id=d["player_id"], reason=d["reason"], by=d["by"]
        )
    if event.type == ACCOUNT_UNFROZEN:
        return events_pb2.AccountUnfrozen(header=h, player_id=d["player_id"], by=d["by"])
    if event.type == ACCOUNTS_SUSPENDED:
        suspended = events_pb2.AccountsSuspended(
            header=h, sanction_id=d["sanction_id"], player_ids=d["player_ids"], reason=d["reason"]
        )
        if d["until"]:
            suspended.until.FromDatetime(datetime.fromisoformat(d["until"]))
        return suspended
    if event.type == ACCOUNTS_REINSTATED:
        return events_pb2.AccountsReinstated(
            header=h, sanction_id=d["sanction_id"], player_ids=d["player_ids"]
        )
    if event.stream_id.startswith(TOURNAMENT_STREAM):
        return _tournament_proto(event, h)
    return None


def _tournament_proto(event: RecordedEvent, h: events_pb2.EventHeader) -> Message | None:
    """What the wallet and the leaderboard hear of a tournament: the draw (fees into
    escrow; none without a fee), a cancellation after the draw (fees back from the escrow)
    and the end (places and split, for the wallet to pay). The rest stays here."""
    d = event.data
    tournament_id = event.stream_id.removeprefix(TOURNAMENT_STREAM)
    if event.type == TOURNAMENT_DRAWN and d["fee"]:
        entrants = list(d["entrants"])
        held = dict(d.get("holds", {}))  # each entrant's hold (none recorded: the first id)
        return events_pb2.TournamentDrawn(
            header=h,
            tournament_id=tournament_id,
            fee=d["fee"],
            seats=[common_pb2.Seat(seat=i, player_id=p) for i, p in enumerate(entrants)],
            hold_ids={
                i: held.get(p) or entry_hold_id(tournament_id, p) for i, p in enumerate(entrants)
            },
        )
    if event.type == TOURNAMENT_CANCELLED and d.get("drawn") and d.get("refunds"):
        entrants = list(d["refunds"])
        held = dict(d.get("holds", {}))
        return events_pb2.TournamentCancelled(
            header=h,
            tournament_id=tournament_id,
            reason=d["reason"],
            hold_ids={p: held.get(p) or entry_hold_id(tournament_id, p) for p in entrants},
        )
    if event.type == TOURNAMENT_FINISHED:
        places, paid = dict(d["places"]), dict(d.get("payouts", {}))  # coins: older streams
        return events_pb2.TournamentFinished(
            header=h,
            tournament_id=tournament_id,
            game=d["game"],
            pot=d["pot"],
            split=list(d.get("split", [])),
            prizes=[
                events_pb2.TournamentPrize(
                    player_id=p, seat=i, place=places.get(p, 0), coins=paid.get(p, 0)
                )
                for i, p in enumerate(d["entrants"])
            ],
        )
    return None


def entry_hold_id(tournament_id: str, player_id: str, registration: str = "") -> str:
    """The wallet hold of one registration's entry fee. Each registration names its own
    (``registration``): a hold once released stays released, so a player who withdrew and
    entered again under the same id would be entered holding nothing. Without
    ``registration``, the id registrations had before they were told apart."""
    base = f"entry.{tournament_id}.{player_id}"
    return f"{base}.{registration}" if registration else base


def encoder(topology: Topology) -> Callable[[RecordedEvent], Encoded | None]:
    """The outbox relay's encoder: subject from the topology, payload the proto bytes."""

    def encode(event: RecordedEvent) -> Encoded | None:
        message = to_proto(event)
        if message is None:
            return None
        # The subject is the message's name (a tournament's events are named otherwise).
        return topology.subject_for(message.DESCRIPTOR.name), message.SerializeToString(), {}

    return encode
