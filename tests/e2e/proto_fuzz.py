"""Hypothesis strategies for any request message, built from its protobuf descriptor.

A request is drawn field by field from the descriptor, so every RPC of every service is
covered and a field added to a proto is fuzzed without anyone writing a strategy for it.
Each field mixes plausible values (ids that exist, a real game, a card in the hand: they
carry the request past the first check and deep into the service) with hostile ones (NUL
and control characters, 100 KB and 1 MB strings, NaN and infinities, extreme integers,
enum numbers nobody defined). Besides messages, raw bytes go on the wire: arbitrary
garbage, and a string field holding bytes that are not UTF-8.
"""

from __future__ import annotations

import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from google.protobuf import struct_pb2
from google.protobuf.descriptor import Descriptor, FieldDescriptor
from google.protobuf.message import Message
from google.protobuf.message_factory import GetMessageClass
from hypothesis import strategies as st

HUGE_SIZES = (100_000, 1_000_000)  # built on draw: a strategy's repr stays short
HOSTILE_TEXT = (
    "",
    " ",
    "nul\x00byte",
    "\x00",
    "bell\x07\x1b[31mred",
    "line\nbreak\r\ttab",
    "\u202eright-to-left",
    "zero\u200bwidth",
    "😀" * 50,
    "'; DROP TABLE players; --",
    "%s%n{0}{}",
    "\ufeff",
    "\U0010ffff",
)
INT_EDGES = (0, 1, -1, 2, 3, 4, 13, 100, 1000, 2**31 - 1, -(2**31), 2**63 - 1, -(2**63))
FLOAT_EDGES = (math.nan, math.inf, -math.inf, -0.0, 1e308, -1e308, 5e-324, 0.5, 2.5)
INT_RANGES = {
    FieldDescriptor.TYPE_INT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SINT32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_SFIXED32: (-(2**31), 2**31 - 1),
    FieldDescriptor.TYPE_INT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SINT64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_SFIXED64: (-(2**63), 2**63 - 1),
    FieldDescriptor.TYPE_UINT32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_FIXED32: (0, 2**32 - 1),
    FieldDescriptor.TYPE_UINT64: (0, 2**64 - 1),
    FieldDescriptor.TYPE_FIXED64: (0, 2**64 - 1),
}


@dataclass(frozen=True)
class Known:
    """Values that exist on the running platform, so requests can get past the first check.

    ``by_name`` gives values for a field name (``game``, ``nickname``, ``cards``); ``ids``
    serve every field whose name ends in ``_id``.
    """

    ids: Sequence[str] = ()
    by_name: Mapping[str, Sequence[str]] = field(default_factory=dict)
    option_keys: Sequence[str] = ()


huge = st.sampled_from(HUGE_SIZES).map(lambda size: "x" * size)
OPTION_TEXT = ("single", "points:500", "hands:3")


def plausible_strings(plausible: Sequence[str]) -> st.SearchStrategy[str]:
    """What a well-meaning client sends: a known value, or a short plain word."""
    word = st.text("abcdefghijklmnopqrstuvwxyzABCDEF0123456789-_", max_size=12)
    if plausible:
        return st.one_of(st.sampled_from(list(plausible)), st.sampled_from(list(plausible)), word)
    return word


def hostile_strings(plausible: Sequence[str]) -> st.SearchStrategy[str]:
    """Hostile text, and plausible values made hostile."""
    choices: list[st.SearchStrategy[str]] = [
        st.sampled_from(HOSTILE_TEXT),
        huge,
        st.text(max_size=40),
    ]
    if plausible:
        good = st.sampled_from(list(plausible))
        spoil = st.one_of(st.sampled_from(("\x00", "\x01", "\n")), huge)
        choices.append(st.tuples(good, spoil).map(lambda pair: pair[0] + pair[1]))
    return st.one_of(choices)


def any_strings(plausible: Sequence[str]) -> st.SearchStrategy[str]:
    """Either: a real option name holding NaN is as much a test as a NUL in a name."""
    return st.one_of(plausible_strings(plausible), hostile_strings(plausible))


def hostile_integers(kind: int) -> st.SearchStrategy[int]:
    low, high = INT_RANGES[kind]
    edges = [v for v in INT_EDGES if low <= v <= high] + [low, high]
    return st.one_of(st.sampled_from(edges), st.integers(low, high))


def floats() -> st.SearchStrategy[float]:
    return st.one_of(st.sampled_from(FLOAT_EDGES), st.floats(allow_nan=True))


def json_values(known: Known, hostile: bool) -> st.SearchStrategy[Any]:
    """JSON-shaped values as a Struct carries them: NaN and infinities when hostile."""
    if not hostile:
        return st.one_of(
            st.booleans(),
            st.integers(-1000, 1000).map(float),
            st.sampled_from((0.5, 2.5, 3.0)),
            st.sampled_from(OPTION_TEXT),
        )
    scalars = st.one_of(
        st.none(),
        st.booleans(),
        floats(),
        st.integers(-(2**70), 2**70).map(float),
        hostile_strings(OPTION_TEXT),
    )
    return st.recursive(
        scalars,
        lambda inner: st.one_of(
            st.lists(inner, max_size=4),
            st.dictionaries(any_strings(known.option_keys), inner, max_size=4),
        ),
        max_leaves=8,
    )


def structs(known: Known, hostile: bool) -> st.SearchStrategy[struct_pb2.Struct]:
    def build(data: dict[str, Any]) -> struct_pb2.Struct:
        message = struct_pb2.Struct()
        message.update(data)
        return message

    keys = (any_strings if hostile else plausible_strings)(known.option_keys)
    return st.dictionaries(keys, json_values(known, hostile), max_size=4).map(build)


def _plausible(name: str, known: Known) -> Sequence[str]:
    if name in known.by_name:
        return known.by_name[name]
    if name.endswith("_id") or name.endswith("_token"):
        return known.ids
    return ()


def field_values(
    fd: FieldDescriptor, known: Known, depth: int, hostile: bool
) -> st.SearchStrategy[Any]:
    """Values for one (non-repeated) field: plausible ones, or hostile ones."""
    kind = fd.type
    if kind == FieldDescriptor.TYPE_STRING:
        return (hostile_strings if hostile else plausible_strings)(_plausible(fd.name, known))
    if kind == FieldDescriptor.TYPE_BYTES:
        return st.binary(max_size=64)
    if kind == FieldDescriptor.TYPE_BOOL:
        return st.booleans()
    if kind in (FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT):
        return floats() if hostile else st.floats(-1e6, 1e6)
    if kind == FieldDescriptor.TYPE_ENUM:
        defined = st.sampled_from([v.number for v in fd.enum_type.values])
        return st.one_of(defined, st.integers(-5, 1000)) if hostile else defined
    if kind == FieldDescriptor.TYPE_MESSAGE:
        return messages(fd.message_type, known, depth + 1, hostile)
    return hostile_integers(kind) if hostile else st.integers(0, 12)


def field_strategy(
    fd: FieldDescriptor, known: Known, depth: int, hostile: bool
) -> st.SearchStrategy[Any]:
    """A whole field: None (unset), a value, or a list for a repeated field."""
    one = field_values(fd, known, depth, hostile)
    if not fd.is_repeated:
        return st.one_of(st.none(), one)
    many = st.lists(one, max_size=4)
    if hostile and fd.type != FieldDescriptor.TYPE_MESSAGE:  # a long list of short items
        short = one if fd.type != FieldDescriptor.TYPE_STRING else st.just("x")
        many = st.one_of(many, st.lists(short, min_size=200, max_size=400))
    return many


def messages(
    descriptor: Descriptor, known: Known, depth: int = 0, hostile: bool | None = None
) -> st.SearchStrategy[Message]:
    """A message with any subset of its fields set.

    With ``hostile`` None (the top level), a few fields chosen at random get hostile
    values and the rest plausible ones, so one bad field meets otherwise good requests
    and gets past the first checks; nested messages follow their field's choice.
    """
    if descriptor.full_name == "google.protobuf.Struct":
        return structs(known, bool(hostile))
    cls = GetMessageClass(descriptor)
    if depth > 3 or not descriptor.fields:
        return st.just(cls())
    fields = list(descriptor.fields)
    plain = {fd.name: field_strategy(fd, known, depth, hostile=bool(hostile)) for fd in fields}
    bad = {fd.name: field_strategy(fd, known, depth, hostile=True) for fd in fields}
    names = st.sampled_from([fd.name for fd in fields])
    # A third of the requests are all plausible: they reach the deepest code, where a
    # bad value hidden among good ones (or no bad value at all) must still not crash.
    how_many_spoiled = st.one_of(
        st.just(frozenset[str]()),
        st.sets(names, min_size=1, max_size=1),
        st.sets(names, max_size=2),
    )

    @st.composite
    def build(draw: st.DrawFn) -> Message:
        spoiled = draw(how_many_spoiled) if hostile is None else ()
        message = cls()
        for fd in fields:
            value = draw(bad[fd.name] if fd.name in spoiled else plain[fd.name])
            oneof = fd.containing_oneof
            if value is None or (oneof is not None and message.WhichOneof(oneof.name)):
                continue
            target = getattr(message, fd.name)
            if fd.is_repeated:
                if fd.type == FieldDescriptor.TYPE_MESSAGE:
                    for item in value:
                        target.add().CopyFrom(item)
                else:
                    target.extend(value)
            elif fd.type == FieldDescriptor.TYPE_MESSAGE:
                target.CopyFrom(value)
            else:
                setattr(message, fd.name, value)
        return message

    return build()


def _varint(number: int) -> bytes:
    out = bytearray()
    while True:
        low = number & 0x7F
        number >>= 7
        if number:
            out.append(low | 0x80)
        else:
            out.append(low)
            return bytes(out)


def not_utf8(descriptor: Descriptor) -> st.SearchStrategy[bytes]:
    """A string field of this message whose bytes are not UTF-8 (only the wire allows it)."""
    numbers = [f.number for f in descriptor.fields if f.type == FieldDescriptor.TYPE_STRING]
    if not numbers:
        return st.binary(max_size=64)

    def encode(pair: tuple[int, bytes]) -> bytes:
        number, junk = pair
        return _varint(number << 3 | 2) + _varint(len(junk)) + junk

    junk = st.binary(min_size=1, max_size=32).map(lambda b: b"\xff" + b)
    return st.tuples(st.sampled_from(numbers), junk).map(encode)


def request_bytes(descriptor: Descriptor, known: Known) -> st.SearchStrategy[bytes]:
    """What goes on the wire: mostly a drawn message, sometimes bytes no message could be."""
    drawn = messages(descriptor, known).map(lambda m: m.SerializeToString())
    garbage = st.one_of(st.binary(max_size=64), not_utf8(descriptor))
    return st.one_of(drawn, drawn, drawn, drawn, garbage)
