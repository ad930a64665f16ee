"""Times in requests: a ``google.protobuf.Timestamp`` field read as an aware datetime.

A client can send any seconds and nanos; one that no datetime can hold (beyond the years
1 to 9999, or nanos outside 0..999,999,999) is the caller's mistake, so it is refused as
INVALID_ARGUMENT naming the field, never left to surface as INTERNAL.
"""

from __future__ import annotations

from datetime import UTC, datetime
from typing import Any

from tavolo.servicekit.errors import InvalidArgument


def time_field(message: Any, field: str) -> datetime | None:
    """``message.field`` in UTC; None when the field is not set."""
    if not message.HasField(field):
        return None
    try:
        stamp: datetime = getattr(message, field).ToDatetime(tzinfo=UTC)
    except (ValueError, OverflowError):
        raise InvalidArgument(
            f"{field} is not a time between the years 1 and 9999 (nanos 0 to 999,999,999)"
        ) from None
    return stamp
