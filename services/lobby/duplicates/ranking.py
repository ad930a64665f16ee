"""The leaderboard of a Duplicate Solitario competition: by score (higher first), then
time (shorter first), then moves (fewer first); entrants equal in all three share a place,
and the next place skips as many as shared (1, 1, 3). An entrant who left their table
(``aborted``) comes after every result; entrants still playing have no place yet."""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass

ABORTED = "aborted"


@dataclass(frozen=True, slots=True)
class Entry:
    """One entrant's table and, once it ended, its result."""

    player_id: str
    nickname: str
    table_id: str
    result: str | None = None  # None while the table is in play
    score: int = 0
    millis: int = 0
    moves: int = 0

    @property
    def finished(self) -> bool:
        return self.result is not None

    def measure(self) -> tuple[bool, int, int, int]:
        """What ranks an entry: smaller is better."""
        return (self.result == ABORTED, -self.score, self.millis, self.moves)


@dataclass(frozen=True, slots=True)
class Standing:
    place: int  # 0 while playing
    entry: Entry


def rank(entries: Iterable[Entry]) -> list[Standing]:
    """Finished entries by place (ties by nickname, for a stable listing), then those
    still playing by nickname."""
    entries = list(entries)
    done = sorted((e for e in entries if e.finished), key=lambda e: (e.measure(), e.nickname))
    standings: list[Standing] = []
    for i, entry in enumerate(done):
        tied = i > 0 and done[i - 1].measure() == entry.measure()
        standings.append(Standing(standings[-1].place if tied else i + 1, entry))
    playing = sorted((e for e in entries if not e.finished), key=lambda e: e.nickname)
    return standings + [Standing(0, e) for e in playing]
