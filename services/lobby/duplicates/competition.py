"""A Duplicate Solitario competition: what it is, the checks on creating and entering
one, and the daily competition's id and hours. Pure: the clock and the seed come in."""

from __future__ import annotations

import hashlib
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime, time, timedelta
from typing import Any

from tavolo.lobby.play.tables import TableSpec, table_spec
from tavolo.servicekit.errors import FailedPrecondition, InvalidArgument

GAME = "solitario"
DAILY_PREFIX = "daily-"
DAILY_OPTIONS: Mapping[str, Any] = {"draw": 1, "scoring": "standard"}
"""The daily deal: draw 1, standard scoring, no clock (time ranks entries anyway)."""
SEED_BYTES = 32
MAX_DAYS = 31
"""An operator's competition runs for at most a month."""


@dataclass(frozen=True, slots=True)
class Competition:
    duplicate_id: str
    spec: TableSpec
    opens_at: datetime
    closes_at: datetime
    seed: bytes  # never shown to a player before closes_at: see ``seed_shown``

    @property
    def commitment(self) -> str:
        return commitment(self.seed)

    def closed(self, now: datetime) -> bool:
        return now >= self.closes_at

    def seed_shown(self, now: datetime) -> bytes:
        """The seed as an answer may show it: only once the competition has closed."""
        return self.seed if self.closed(now) else b""

    def check_entry(self, now: datetime) -> None:
        """Entries are taken between the opening and the close."""
        if now < self.opens_at:
            raise FailedPrecondition(
                f"competition {self.duplicate_id} opens at {self.opens_at.isoformat()}",
                reason="COMPETITION_NOT_OPEN",
                metadata={"opens_at": self.opens_at.isoformat()},
            )
        if self.closed(now):
            raise FailedPrecondition(
                f"competition {self.duplicate_id} closed at {self.closes_at.isoformat()}:"
                " its standings are final",
                reason="COMPETITION_CLOSED",
                metadata={"closes_at": self.closes_at.isoformat()},
            )


def commitment(seed: bytes) -> str:
    """What is published when a competition is created: the seed's SHA-256, in hex (the
    same commitment every entrant's table opens with)."""
    return hashlib.sha256(seed).hexdigest()


def daily_id(now: datetime) -> str:
    return f"{DAILY_PREFIX}{now.astimezone(UTC).date().isoformat()}"


def daily(now: datetime, seed: bytes) -> Competition:
    """Today's daily competition (UTC day), from midnight to midnight."""
    start = datetime.combine(now.astimezone(UTC).date(), time(0), tzinfo=UTC)
    return Competition(
        daily_id(now),
        table_spec(GAME, 1, DAILY_OPTIONS),
        start,
        start + timedelta(days=1),
        _checked_seed(seed),
    )


def new_competition(
    duplicate_id: str,
    options: Mapping[str, Any] | None,
    opens_at: datetime,
    closes_at: datetime,
    seed: bytes,
    now: datetime,
) -> Competition:
    """An operator's competition, checked; refusals say what to change."""
    name = duplicate_id.strip()
    if not name or len(name) > 60 or not name.replace("-", "").isalnum():
        raise InvalidArgument(
            "a competition id is 1 to 60 letters, digits and '-'",
            reason="COMPETITION_INVALID",
            metadata={"field": "duplicate_id"},
        )
    if name.startswith(DAILY_PREFIX):
        raise InvalidArgument(
            f"ids starting {DAILY_PREFIX!r} are the daily competitions'",
            reason="COMPETITION_INVALID",
            metadata={"field": "duplicate_id"},
        )
    if closes_at <= opens_at:
        raise InvalidArgument(
            "a competition closes after it opens",
            reason="COMPETITION_INVALID",
            metadata={"field": "closes_at"},
        )
    if closes_at <= now:
        raise InvalidArgument(
            "a competition closes in the future",
            reason="COMPETITION_INVALID",
            metadata={"field": "closes_at"},
        )
    if closes_at - opens_at > timedelta(days=MAX_DAYS):
        raise InvalidArgument(
            f"a competition runs for at most {MAX_DAYS} days",
            reason="COMPETITION_INVALID",
            metadata={"field": "closes_at"},
        )
    spec = table_spec(GAME, 1, options)
    return Competition(name, spec, opens_at, closes_at, _checked_seed(seed))


def _checked_seed(seed: bytes) -> bytes:
    if len(seed) < SEED_BYTES:
        raise ValueError(f"a competition's seed has {SEED_BYTES} bytes or more")
    return seed
