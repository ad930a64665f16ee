"""The canonical bytes of an event and the hash chain over them.

An auditor in any language must be able to recompute every hash, so the encoding is
spelled out here rather than left to a library's defaults.

Canonical bytes of an event: the UTF-8 encoding of one JSON object with exactly the keys
``data``, ``event_id``, ``metadata``, ``recorded_at``, ``stream_id``, ``type``, ``version``,
where

- object keys are sorted by Unicode code point at every level, with no whitespace between
  tokens (``{"a":1,"b":[true,null]}``);
- strings are written as in RFC 8785 (JCS): ``"`` and ``\\`` escaped, ``\\b \\f \\n \\r \\t``
  as short escapes, other control characters as ``\\u00XX`` (lowercase hex), everything else
  as the literal character;
- numbers are integers only, in decimal, within ±(2**53 - 1) so every language reads them
  exactly (floats are refused: their shortest text differs between languages);
- ``event_id`` is the lowercase, hyphenated UUID; ``version`` an integer; ``recorded_at``
  the UTC time as ``YYYY-MM-DDTHH:MM:SS.ffffffZ`` (always six fraction digits).

The chain: ``hash = sha256(prev_hash || canonical_bytes)``, where ``prev_hash`` is the hash
of the previous event of the same stream and 32 zero bytes for version 1. Global
positions are deliberately outside the hash: a stream's history is the unit of audit.
"""

from __future__ import annotations

import hashlib
import json
import uuid
from datetime import UTC, datetime
from typing import Any

from tavolo.eventlog.model import JsonObject

GENESIS_HASH = bytes(32)
MAX_SAFE_INTEGER = 2**53 - 1


def format_timestamp(moment: datetime) -> str:
    """``recorded_at`` as the canonical text (UTC, microseconds, ``Z``)."""
    if moment.tzinfo is None:
        raise ValueError("recorded_at must carry a time zone")
    return moment.astimezone(UTC).strftime("%Y-%m-%dT%H:%M:%S.%fZ")


def canonical_bytes(
    *,
    stream_id: str,
    version: int,
    event_id: uuid.UUID,
    type: str,
    data: JsonObject,
    metadata: JsonObject,
    recorded_at: datetime,
) -> bytes:
    """The bytes the hash covers; see the module docstring for the rules."""
    document = {
        "data": data,
        "event_id": str(event_id),
        "metadata": metadata,
        "recorded_at": format_timestamp(recorded_at),
        "stream_id": stream_id,
        "type": type,
        "version": version,
    }
    return encode_json(document).encode("utf-8")


def encode_json(value: Any) -> str:
    """Canonical JSON text of a value already checked by `check_json_safe`."""
    return json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )


def chain_hash(prev_hash: bytes, canonical: bytes) -> bytes:
    return hashlib.sha256(prev_hash + canonical).digest()


def check_json_safe(value: Any, where: str) -> None:
    """Refuse anything the canonical encoding cannot carry, naming where it sits."""
    if value is None or isinstance(value, bool | str):
        return
    if isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            raise TypeError(f"{where} is {value}, outside ±(2**53 - 1): store it as a string")
        return
    if isinstance(value, float):
        raise TypeError(f"{where} is the float {value!r}: events hold integers only")
    if isinstance(value, list):
        for index, item in enumerate(value):
            check_json_safe(item, f"{where}[{index}]")
        return
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                raise TypeError(f"{where} has the key {key!r}: object keys must be strings")
            check_json_safe(item, f"{where}.{key}")
        return
    raise TypeError(
        f"{where} is a {type(value).__name__}: events hold only null, booleans, integers,"
        " strings, lists and dicts"
    )
