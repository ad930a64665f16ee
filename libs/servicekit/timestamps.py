"""Times in requests: a ``google.protobuf.Timestamp`` field read as an aware datetime.

The edge check (`tavolo.servicekit.validation`) already refuses a stamp no datetime can
hold; reading one here still refuses it as INVALID_ARGUMENT naming the field, so a
servicer called another way can never turn it into INTERNAL.
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
            f"{field} is not a time from 1970 to the year 9999",
            reason="FIELD_INVALID",
            metadata={"field": field},
        ) from None
    return stamp
