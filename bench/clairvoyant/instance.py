"""One pool's arrivals as the clairvoyant sees them, and the wait rule it must keep.

A table of four forms at the first matchmaking round at or after its last member's
arrival (rounds every ``step`` seconds, as in the simulation); each member waits from
its own arrival to that round. The wait goal is on the 95th percentile, read as the
simulation reads it (the value at index ``int(0.95 * (n - 1))`` of the sorted waits), so
a grouping keeps it when at most ``late_allowed(n)`` tickets wait longer than the cap.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

SEATS = 4
QUANTILE = 0.95


@dataclass(frozen=True, slots=True)
class Arrival:
    """A ticket: when it joined (seconds) and its player's rating mean."""

    at: float
    mu: float


def late_allowed(count: int) -> int:
    """How many of ``count`` waits may exceed the cap with the 95th percentile within it."""
    return count - 1 - int(QUANTILE * (count - 1))


def round_after(at: float, step: float) -> float:
    """The first matchmaking round at or after ``at`` (rounds at multiples of ``step``)."""
    return math.ceil(at / step - 1e-9) * step


def spread(mus: Sequence[float]) -> float:
    return max(mus) - min(mus)


@dataclass(frozen=True)
class Pool:
    """Arrivals in time order (a multiple of four of them), the wait cap and the round."""

    arrivals: tuple[Arrival, ...]
    cap: float
    step: float

    def __post_init__(self) -> None:
        if len(self.arrivals) % SEATS:
            raise ValueError("the clairvoyant seats everyone: a multiple of four arrivals")
        if any(b.at < a.at for a, b in zip(self.arrivals, self.arrivals[1:], strict=False)):
            raise ValueError("arrivals in time order")
        if self.cap < self.step:
            raise ValueError("the cap must allow at least one round of waiting")

    @property
    def tables(self) -> int:
        return len(self.arrivals) // SEATS

    def waits(self, group: Sequence[int]) -> list[float]:
        """Each member's wait when ``group`` (indices) sits as soon as it is complete."""
        formed = round_after(max(self.arrivals[i].at for i in group), self.step)
        return [formed - self.arrivals[i].at for i in group]

    def late(self, group: Sequence[int]) -> int:
        """How many of ``group`` would wait longer than the cap."""
        return sum(1 for wait in self.waits(group) if wait > self.cap + 1e-9)

    def spread(self, group: Sequence[int]) -> float:
        return spread([self.arrivals[i].mu for i in group])
