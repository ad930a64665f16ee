"""Sanctions (PCG-4): durations, what each kind suspends, and the refusal it causes."""

from __future__ import annotations

import calendar
from datetime import UTC, datetime, timedelta

import pytest

from tavolo.lobby.accounts.sanctions import (
    Sanction,
    SanctionDuration,
    SanctionKind,
    add_months,
    add_one_month,
    check_reason,
    ensure_account_active,
    ensure_may_chat,
    ensure_may_use_lobby,
    sanction_until,
)
from tavolo.servicekit.errors import InvalidArgument, PermissionDenied

NOW = datetime(2026, 3, 15, 12, 0, tzinfo=UTC)


def sanction(kind: SanctionKind, until: datetime | None, **extra: object) -> Sanction:
    return Sanction(
        sanction_id="s1",
        player_id="p1",
        kind=kind,
        applied_by="mod",
        reason="insults at table 7",
        applied_at=NOW - timedelta(days=1),
        until=until,
        **extra,  # type: ignore[arg-type]
    )


@pytest.mark.parametrize(
    ("start", "end"),
    [
        (datetime(2026, 3, 15, tzinfo=UTC), datetime(2026, 4, 15, tzinfo=UTC)),
        (datetime(2026, 1, 31, tzinfo=UTC), datetime(2026, 2, 28, tzinfo=UTC)),
        (datetime(2028, 1, 31, tzinfo=UTC), datetime(2028, 2, 29, tzinfo=UTC)),
        (datetime(2026, 12, 10, tzinfo=UTC), datetime(2027, 1, 10, tzinfo=UTC)),
    ],
)
def test_pcg_4_one_month_is_a_calendar_month(start: datetime, end: datetime) -> None:
    assert add_one_month(start) == end


def test_pcg_4_durations() -> None:
    month = sanction_until(SanctionKind.CHAT, SanctionDuration.ONE_MONTH, NOW)
    assert month == datetime(2026, 4, 15, 12, 0, tzinfo=UTC)
    assert sanction_until(SanctionKind.LOBBY, SanctionDuration.PERMANENT, NOW) is None
    assert sanction_until(SanctionKind.FREEZE, SanctionDuration.PERMANENT, NOW) is None


def test_pcg_4_a_freeze_lasts_until_lifted() -> None:
    with pytest.raises(InvalidArgument, match="until a moderator lifts it"):
        sanction_until(SanctionKind.FREEZE, SanctionDuration.ONE_MONTH, NOW)


def test_pcg_4_every_sanction_needs_a_reason() -> None:
    with pytest.raises(InvalidArgument, match="needs a reason"):
        check_reason("   ")
    assert check_reason("  spam  ") == "spam"


def test_pcg_4_chat_suspension_says_what_and_until_when() -> None:
    until = NOW + timedelta(days=10)
    with pytest.raises(PermissionDenied) as caught:
        ensure_may_chat([sanction(SanctionKind.CHAT, until)], NOW)
    assert "chat is suspended until 2026-03-25 12:00 UTC" in str(caught.value)
    assert "insults at table 7" in str(caught.value)
    ensure_may_use_lobby([sanction(SanctionKind.CHAT, until)], NOW)  # chat only


def test_pcg_4_a_lobby_suspension_stops_chat_too() -> None:
    """Suspended from the lobby means out of every lobby feature, its chat included."""
    lobby = [sanction(SanctionKind.LOBBY, None)]
    for check in (ensure_may_use_lobby, ensure_may_chat):
        with pytest.raises(PermissionDenied, match="lobby access is suspended permanently"):
            check(lobby, NOW)


def test_pcg_4_all_accounts_stops_everything() -> None:
    everything = [sanction(SanctionKind.ALL_ACCOUNTS, None)]
    for check in (ensure_account_active, ensure_may_chat, ensure_may_use_lobby):
        with pytest.raises(PermissionDenied, match="all of your accounts are suspended"):
            check(everything, NOW)


def test_pcg_4_expired_and_lifted_sanctions_bind_nobody() -> None:
    expired = sanction(SanctionKind.CHAT, NOW - timedelta(seconds=1))
    lifted = sanction(SanctionKind.CHAT, None, lifted_at=NOW - timedelta(hours=1))
    ensure_may_chat([expired, lifted], NOW)


def test_pcg_4_the_longest_sanction_is_reported() -> None:
    short = sanction(SanctionKind.CHAT, NOW + timedelta(days=1))
    long = sanction(SanctionKind.CHAT, None)
    with pytest.raises(PermissionDenied, match="permanently"):
        ensure_may_chat([short, long], NOW)


def test_pcg_4_months_are_calendar_months_clamped_on_every_day_of_two_years() -> None:
    """add_months over every day of 2027-2028 (a leap year) and every count up to a year."""
    day = datetime(2027, 1, 1, 9, 30, tzinfo=UTC)
    while day.year < 2029:
        for months in range(13):
            later = add_months(day, months)
            index = day.month - 1 + months
            assert (later.year, later.month) == (day.year + index // 12, index % 12 + 1)
            assert later.day == min(day.day, calendar.monthrange(later.year, later.month)[1])
            assert later.time() == day.time()
        day += timedelta(days=1)
