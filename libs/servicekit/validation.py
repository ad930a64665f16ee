"""Refuse a malformed request at the edge, once, before any servicer sees it.

The service interceptor calls :func:`check_request` on every request of every service.
It walks the fields the caller set, guided by the message's descriptor and the rules in
``tavolo.servicekit.request_rules``, and raises :class:`InvalidArgument` naming the first
field that breaks its rule (``seats[2].nickname``, ``options.target``). The walk needs no
code per RPC: a field added to a proto is checked the day it appears, by its kind.

Messages quote at most a short, escaped prefix of what the caller sent, so a refusal
can never be larger than the request was small.
"""

from __future__ import annotations

import math
import re
import unicodedata
from typing import Any

from google.protobuf import struct_pb2, timestamp_pb2
from google.protobuf.descriptor import FieldDescriptor
from google.protobuf.message import Message

from tavolo.servicekit.errors import InvalidArgument, quoted
from tavolo.servicekit.request_rules import (
    FIELD_RULES,
    MAX_SAFE_INTEGER,
    STRUCT_DEPTH,
    STRUCT_ENTRIES,
    STRUCT_KEY,
    STRUCT_STRING,
    TIMESTAMP_NANOS,
    TIMESTAMP_SECONDS,
    Rule,
    Shape,
    default_rule,
)

_UUID = re.compile(r"[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}")
_PROSE_BREAKS = frozenset("\n\r\t")
_INTEGERS = frozenset(
    {
        FieldDescriptor.TYPE_INT32,
        FieldDescriptor.TYPE_INT64,
        FieldDescriptor.TYPE_SINT32,
        FieldDescriptor.TYPE_SINT64,
        FieldDescriptor.TYPE_SFIXED32,
        FieldDescriptor.TYPE_SFIXED64,
        FieldDescriptor.TYPE_UINT32,
        FieldDescriptor.TYPE_UINT64,
        FieldDescriptor.TYPE_FIXED32,
        FieldDescriptor.TYPE_FIXED64,
    }
)
_FLOATS = frozenset({FieldDescriptor.TYPE_DOUBLE, FieldDescriptor.TYPE_FLOAT})
_rules: dict[str, Rule] = {}


def check_request(message: Message) -> None:
    """INVALID_ARGUMENT for the first field of ``message`` that breaks its rule."""
    _check_message(message, "")


def rule_for(field: FieldDescriptor) -> Rule:
    """The rule of one field: its entry in ``FIELD_RULES``, else the default of its kind."""
    found = _rules.get(field.full_name)
    if found is None:
        owner = field.containing_type
        key = f"{owner.name if owner else ''}.{field.name}"
        is_string = field.type == FieldDescriptor.TYPE_STRING
        found = FIELD_RULES.get(key) or default_rule(field.name, is_string)
        _rules[field.full_name] = found
    return found


def check_text(value: str, rule: Rule, where: str) -> None:
    """Length first (cheap, and it bounds the rest), then the characters."""
    if len(value) > rule.max_chars:
        raise InvalidArgument(
            f"{where} is longer than {rule.max_chars} characters ({len(value)})",
            reason="FIELD_INVALID",
            metadata={"field": where},
        )
    if rule.shape is Shape.UUID:
        if value and not _UUID.fullmatch(value):
            raise InvalidArgument(
                f"{where} must be {rule.shape.value}, not {quoted(value)}",
                reason="FIELD_INVALID",
                metadata={"field": where},
            )
        return
    if rule.shape is Shape.ID:
        if not (value.isascii() and value.isprintable() and " " not in value):
            raise InvalidArgument(
                f"{where} must be {rule.shape.value}, not {quoted(value)}",
                reason="FIELD_INVALID",
                metadata={"field": where},
            )
        return
    allowed = _PROSE_BREAKS if rule.shape is Shape.PROSE else frozenset()
    for position, char in enumerate(value):
        if unicodedata.category(char) == "Cc" and char not in allowed:
            raise InvalidArgument(
                f"{where} must be {rule.shape.value}: it holds the control character "
                f"U+{ord(char):04X} at position {position}",
                reason="FIELD_INVALID",
                metadata={"field": where},
            )


def _check_message(message: Message, path: str) -> None:
    if isinstance(message, struct_pb2.Struct):
        _check_struct(message, path or "options", depth=1, seen=[0])
        return
    if isinstance(message, timestamp_pb2.Timestamp):
        _check_time(message, path)
        return
    for field, value in message.ListFields():
        where = f"{path}.{field.name}" if path else field.name
        rule = rule_for(field)
        if field.is_repeated:
            if len(value) > rule.max_items:
                raise InvalidArgument(
                    f"{where} has {len(value)} items; at most {rule.max_items} are allowed",
                    reason="FIELD_INVALID",
                    metadata={"field": where},
                )
            for index, item in enumerate(value):
                _check_value(field, rule, item, f"{where}[{index}]")
        else:
            _check_value(field, rule, value, where)


def _check_value(field: FieldDescriptor, rule: Rule, value: Any, where: str) -> None:
    kind = field.type
    if kind == FieldDescriptor.TYPE_STRING:
        check_text(value, rule, where)
    elif kind == FieldDescriptor.TYPE_MESSAGE:
        _check_message(value, where)
    elif kind == FieldDescriptor.TYPE_ENUM:
        enum = field.enum_type
        if enum is not None and value not in enum.values_by_number:
            raise InvalidArgument(
                f"{where}: {value} is not a {enum.name} this service knows",
                reason="FIELD_INVALID",
                metadata={"field": where},
            )
    elif kind in _INTEGERS:
        if not rule.low <= value <= rule.high:
            raise InvalidArgument(
                f"{where} must be from {rule.low} to {rule.high}, not {value}",
                reason="FIELD_INVALID",
                metadata={"field": where},
            )
    elif kind in _FLOATS:
        _check_number(value, where)
    elif kind == FieldDescriptor.TYPE_BYTES and len(value) > rule.max_chars:
        raise InvalidArgument(
            f"{where} is longer than {rule.max_chars} bytes ({len(value)})",
            reason="FIELD_INVALID",
            metadata={"field": where},
        )


def _check_time(stamp: timestamp_pb2.Timestamp, where: str) -> None:
    """A time the servicers can read as a datetime, or INVALID_ARGUMENT naming the field."""
    (first, last), (low, high) = TIMESTAMP_SECONDS, TIMESTAMP_NANOS
    if not (first <= stamp.seconds <= last and low <= stamp.nanos <= high):
        raise InvalidArgument(
            f"{where} is not a time from 1970 to the year 9999 (seconds {stamp.seconds},"
            f" nanos {stamp.nanos})",
            reason="FIELD_INVALID",
            metadata={"field": where},
        )


def _check_number(value: float, where: str) -> None:
    if not math.isfinite(value):
        raise InvalidArgument(
            f"{where} must be a finite number, not {value}",
            reason="FIELD_INVALID",
            metadata={"field": where},
        )
    if abs(value) > MAX_SAFE_INTEGER:
        raise InvalidArgument(
            f"{where} must be at most {MAX_SAFE_INTEGER} in size, not {value:g}",
            reason="FIELD_INVALID",
            metadata={"field": where},
        )


def _check_struct(struct: struct_pb2.Struct, where: str, depth: int, seen: list[int]) -> None:
    if depth > STRUCT_DEPTH:
        raise InvalidArgument(
            f"{where} is nested deeper than {STRUCT_DEPTH} levels",
            reason="FIELD_INVALID",
            metadata={"field": where},
        )
    for key, value in struct.fields.items():
        check_text(key, STRUCT_KEY, f"a key of {where}")
        _check_json(value, f"{where}.{key}", depth, seen)


def _check_json(value: struct_pb2.Value, where: str, depth: int, seen: list[int]) -> None:
    seen[0] += 1
    if seen[0] > STRUCT_ENTRIES:
        raise InvalidArgument(
            f"the options hold more than {STRUCT_ENTRIES} values",
            reason="FIELD_INVALID",
            metadata={"field": "options"},
        )
    kind = value.WhichOneof("kind")
    if kind == "number_value":
        _check_number(value.number_value, where)
    elif kind == "string_value":
        check_text(value.string_value, STRUCT_STRING, where)
    elif kind == "struct_value":
        _check_struct(value.struct_value, where, depth + 1, seen)
    elif kind == "list_value":
        if depth + 1 > STRUCT_DEPTH:
            raise InvalidArgument(
                f"{where} is nested deeper than {STRUCT_DEPTH} levels",
                reason="FIELD_INVALID",
                metadata={"field": where},
            )
        for index, item in enumerate(value.list_value.values):
            _check_json(item, f"{where}[{index}]", depth + 1, seen)
