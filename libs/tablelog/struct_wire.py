"""JSON values as the wire bytes of ``google.protobuf.Struct``, for the views' hot path.

Every watcher gets a view per event, and building its ``Struct`` field by field in
Python was a quarter of the engine's CPU under bots (330 µs for a Pika public view on
this machine: one wrapper object per value), where parsing the same message from bytes
takes 22 µs. So the bytes are written here and parsed once. Two things make writing them
cheaper than building the message: a view's leaves are few distinct values (cards,
colours, small numbers), each encoded once and kept; and the small flat mappings in a
view's lists (Pika's recent moves, a trick's cards) recur from one version to the next,
so they are kept whole, keyed by their items *and their types* (``1``, ``1.0`` and
``True`` are equal keys in Python and different values on the wire).

Wire format (protobuf's ``struct.proto``): a Struct is a repeated map entry (field 1,
tag 0x0A: key 0x0A, Value 0x12); a Value is one of null (field 1, varint: 0x08), number
(2, double: 0x11), string (3: 0x1A), bool (4, varint: 0x20), struct (5: 0x2A), list (6:
0x32); a ListValue is a repeated Value (field 1: 0x0A). Members of a oneof are written
even when they hold their default, as protobuf does.
"""

from __future__ import annotations

import struct
from collections.abc import Mapping
from typing import Any

from google.protobuf import struct_pb2

KEPT = 8192
"""Encoded leaves, list elements and flat mappings kept, per cache (each starts again when
full)."""

_double = struct.Struct("<d").pack
_NULL = b"\x08\x00"
_TRUE = b"\x20\x01"
_FALSE = b"\x20\x00"
_FLAT = frozenset({str, int, bool, type(None)})
"""Value types a kept mapping may hold: a float zero could be -0.0, equal to 0.0 as a
key and not on the wire."""

_leaves: dict[Any, bytes] = {}
_flat: dict[Any, bytes] = {}
_items: dict[Any, bytes] = {}
_keys: dict[str, bytes] = {}


def dict_to_struct(data: Mapping[str, Any]) -> struct_pb2.Struct:
    """JSON as a Struct (see the module docstring for why through bytes)."""
    message = struct_pb2.Struct()
    message.ParseFromString(struct_bytes(data))
    return message


def struct_bytes(data: Mapping[str, Any]) -> bytes:
    """The wire form of ``data`` as a ``google.protobuf.Struct``."""
    parts = []
    for key, value in data.items():
        name = _keys.get(key)
        if name is None:
            name = length_delimited(0x0A, key.encode())
            _keep(_keys, key, name)
        parts.append(length_delimited(0x0A, name + length_delimited(0x12, value_bytes(value))))
    return b"".join(parts)


def value_bytes(value: Any) -> bytes:
    """The wire form of ``value`` as a ``google.protobuf.Value``."""
    kind = type(value)
    if kind is str or kind is int or kind is float:
        cached = _leaves.get((kind, value))
        if cached is None:
            cached = (
                length_delimited(0x1A, value.encode()) if kind is str else b"\x11" + _double(value)
            )
            if kind is not float or value:  # never a float zero: 0.0 and -0.0 are equal keys
                _keep(_leaves, (kind, value), cached)
        return cached
    if value is None:
        return _NULL
    if kind is bool:
        return _TRUE if value else _FALSE
    if kind is dict or isinstance(value, Mapping):
        return _mapping_bytes(value)
    if isinstance(value, float | int):  # a subclass: IntEnum, numpy's and the like
        return b"\x11" + _double(value)
    if isinstance(value, str):
        return length_delimited(0x1A, value.encode())
    return length_delimited(0x32, b"".join([_item_bytes(item) for item in value]))


def _item_bytes(item: Any) -> bytes:
    """``item`` as an element of a ListValue; a card, a number or a flat mapping in a list
    is kept whole, element wrapping and all (a Pika view's discard pile is thirty cards,
    its recent moves sixteen mappings)."""
    kind = type(item)
    if kind is str or kind is int:
        cached = _items.get((kind, item))
        if cached is None:
            cached = length_delimited(0x0A, value_bytes(item))
            _keep(_items, (kind, item), cached)
        return cached
    if kind is dict:
        key = _flat_key(item)
        if key is not None:
            cached = _items.get(key)
            if cached is None:
                cached = length_delimited(0x0A, length_delimited(0x2A, struct_bytes(item)))
                _keep(_items, key, cached)
            return cached
    return length_delimited(0x0A, value_bytes(item))


def _mapping_bytes(value: Mapping[str, Any]) -> bytes:
    key = _flat_key(value)
    if key is None:
        return length_delimited(0x2A, struct_bytes(value))
    cached = _flat.get(key)
    if cached is None:
        cached = length_delimited(0x2A, struct_bytes(value))
        _keep(_flat, key, cached)
    return cached


def _flat_key(value: Mapping[str, Any]) -> tuple[Any, ...] | None:
    """A flat mapping's key among the kept encodings: its items and their types (a tuple
    first, so never equal to a leaf's ``(type, value)`` key); None if not flat."""
    types = tuple(map(type, value.values()))
    if not _FLAT.issuperset(types):
        return None
    return (tuple(value.items()), types)


def _keep(cache: dict[Any, bytes], key: Any, encoded: bytes) -> None:
    if len(cache) >= KEPT:
        cache.clear()
    cache[key] = encoded


def length_delimited(tag: int, payload: bytes) -> bytes:
    """A length-delimited field: its tag byte (field number << 3 | wire type 2), the
    payload's length as a varint, the payload."""
    size = len(payload)
    if size < 0x80:
        return bytes((tag, size)) + payload
    head = bytearray((tag,))
    while size > 0x7F:
        head.append((size & 0x7F) | 0x80)
        size >>= 7
    head.append(size)
    return bytes(head) + payload
