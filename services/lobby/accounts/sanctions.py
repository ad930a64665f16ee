"""Sanctions (PCG-4): what each one suspends, how long it lasts, and the refusal it causes.

Pure rules over plain data; the store keeps the records and the use cases ask here
whether a player may chat, use the lobby or log in at all.

- ``chat``: no chat messages.
- ``lobby``: no queues, rooms, invitations, tables or chat, and the streams a player
  holds open close at once.
- ``all_accounts``: every account of the same person is suspended: no login, no
  refresh, nothing in the lobby. A person's accounts are the ones registered while
  logged in to one of them (they share an owner id).
- ``freeze``: the wallet freezes the balance (it acts on the AccountFrozen event). A
  freeze lasts until a moderator lifts it: PCG-4 freezes balances "pending the
  authority's decision", so a one-month freeze is refused rather than guessed at.

How long (:class:`SanctionDuration`): a warning (recorded in the player's history, it
suspends nothing), one day, one week, one, three or six calendar months, one year, or for
ever. A month is a calendar month (15 March → 15 April; 31 January → 28 or 29 February),
a year twelve of them.
"""

from __future__ import annotations

import calendar
from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime, timedelta
from enum import StrEnum

from tavolo.servicekit.errors import InvalidArgument, PermissionDenied

MAX_REASON_LENGTH = 1000


class SanctionKind(StrEnum):
    CHAT = "chat"
    LOBBY = "lobby"
    ALL_ACCOUNTS = "all_accounts"
    FREEZE = "freeze"


class SanctionDuration(StrEnum):
    WARNING = "warning"
    ONE_DAY = "one_day"
    ONE_WEEK = "one_week"
    ONE_MONTH = "one_month"
    THREE_MONTHS = "three_months"
    SIX_MONTHS = "six_months"
    ONE_YEAR = "one_year"
    PERMANENT = "permanent"


_DAYS = {SanctionDuration.ONE_DAY: 1, SanctionDuration.ONE_WEEK: 7}
_MONTHS = {
    SanctionDuration.ONE_MONTH: 1,
    SanctionDuration.THREE_MONTHS: 3,
    SanctionDuration.SIX_MONTHS: 6,
    SanctionDuration.ONE_YEAR: 12,
}


@dataclass(frozen=True, slots=True)
class Sanction:
    """A recorded sanction: who applied it, why and until when (None = for ever)."""

    sanction_id: str
    player_id: str
    kind: SanctionKind
    applied_by: str
    reason: str
    applied_at: datetime
    until: datetime | None
    lifted_at: datetime | None = None
    lifted_by: str | None = None
    duration: SanctionDuration | None = None  # None: recorded before durations were

    @property
    def warning(self) -> bool:
        return self.duration is SanctionDuration.WARNING

    def active_at(self, now: datetime) -> bool:
        if self.lifted_at is not None:
            return False
        return self.until is None or now < self.until


def add_one_month(moment: datetime) -> datetime:
    """The same day and time next month, clamped to the month's last day."""
    year = moment.year + (1 if moment.month == 12 else 0)
    month = 1 if moment.month == 12 else moment.month + 1
    day = min(moment.day, calendar.monthrange(year, month)[1])
    return moment.replace(year=year, month=month, day=day)


def add_months(moment: datetime, months: int) -> datetime:
    """The same day and time ``months`` later, clamped to that month's last day."""
    index = moment.month - 1 + months
    year, month = moment.year + index // 12, index % 12 + 1
    day = min(moment.day, calendar.monthrange(year, month)[1])
    return moment.replace(year=year, month=month, day=day)


def sanction_until(
    kind: SanctionKind, duration: SanctionDuration, applied_at: datetime
) -> datetime | None:
    """When a new sanction ends (None = permanent; a warning ends as it is applied);
    refuses a timed freeze."""
    if kind is SanctionKind.FREEZE and duration is not SanctionDuration.PERMANENT:
        raise InvalidArgument(
            "a balance freeze lasts until a moderator lifts it (PCG-4: pending the"
            " authority's decision); apply it as permanent and lift it when decided",
            reason="SANCTION_INVALID",
            metadata={"field": "duration"},
        )
    if duration is SanctionDuration.PERMANENT:
        return None
    if duration is SanctionDuration.WARNING:
        return applied_at
    if duration in _DAYS:
        return applied_at + timedelta(days=_DAYS[duration])
    return add_months(applied_at, _MONTHS[duration])


def check_reason(reason: str) -> str:
    """Every sanction records why; an empty reason is refused."""
    text = reason.strip()
    if not text:
        raise InvalidArgument(
            "say why: a sanction needs a reason, which is recorded with it",
            reason="SANCTION_INVALID",
            metadata={"field": "reason"},
        )
    if len(text) > MAX_REASON_LENGTH:
        raise InvalidArgument(
            f"the reason is at most {MAX_REASON_LENGTH} characters",
            reason="SANCTION_INVALID",
            metadata={"field": "reason"},
        )
    return text


def _describe_until(sanction: Sanction) -> str:
    if sanction.until is None:
        return "permanently"
    return f"until {sanction.until.strftime('%Y-%m-%d %H:%M UTC')}"


def _until(sanction: Sanction) -> str:
    """When a sanction ends, for a client app: an ISO time, or "permanent"."""
    return sanction.until.isoformat() if sanction.until else "permanent"


def _longest(found: list[Sanction]) -> Sanction:
    """The sanction that lasts longest (a permanent one beats any date)."""
    permanent = [s for s in found if s.until is None]
    if permanent:
        return permanent[0]
    return max(found, key=lambda s: s.until or s.applied_at)


def _active(
    sanctions: Iterable[Sanction], kinds: set[SanctionKind], now: datetime
) -> Sanction | None:
    found = [s for s in sanctions if s.kind in kinds and s.active_at(now)]
    return _longest(found) if found else None


def ensure_account_active(sanctions: Iterable[Sanction], now: datetime) -> None:
    """Refuse everything to an account suspended with all of the person's accounts."""
    hit = _active(sanctions, {SanctionKind.ALL_ACCOUNTS}, now)
    if hit is not None:
        raise PermissionDenied(
            f"all of your accounts are suspended {_describe_until(hit)}: {hit.reason}",
            reason="ACCOUNTS_SUSPENDED",
            metadata={"until": _until(hit)},
        )


def ensure_may_use_lobby(sanctions: Iterable[Sanction], now: datetime) -> None:
    """Queues, rooms, invitations and tables need no lobby suspension (PCG-4)."""
    materialised = list(sanctions)
    ensure_account_active(materialised, now)
    hit = _active(materialised, {SanctionKind.LOBBY}, now)
    if hit is not None:
        raise PermissionDenied(
            f"your lobby access is suspended {_describe_until(hit)}: {hit.reason}",
            reason="LOBBY_SUSPENDED",
            metadata={"until": _until(hit)},
        )


def may_use_lobby(sanctions: Iterable[Sanction], now: datetime) -> bool:
    """Whether no sanction keeps the player out of the lobby (queues, rooms, tables, chat)."""
    return _active(sanctions, {SanctionKind.ALL_ACCOUNTS, SanctionKind.LOBBY}, now) is None


def ensure_may_chat(sanctions: Iterable[Sanction], now: datetime) -> None:
    """Chat needs no chat suspension, and no lobby suspension: a player kept out of the
    lobby is kept out of its chat too (PCG-4)."""
    materialised = list(sanctions)
    ensure_may_use_lobby(materialised, now)
    hit = _active(materialised, {SanctionKind.CHAT}, now)
    if hit is not None:
        raise PermissionDenied(
            f"your chat is suspended {_describe_until(hit)}: {hit.reason}",
            reason="CHAT_SUSPENDED",
            metadata={"until": _until(hit)},
        )
