"""ISO weeks of the league in a configurable time zone (MODE-3)."""

from __future__ import annotations

import datetime as dt
from zoneinfo import ZoneInfo

import pytest

from tavolo.leaderboard.weeks import IsoWeek, checked_week, week_of, weeks_in_year
from tavolo.servicekit.errors import InvalidArgument

UTC = ZoneInfo("UTC")
ROME = ZoneInfo("Europe/Rome")


def test_mode3_one_second_before_monday_midnight_is_last_week_and_midnight_is_the_next() -> None:
    monday = IsoWeek(2025, 12).monday(UTC)
    assert monday == dt.datetime(2025, 3, 17, tzinfo=UTC)
    assert week_of(monday - dt.timedelta(seconds=1), UTC) == IsoWeek(2025, 11)
    assert week_of(monday, UTC) == IsoWeek(2025, 12)
    assert week_of(monday + dt.timedelta(seconds=1), UTC) == IsoWeek(2025, 12)


@pytest.mark.parametrize("week", [IsoWeek(2025, 13), IsoWeek(2025, 44)], ids=["CET", "CEST"])
def test_mode3_week_boundary_in_rome_on_either_side_of_daylight_saving(week: IsoWeek) -> None:
    # 2025-W14 starts on 31 March (summer time, UTC+2); 2025-W44 on 27 October (UTC+1).
    next_week = IsoWeek(week.year, week.week + 1)
    midnight = next_week.monday(ROME)
    instant = midnight.astimezone(dt.UTC)
    assert instant.hour in (22, 23)  # still Sunday in UTC
    assert week_of(instant - dt.timedelta(seconds=1), ROME) == week
    assert week_of(instant, ROME) == next_week
    assert week_of(instant, UTC) == week


def test_iso_year_differs_from_calendar_year_at_the_edges() -> None:
    assert week_of(dt.datetime(2021, 1, 3, 23, 59, 59, tzinfo=dt.UTC), UTC) == IsoWeek(2020, 53)
    assert week_of(dt.datetime(2021, 1, 4, tzinfo=dt.UTC), UTC) == IsoWeek(2021, 1)
    assert week_of(dt.datetime(2024, 12, 30, tzinfo=dt.UTC), UTC) == IsoWeek(2025, 1)


def test_a_naive_moment_has_no_week() -> None:
    with pytest.raises(ValueError):
        week_of(dt.datetime(2025, 1, 1), UTC)


def test_weeks_in_year() -> None:
    assert weeks_in_year(2020) == 53
    assert weeks_in_year(2025) == 52
    assert weeks_in_year(2026) == 53


@pytest.mark.parametrize(
    ("year", "week", "message"),
    [(2025, 53, "weeks 1 to 52"), (2025, 0, "weeks 1 to 52"), (1999, 10, "between")],
)
def test_a_week_that_does_not_exist_is_refused(year: int, week: int, message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        checked_week(year, week)


def test_week_53_exists_in_long_years() -> None:
    assert checked_week(2026, 53) == IsoWeek(2026, 53)
