"""How a batch of finished tables changes the projection tables, as plain data.

The store applies these deltas with a few set-based statements, whether the batch is one
live event or a thousand during a rebuild; deciding them here keeps the SQL free of rules.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field

from tavolo.leaderboard.rules import TableEffects

ALL_GAMES = ""  # the league row that sums every game


@dataclass
class ProjectionDelta:
    """Additions to every projection table, keyed as the tables are."""

    xp: dict[str, int] = field(default_factory=lambda: defaultdict(int))
    # (player, game, place) → times
    places: dict[tuple[str, str, int], int] = field(default_factory=lambda: defaultdict(int))
    # (week key, game or ALL_GAMES, player) → [points_x2, games]
    league: dict[tuple[int, str, str], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )
    # (game, player) → [wins, games]
    alltime: dict[tuple[str, str], list[int]] = field(
        default_factory=lambda: defaultdict(lambda: [0, 0])
    )

    @property
    def empty(self) -> bool:
        return not (self.xp or self.places or self.league or self.alltime)


def aggregate(batch: Iterable[TableEffects]) -> ProjectionDelta:
    """The sum of what every table of ``batch`` changes."""
    delta = ProjectionDelta()
    for effects in batch:
        for player in effects.players:
            delta.xp[player.player_id] += player.xp
            delta.places[(player.player_id, effects.game, player.place)] += 1
            if effects.week is not None and player.ranked:
                for game in (effects.game, ALL_GAMES):
                    row = delta.league[(effects.week.key, game, player.player_id)]
                    row[0] += player.league_points_x2
                    row[1] += 1
            if player.ranked:
                totals = delta.alltime[(effects.game, player.player_id)]
                totals[0] += int(player.won)
                totals[1] += 1
    return delta
