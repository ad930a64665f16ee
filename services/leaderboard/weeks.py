"""ISO weeks of the weekly league (MODE-3), read in a configurable time zone.

A table belongs to the week in which it finished, as the clock of the league's time zone
shows it: with ``Europe/Rome`` a table finished on Sunday 23:30 UTC in summer already
belongs to the next week. Weeks are stored as one integer ``year * 100 + week`` so a
(week, game, points) index keeps one week's rows together.
"""

from __future__ import annotations

import datetime as dt
from dataclasses import dataclass
from zoneinfo import ZoneInfo

from tavolo.servicekit.errors import InvalidArgument

MIN_YEAR = 2000
MAX_YEAR = 9998


@dataclass(frozen=True, slots=True, order=True)
class IsoWeek:
    """An ISO 8601 week: ``year`` is the ISO year, which may differ from the calendar year."""

    year: int
    week: int

    @property
    def key(self) -> int:
        """The stored form: 2025 week 1 is 202501."""
        return self.year * 100 + self.week

    @classmethod
    def from_key(cls, key: int) -> IsoWeek:
        return cls(key // 100, key % 100)

    def monday(self, zone: ZoneInfo) -> dt.datetime:
        """Monday 00:00 of this week in ``zone``: the first instant that belongs to it."""
        day = dt.date.fromisocalendar(self.year, self.week, 1)
        return dt.datetime.combine(day, dt.time(0, 0), tzinfo=zone)

    def __str__(self) -> str:
        return f"{self.year}-W{self.week:02d}"


def week_of(moment: dt.datetime, zone: ZoneInfo) -> IsoWeek:
    """The ISO week ``moment`` falls in, on the wall clock of ``zone``."""
    if moment.tzinfo is None:
        raise ValueError("a moment without a time zone has no week")
    year, week, _ = moment.astimezone(zone).isocalendar()
    return IsoWeek(year, week)


def checked_week(year: int, week: int) -> IsoWeek:
    """A week a caller named, refused with INVALID_ARGUMENT unless it exists."""
    if not MIN_YEAR <= year <= MAX_YEAR:
        raise InvalidArgument(
            f"week year must be between {MIN_YEAR} and {MAX_YEAR}, not {year}",
            reason="FIELD_INVALID",
            metadata={"field": "week"},
        )
    last = weeks_in_year(year)
    if not 1 <= week <= last:
        raise InvalidArgument(
            f"ISO year {year} has weeks 1 to {last}; week {week} does not exist",
            reason="FIELD_INVALID",
            metadata={"field": "week"},
        )
    return IsoWeek(year, week)


def weeks_in_year(year: int) -> int:
    """52 or 53: 28 December always lies in the last ISO week of its year."""
    return dt.date(year, 12, 28).isocalendar()[1]
