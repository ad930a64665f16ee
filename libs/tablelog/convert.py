"""Protobuf <-> engine domain, in one place: actions, seats, modes, views, logged events,
the log index.

Nothing here decides anything. Numbers inside ``google.protobuf.Struct`` travel as
doubles; events hold integers only, so whole doubles are read back as ints.
"""

from __future__ import annotations

import uuid
from collections import OrderedDict
from datetime import UTC
from typing import Any

from google.protobuf import json_format, struct_pb2, timestamp_pb2

from tavolo.cardgames import Action, ActionKind, Outcome
from tavolo.cardgames.errors import MalformedAction
from tavolo.eventlog import RecordedEvent
from tavolo.eventlog.integrity import IndexColumns, IndexEntry
from tavolo.servicekit.errors import InvalidArgument
from tavolo.tablelog.setup import SeatInfo, normalise_json
from tavolo.tablelog.struct_wire import dict_to_struct, length_delimited, struct_bytes
from tavolo.tablelog.table import DONE, PLAYING, STOPPED, Deadline
from tavolo.tablelog.views import SeatView
from tavolo.v1 import common_pb2, engine_pb2

MODE_VALUES: dict[str, common_pb2.Mode.ValueType] = {
    "versus_computer": common_pb2.MODE_VERSUS_COMPUTER,
    "versus_friends": common_pb2.MODE_VERSUS_FRIENDS,
    "online": common_pb2.MODE_ONLINE,
    "stake": common_pb2.MODE_STAKE,
    "tournament": common_pb2.MODE_TOURNAMENT,
}
MODE_NAMES: dict[int, str] = {int(value): name for name, value in MODE_VALUES.items()}
LEVEL_VALUES: dict[str, common_pb2.BotLevel.ValueType] = {
    "easy": common_pb2.BOT_LEVEL_EASY,
    "medium": common_pb2.BOT_LEVEL_MEDIUM,
    "hard": common_pb2.BOT_LEVEL_HARD,
}
LEVEL_NAMES: dict[int, str] = {int(value): name for name, value in LEVEL_VALUES.items()}
STATUS_VALUES = {
    PLAYING: engine_pb2.TABLE_STATUS_PLAYING,
    DONE: engine_pb2.TABLE_STATUS_FINISHED,
    STOPPED: engine_pb2.TABLE_STATUS_ABORTED,
}
_KIND_PREFIX = "ACTION_KIND_"
_OPTIONAL_STR = ("colour", "source", "target", "call", "timer")
_OPTIONAL_INT = ("amount", "meld", "count")


# -- JSON-shaped values ----------------------------------------------------------------


def struct_to_dict(message: struct_pb2.Struct, where: str) -> dict[str, Any]:
    """A Struct as JSON with whole numbers as ints; INVALID_ARGUMENT for fractions."""
    value = normalise_json(json_format.MessageToDict(message), where)
    assert isinstance(value, dict)
    return value


def mode_name(value: int) -> str:
    if value not in MODE_NAMES:
        raise InvalidArgument(
            "mode is required: versus computer, friends, online or stake",
            reason="FIELD_REQUIRED",
            metadata={"field": "mode"},
        )
    return MODE_NAMES[value]


# -- actions ---------------------------------------------------------------------------


def action_from_proto(message: common_pb2.Action) -> Action:
    """The domain action; INVALID_ARGUMENT for a missing or unknown kind."""
    if message.kind == common_pb2.ACTION_KIND_UNSPECIFIED:
        raise InvalidArgument(
            "the action needs a kind (play, draw, take, call, ...)", reason="ACTION_MALFORMED"
        )
    try:
        enum_name = common_pb2.ActionKind.Name(message.kind)
    except ValueError:
        raise InvalidArgument(
            f"unknown action kind {message.kind}", reason="ACTION_MALFORMED"
        ) from None
    data: dict[str, Any] = {"kind": enum_name.removeprefix(_KIND_PREFIX).lower()}
    if message.cards:
        data["cards"] = list(message.cards)
    if message.capture:
        data["capture"] = list(message.capture)
    for name in (*_OPTIONAL_STR, *_OPTIONAL_INT):
        if message.HasField(name):  # type: ignore[arg-type]
            data[name] = getattr(message, name)
    try:
        return Action.from_dict(data)
    except MalformedAction as exc:
        raise InvalidArgument(str(exc), reason=exc.reason, metadata=exc.metadata) from None


def action_to_proto(action: Action) -> common_pb2.Action:
    message = common_pb2.Action(
        kind=common_pb2.ActionKind.Value(_KIND_PREFIX + action.kind.value.upper()),
        cards=list(action.cards),
        capture=list(action.capture),
    )
    for name in (*_OPTIONAL_STR, *_OPTIONAL_INT):
        value = getattr(action, name)
        if value is not None:
            setattr(message, name, value)
    return message


def kind_of(name: str) -> ActionKind:
    return ActionKind(name)


# -- seats -----------------------------------------------------------------------------


def seat_from_proto(message: common_pb2.Seat) -> SeatInfo:
    level = LEVEL_NAMES.get(message.bot_level, "")
    if message.bot and not level:
        level = "easy"
    return SeatInfo(
        seat=message.seat,
        player_id=message.player_id,
        nickname=message.nickname,
        bot=message.bot,
        bot_level=level if message.bot else "",
        booster=message.booster,
        vip=message.vip,
    )


def seat_to_proto(info: SeatInfo) -> common_pb2.Seat:
    return common_pb2.Seat(
        seat=info.seat,
        player_id=info.player_id,
        nickname=info.nickname,
        bot=info.bot,
        bot_level=LEVEL_VALUES.get(info.bot_level, common_pb2.BOT_LEVEL_UNSPECIFIED),
        booster=info.booster,
        vip=info.vip,
    )


def seats_from_dicts(seats: Any) -> list[common_pb2.Seat]:
    return [seat_to_proto(SeatInfo.from_dict(s)) for s in seats]


# -- views -----------------------------------------------------------------------------


def outcome_to_proto(outcome: Outcome) -> common_pb2.Outcome:
    return common_pb2.Outcome(
        places=list(outcome.places),
        scores=list(outcome.scores),
        detail=dict_to_struct(outcome.detail),
    )


def deadline_to_proto(deadline: Deadline) -> common_pb2.Deadline:
    at = timestamp_pb2.Timestamp()
    at.FromDatetime(deadline.due.astimezone(UTC))
    return common_pb2.Deadline(key=deadline.key, seat=deadline.seat, kind=deadline.kind, at=at)


_PUBLIC, _PRIVATE = 0x3A, 0x42
"""The tags of ``TableView.public`` (field 7) and ``.private`` (8), length-delimited."""


def table_part(view: SeatView) -> bytes:
    """What every view of a table shares from version to version -- its id, its game, its
    seats and its options -- as the wire bytes of a ``TableView`` holding only those."""
    return engine_pb2.TableView(
        table_id=view.table_id,
        game=view.game,
        seats=[seat_to_proto(s) for s in view.seats],
        options=dict_to_struct(view.options),
    ).SerializeToString()


def view_to_proto(
    view: SeatView, public: bytes | None = None, shared: bytes | None = None
) -> engine_pb2.TableView:
    """The wire form of a view. ``public`` is its public part already encoded (as a
    Struct's bytes) and ``shared`` its `table_part`, if at hand: those and the private
    part are merged in as bytes, which upb parses in one pass."""
    message = engine_pb2.TableView(
        version=view.version,
        status=STATUS_VALUES[view.status],
        hand=view.hand,
        to_act=view.to_act,
        legal_actions=[action_to_proto(a) for a in view.legal_actions],
        deadlines=[deadline_to_proto(d) for d in view.deadlines],
        last_event=view.last_event,
        log_hash=view.log_hash,
    )
    message.MergeFromString(
        b"".join(
            (
                shared if shared is not None else table_part(view),
                length_delimited(
                    _PUBLIC, public if public is not None else struct_bytes(view.public)
                ),
                length_delimited(_PRIVATE, struct_bytes(view.private)),
            )
        )
    )
    if view.seat is not None:
        message.seat = view.seat
    if view.outcome is not None:
        message.outcome.CopyFrom(outcome_to_proto(view.outcome))
    return message


class ViewEncoder:
    """Encodes views, sharing what it can: the public part among the seats of one table
    version (every watcher of a table gets a view per event, and the public part is most
    of its cost), and the table's id, game, seats and options from one version to the
    next (`table_part`; kept while the table's seats and options are the very objects they
    were, as a table carries them unchanged until a seat changes hands). The watchers of
    a version encode it moments after its commit, so the last few hundred versions and
    tables are enough to keep (each kept part is memory)."""

    def __init__(self, capacity: int = 512) -> None:
        self._capacity = capacity
        self._public: OrderedDict[tuple[str, int], bytes] = OrderedDict()
        self._shared: OrderedDict[str, tuple[object, object, bytes]] = OrderedDict()

    def encode(self, view: SeatView) -> engine_pb2.TableView:
        return view_to_proto(view, self._public_part(view), self._table_part(view))

    def _public_part(self, view: SeatView) -> bytes:
        key = (view.table_id, view.version)
        public = self._public.get(key)
        if public is None:
            public = struct_bytes(view.public)
            self._public[key] = public
            if len(self._public) > self._capacity:
                self._public.popitem(last=False)
        return public

    def _table_part(self, view: SeatView) -> bytes:
        kept = self._shared.get(view.table_id)
        if kept is not None and kept[0] is view.seats and kept[1] is view.options:
            return kept[2]
        shared = table_part(view)
        self._shared[view.table_id] = (view.seats, view.options, shared)
        self._shared.move_to_end(view.table_id)
        if len(self._shared) > self._capacity:
            self._shared.popitem(last=False)
        return shared


# -- the log ---------------------------------------------------------------------------


def logged_event_to_proto(event: RecordedEvent) -> engine_pb2.LoggedEvent:
    at = timestamp_pb2.Timestamp()
    at.FromDatetime(event.recorded_at.astimezone(UTC))
    return engine_pb2.LoggedEvent(
        version=event.version,
        type=event.type,
        data=dict_to_struct(event.data),
        metadata=dict_to_struct(event.metadata),
        prev_hash=event.prev_hash.hex(),
        hash=event.hash.hex(),
        recorded_at=at,
        event_id=str(event.event_id),
        stream_id=event.stream_id,
        position=event.position,
    )


def recorded_from_proto(message: engine_pb2.LoggedEvent) -> RecordedEvent:
    """A logged event as the event log held it, to verify its hash independently."""
    return RecordedEvent(
        stream_id=message.stream_id,
        version=message.version,
        position=message.position,
        event_id=uuid.UUID(message.event_id),
        type=message.type,
        data=struct_to_dict(message.data, "data"),
        metadata=struct_to_dict(message.metadata, "metadata"),
        recorded_at=message.recorded_at.ToDatetime(tzinfo=UTC),
        prev_hash=bytes.fromhex(message.prev_hash),
        hash=bytes.fromhex(message.hash),
    )


def index_to_proto(page: IndexColumns, head: int, columnar: bool) -> engine_pb2.GetLogIndexResponse:
    """A page of the log index, as columns or as one message per entry."""
    if columnar:
        columns = engine_pb2.LogIndexColumns(
            positions=page.positions,
            stream_ids=page.stream_ids,
            versions=page.versions,
            hashes=page.hashes,
        )
        return engine_pb2.GetLogIndexResponse(columns=columns, head_position=head)
    entries = [
        engine_pb2.LogIndexEntry(
            position=e.position, stream_id=e.stream_id, version=e.version, hash=e.hash.hex()
        )
        for e in page.entries()
    ]
    return engine_pb2.GetLogIndexResponse(entries=entries, head_position=head)


def index_from_proto(response: engine_pb2.GetLogIndexResponse) -> list[IndexEntry]:
    """The entries of a page, whichever way the engine sent them."""
    if response.HasField("columns"):
        c = response.columns
        return IndexColumns(c.positions, c.stream_ids, c.versions, c.hashes).entries()
    return [
        IndexEntry(e.position, e.stream_id, e.version, bytes.fromhex(e.hash))
        for e in response.entries
    ]
