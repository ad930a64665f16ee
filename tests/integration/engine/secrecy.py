"""A checker that knows the full state and proves a seat's messages reveal nothing hidden.

For every message sent to a seat (a WatchTable view or an Act reply), rebuilt state in
hand, it checks that

- the hand is exactly the seat's own hand;
- every card code anywhere in the message is one the seat can see now (its hand, the
  discard pile) or has legitimately seen before (cards that were in its hand or on the
  discard pile at an earlier version) — so another seat's hand or the stock, whose cards
  the seat has never seen, cannot appear;
- legal actions name only the seat's own cards;
- the serialized message does not contain the seed, in hex or in bytes.
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass, field

from google.protobuf import struct_pb2

from tavolo.cardgames.games.shedding.deck import CODES
from tavolo.tablelog.table import Table
from tavolo.v1 import engine_pb2


def _value_strings(value: struct_pb2.Value) -> Iterable[str]:
    kind = value.WhichOneof("kind")
    if kind == "string_value":
        yield value.string_value
    elif kind == "struct_value":
        yield from _struct_strings(value.struct_value)
    elif kind == "list_value":
        for item in value.list_value.values:
            yield from _value_strings(item)


def _struct_strings(struct: struct_pb2.Struct) -> Iterable[str]:
    for key, value in struct.fields.items():
        yield key
        yield from _value_strings(value)


_STRUCT_STRINGS: dict[bytes, tuple[str, ...]] = {}


def struct_strings(struct: struct_pb2.Struct) -> tuple[str, ...]:
    """The strings of a Struct, remembered by its exact bytes: every seat of a table gets
    the same public part at a version, and walking it is most of the checking time."""
    raw = struct.SerializeToString(deterministic=True)
    found = _STRUCT_STRINGS.get(raw)
    if found is None:
        if len(_STRUCT_STRINGS) > 50_000:
            _STRUCT_STRINGS.clear()
        found = _STRUCT_STRINGS[raw] = tuple(_struct_strings(struct))
    return found


def message_strings(message: engine_pb2.TableView) -> Iterable[str]:
    """Every string a view carries, wherever it sits."""
    yield from message.hand
    yield from struct_strings(message.public)
    yield from struct_strings(message.private)
    for action in message.legal_actions:
        yield from action.cards
        yield from action.capture
    for deadline in message.deadlines:
        yield deadline.key
    for seat in message.seats:
        yield seat.player_id
        yield seat.nickname
    yield from struct_strings(message.outcome.detail)


@dataclass
class SeatChecker:
    """Follows one seat through a table's versions; `check` each message in order."""

    seat: int
    seed: bytes
    seen: set[str] = field(default_factory=set)
    checked: int = 0
    _last_version: int = 0

    def _learn(self, tables_upto: Iterable[Table]) -> None:
        for table in tables_upto:
            self.seen.update(table.state.hands[self.seat])
            self.seen.update(table.state.discard)

    def check(self, message: engine_pb2.TableView, tables: list[Table]) -> list[str]:
        """Problems with ``message`` (empty when it is clean); ``tables[v-1]`` is version v."""
        table = tables[message.version - 1]
        if message.version > self._last_version:
            self._learn(tables[self._last_version : message.version])
            self._last_version = message.version
        state = table.state
        problems: list[str] = []
        if message.seat != self.seat:
            problems.append(f"a view for seat {message.seat} was sent to seat {self.seat}")
        if tuple(message.hand) != tuple(state.hands[self.seat]):
            problems.append(f"v{message.version}: the hand is not the seat's own hand")
        visible = set(state.hands[self.seat]) | set(state.discard)
        for text in message_strings(message):
            if text in CODES and text not in visible and text not in self.seen:
                problems.append(f"v{message.version}: card {text} was never visible to this seat")
        own = set(state.hands[self.seat])
        for action in message.legal_actions:
            for card in action.cards:
                if card not in own:
                    problems.append(f"v{message.version}: a legal action names {card}")
        raw = message.SerializeToString()
        if self.seed.hex().encode() in raw or self.seed in raw:
            problems.append(f"v{message.version}: the seed is in the message")
        self.checked += 1
        return problems
