"""What a finished table is worth: XP by mode (MODE-1..3), boosters (MODE-5), league points
(MODE-3) and levels. Pure functions over plain data, configured by :class:`RewardRules`.

Defaults (each can be changed in the rules file, see ``tavolo.leaderboard.config``):

- **Online XP by place** (MODE-3, every place is paid): for a table of ``n`` seats, place
  ``p`` earns ``ceil(100 * (n - p + 1) / n)``: 4 seats → 100, 75, 50, 25; 2 seats → 100, 50.
  Stake tables are online tables (MODE-4) and earn the same **[decision]**.
- **Versus friends** (MODE-2): only first place earns, at half the online rate (50).
- **Versus computer** (MODE-1): nothing.
- **Gold booster** x2 and **VIP pass** x1.5 multiply a player's XP, and both together
  multiply (x3) **[decision]**; results are rounded down.
- **League points** (MODE-3): place ``p`` of ``n`` earns ``2 * (n - p) + 1``: 4 seats →
  7, 5, 3, 1. Online and stake tables count; a bot-filled table counts half, so points are
  kept doubled (``points_x2``) to stay whole. Boosters never multiply league points
  **[decision]**: the league ranks play, not purchases.
- **All-time ranking** counts wins (first places) at league tables, whole even when
  bot-filled, as the contract says **[decision]**.
- **Levels**: level 1 at 0 XP; going from level ``L`` to ``L + 1`` costs
  ``100 + 100 * (L - 1)`` XP (100, 200, 300...), so level 4 starts at 600 XP.

Ties share a place (RULES common 12), so tied players earn the same as each other. Bot
seats earn nothing, and neither does a player whose seat a bot finished after they left
the table **[decision]**: the engine reports that seat as a bot.
"""

from __future__ import annotations

import itertools
from collections.abc import Mapping
from dataclasses import dataclass, field
from zoneinfo import ZoneInfo

from tavolo.leaderboard.model import FinishedTable, Mode
from tavolo.leaderboard.weeks import IsoWeek, week_of


def descending_scale(first: int, seats: int) -> tuple[int, ...]:
    """``ceil(first * (seats - p + 1) / seats)`` for places 1..seats."""
    return tuple(-(-first * (seats - p + 1) // seats) for p in range(1, seats + 1))


def odd_points(seats: int) -> tuple[int, ...]:
    """``2 * (seats - p) + 1`` for places 1..seats: 7, 5, 3, 1 at four seats."""
    return tuple(2 * (seats - p) + 1 for p in range(1, seats + 1))


@dataclass(frozen=True, slots=True)
class PlacementTable:
    """Points by place for each table size; sizes not listed use ``fallback``."""

    by_seats: Mapping[int, tuple[int, ...]]
    fallback: str = "xp"  # "xp" → descending_scale(100, n), "league" → odd_points(n)

    def __post_init__(self) -> None:
        for seats, values in self.by_seats.items():
            if seats < 1 or len(values) != seats:
                raise ValueError(f"a {seats}-seat table needs {seats} values, not {len(values)}")
            if any(v < 0 for v in values):
                raise ValueError(f"the {seats}-seat values must not be negative: {values}")
            if any(a < b for a, b in itertools.pairwise(values)):
                raise ValueError(f"the {seats}-seat values must not grow with place: {values}")

    def value(self, seats: int, place: int) -> int:
        """What ``place`` (1-based) earns at a table of ``seats``."""
        values = self.by_seats.get(seats)
        if values is None:
            values = descending_scale(100, seats) if self.fallback == "xp" else odd_points(seats)
        return values[min(max(place, 1), seats) - 1]


def default_online_xp() -> PlacementTable:
    return PlacementTable({n: descending_scale(100, n) for n in range(1, 9)}, "xp")


def default_league_points() -> PlacementTable:
    return PlacementTable({n: odd_points(n) for n in range(1, 9)}, "league")


@dataclass(frozen=True, slots=True)
class LevelCurve:
    """Level from XP: going from level ``L`` to ``L + 1`` costs ``first + growth * (L - 1)``."""

    first: int = 100
    growth: int = 100

    def __post_init__(self) -> None:
        if self.first < 1 or self.growth < 0:
            raise ValueError("the level curve needs first >= 1 and growth >= 0")

    def xp_for_level(self, level: int) -> int:
        """Total XP at which ``level`` starts (level 1 at 0)."""
        steps = level - 1
        return steps * self.first + self.growth * steps * (steps - 1) // 2

    def level(self, xp: int) -> int:
        """The highest level whose start is at or below ``xp`` (binary search: any XP size)."""
        low, high = 1, 2
        while self.xp_for_level(high) <= xp:
            low, high = high, high * 2
        while high - low > 1:
            middle = (low + high) // 2
            if self.xp_for_level(middle) <= xp:
                low = middle
            else:
                high = middle
        return low

    def xp_to_next_level(self, xp: int) -> int:
        return self.xp_for_level(self.level(xp) + 1) - xp


@dataclass(frozen=True, slots=True)
class RewardRules:
    """Every number the leaderboard's rules use, with the documented defaults."""

    online_xp: PlacementTable = field(default_factory=default_online_xp)
    friends_rate_percent: int = 50
    booster_percent: int = 200
    vip_percent: int = 150
    league_points: PlacementTable = field(default_factory=default_league_points)
    league_modes: frozenset[Mode] = frozenset({Mode.ONLINE, Mode.STAKE})
    levels: LevelCurve = field(default_factory=LevelCurve)

    def __post_init__(self) -> None:
        for name in ("friends_rate_percent", "booster_percent", "vip_percent"):
            if getattr(self, name) < 0:
                raise ValueError(f"{name} must not be negative")
        if Mode.VERSUS_COMPUTER in self.league_modes or Mode.VERSUS_FRIENDS in self.league_modes:
            raise ValueError("only online modes may count for the league (MODE-3)")


@dataclass(frozen=True, slots=True)
class PlayerEffect:
    """What one human seat earned at one table."""

    player_id: str
    place: int
    won: bool
    xp: int
    league_points_x2: int
    ranked: bool  # counts for the league and the all-time ranking


@dataclass(frozen=True, slots=True)
class TableEffects:
    """What a finished table changes, player by player; ``week`` is None outside the league."""

    table_id: str
    game: str
    week: IsoWeek | None
    players: tuple[PlayerEffect, ...]


def base_xp(table: FinishedTable, place: int, rules: RewardRules) -> int:
    """XP before boosters (MODE-1..3)."""
    seats = len(table.seats)
    if table.mode is Mode.VERSUS_COMPUTER:
        return 0
    if table.mode is Mode.VERSUS_FRIENDS:
        if place != 1:
            return 0
        return rules.online_xp.value(seats, 1) * rules.friends_rate_percent // 100
    return rules.online_xp.value(seats, place)


def boosted(xp: int, booster: bool, vip: bool, rules: RewardRules) -> int:
    """XP multiplied by the gold booster and the VIP pass (MODE-5), rounded down."""
    numerator = (
        xp * (rules.booster_percent if booster else 100) * (rules.vip_percent if vip else 100)
    )
    return numerator // 10_000


def league_points_x2(table: FinishedTable, place: int, rules: RewardRules) -> int:
    """Doubled league points: whole at a full table, half when bots filled it (MODE-3)."""
    if table.mode not in rules.league_modes:
        return 0
    points = rules.league_points.value(len(table.seats), place)
    return points if table.bot_filled else 2 * points


def effects_of(table: FinishedTable, rules: RewardRules, zone: ZoneInfo) -> TableEffects:
    """Everything ``table`` is worth to each human seat; bots earn nothing.

    A player holding two seats of one table (never expected) counts once, at their best place.
    """
    ranked = table.mode in rules.league_modes
    best: dict[str, tuple[int, bool, bool]] = {}
    for seat in table.seats:
        if not seat.human:
            continue
        known = best.get(seat.player_id)
        if known is None or seat.place < known[0]:
            best[seat.player_id] = (seat.place, seat.booster, seat.vip)
    players = tuple(
        PlayerEffect(
            player_id=player_id,
            place=place,
            won=place == 1,
            xp=boosted(base_xp(table, place, rules), booster, vip, rules),
            league_points_x2=league_points_x2(table, place, rules),
            ranked=ranked,
        )
        for player_id, (place, booster, vip) in sorted(best.items())
    )
    week = week_of(table.occurred_at, zone) if ranked else None
    return TableEffects(table.table_id, table.game, week, players)
