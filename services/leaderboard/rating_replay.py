"""Ratings applied table after table, in the history's order (RATE-1).

The league's projection is a sum, so any batch of tables adds up the same in any order;
ratings are not: each table's update starts from the ratings the tables before it left.
:class:`RatingReplay` carries those ratings in memory while a rebuild replays the history
page by page, and says for each table what changed.
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tavolo.leaderboard.model import FinishedTable
from tavolo.leaderboard.ratings import Rating, RatingChange

Rate = Callable[[FinishedTable, Mapping[str, Rating]], list[RatingChange]]
# A history payload's table; None for one today's reader refuses (skipped, as the league does).
Parse = Callable[[bytes], FinishedTable | None]


@dataclass(frozen=True, slots=True)
class RatedTable:
    """What one table changed, with its place in the history."""

    position: int
    table_id: str
    game: str
    finished_at: dt.datetime
    changes: Sequence[RatingChange]


def rated_table(position: int, table: FinishedTable, changes: Sequence[RatingChange]) -> RatedTable:
    return RatedTable(position, table.table_id, table.game, table.occurred_at, changes)


class RatingReplay:
    """Every player's rating in every game, moved on one table at a time."""

    def __init__(self, rate: Rate, parse: Parse) -> None:
        self._rate = rate
        self._parse = parse
        self._ratings: dict[tuple[str, str], Rating] = {}
        self.last_position = 0

    def reset(self) -> None:
        self._ratings.clear()
        self.last_position = 0

    def apply(self, position: int, table: FinishedTable) -> RatedTable | None:
        """Rate ``table`` on the ratings so far; None when it rates nobody."""
        self.last_position = max(self.last_position, position)
        players = [s.player_id for s in table.seats if s.human]
        current = {
            p: self._ratings[(table.game, p)] for p in players if (table.game, p) in self._ratings
        }
        changes = self._rate(table, current)
        if not changes:
            return None
        for change in changes:
            self._ratings[(table.game, change.player_id)] = change.after
        return rated_table(position, table, changes)

    def apply_payload(self, position: int, payload: bytes) -> RatedTable | None:
        table = self._parse(payload)
        if table is None:
            self.last_position = max(self.last_position, position)
            return None
        return self.apply(position, table)

    def ratings(self) -> list[tuple[str, str, Rating]]:
        """(game, player, rating) for everyone rated, in key order."""
        return [(game, player, r) for (game, player), r in sorted(self._ratings.items())]
