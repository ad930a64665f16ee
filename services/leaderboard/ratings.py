"""Skill ratings per player and game (RATE-1): OpenSkill's Plackett-Luce model, pure.

Plackett-Luce rates a table of any size in one step, with teams and ties, which the
league's games need (two to eight seats, partnerships in Scopone, Briscola and Tresette
at four, Burraco, Spades). What a finished table means to it:

- **Ranks** are the places of the outcome; seats sharing a place are tied.
- **Teams** are the partnerships of the game (``Sides``): partners always share a place,
  and form one team of the model whose rank is that place. In a game without partners
  every seat is a team of one.
- **Which tables rate** (**[decision]**): online and stake tables (MODE-3, MODE-4), the
  tables the matchmaker forms between strangers. Versus-computer tables are practice,
  friends' tables are arranged between people who know each other (and would make
  ratings easy to farm), and tournament tables already have their own record (PCG-7):
  none of them changes a rating. An aborted table never arrives here (it has no
  ``TableFinished``), so it rates nobody. A one-seat game (Solitario) has nobody to be
  ranked against and keeps no rating.
- **Bots** hold a fixed rating per game and level (``BotRatings``): they take part in the
  update so a bot-filled table still rates its people, and their own rating never moves.
  The levels are calibrated from the bot league's seat-rotated deals
  (``tavolo.leaderboard.bot_levels``, written by ``tools/calibrate_bot_ratings.py``): the
  random player sits at a fixed anchor in every game and each step up the ladder is the
  gap at which this model predicts back the share the stronger level took. A table is
  rated with the calibration in force when it finished (each one is kept with the time
  it came into force), so a rebuild gives the numbers live rating gave even after the
  bots were recalibrated. Where the
  anchor sits among people is provisional until rated tables between people and bots
  exist to place it.
  A player whose seat a bot finished (they left) is reported as a bot seat and is rated
  neither way, as the league does.
- **Shown rating** is ``mu - 3 * sigma`` clamped at 0: a conservative figure that rises
  as the model grows sure of a player. It is ``provisional`` until ``provisional_tables``
  (10) rated tables.

Tables are applied one after another in the order of the leaderboard's history, and each
update depends on the ratings before it, so the same history gives the same numbers to
the last bit (a rebuild replays it in that order).
"""

from __future__ import annotations

import datetime as dt
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from types import MappingProxyType

from openskill.models import PlackettLuce

from tavolo.leaderboard.bot_levels import CALIBRATIONS
from tavolo.leaderboard.model import FinishedTable, Mode, SeatResult

DEFAULT_MU = 25.0
DEFAULT_SIGMA = DEFAULT_MU / 3
PROVISIONAL_TABLES = 10
RATED_MODES = frozenset({Mode.ONLINE, Mode.STAKE})

# The seats of each side, for a game at a number of seats and options; every seat alone
# where the game has no partners. The leaderboard asks the game's rules.
Sides = Callable[[FinishedTable], Sequence[frozenset[int]]]


def seats_alone(table: FinishedTable) -> list[frozenset[int]]:
    return [frozenset((s.seat,)) for s in table.seats]


@dataclass(frozen=True, slots=True)
class Rating:
    """A player's skill in one game: the model's estimate, its uncertainty, and how many
    rated tables it rests on."""

    mu: float = DEFAULT_MU
    sigma: float = DEFAULT_SIGMA
    tables: int = 0

    @property
    def shown(self) -> float:
        return shown_rating(self.mu, self.sigma)

    @property
    def provisional(self) -> bool:
        return self.tables < PROVISIONAL_TABLES


def shown_rating(mu: float, sigma: float) -> float:
    """The one number a player sees: ``mu - 3 sigma``, never below 0."""
    return max(0.0, mu - 3.0 * sigma)


_MODEL = PlackettLuce(mu=DEFAULT_MU, sigma=DEFAULT_SIGMA)

BOT_SIGMA = 2.0
MOST_SURE = 0.98  # a share of 100% (every deal won) is taken as this
UNCALIBRATED = MappingProxyType({"easy": 20.0, "medium": DEFAULT_MU, "hard": 30.0})


def gap_for_share(share: float, partners: int, sigma: float = BOT_SIGMA) -> float:
    """How much higher a bot's mu must be than another's for the model to give it
    ``share`` of the wins, ``partners`` of a level playing together as one team."""
    share = min(max(share, 1 - MOST_SURE), MOST_SURE)
    low, high = 0.0, 100.0
    base = _MODEL.create_rating([DEFAULT_MU, sigma])
    for _ in range(60):  # bisection: predict_win grows with the gap
        gap = (low + high) / 2
        strong = _MODEL.create_rating([DEFAULT_MU + gap, sigma])
        won = _MODEL.predict_win([[strong] * partners, [base] * partners])[0]
        low, high = (gap, high) if won < share else (low, gap)
    return (low + high) / 2


def calibrated_levels(game: str, at: dt.datetime | None = None) -> Mapping[str, float]:
    """Bot mu by level for ``game`` as calibrated by the league
    (``tavolo.leaderboard.bot_levels``): the calibration in force at ``at`` (a table's
    finish), the newest when None; 20, 25, 30 for a game not yet calibrated."""
    in_force: Mapping[str, float] | None = None
    for entry in CALIBRATIONS.get(game, ()):
        start = entry["in_force_from"]
        if at is not None and start is not None and dt.datetime.fromisoformat(start) > at:
            break
        in_force = entry["levels"]
    return MappingProxyType(dict(in_force)) if in_force else UNCALIBRATED


@dataclass(frozen=True, slots=True)
class BotRatings:
    """The fixed rating of a bot, by game and level (``calibrated_levels``), with a small
    sigma because a bot's play does not drift."""

    by_game: Mapping[str, Mapping[str, float]] = field(default_factory=dict)
    sigma: float = BOT_SIGMA

    def of(self, game: str, level: str, at: dt.datetime | None = None) -> Rating:
        """Levels a game is not given here take ``calibrated_levels`` in force at ``at``."""
        levels = self.by_game.get(game) or calibrated_levels(game, at)
        return Rating(levels.get(level, DEFAULT_MU), self.sigma, 0)


@dataclass(frozen=True, slots=True)
class RatingChange:
    """One player's rating before and after one table."""

    player_id: str
    before: Rating
    after: Rating


def rated_players(table: FinishedTable) -> list[str]:
    """The people a table rates, sorted; empty when it rates nobody."""
    if table.mode not in RATED_MODES or len(table.seats) < 2:
        return []
    return sorted({s.player_id for s in table.seats if s.human})


def rate_table(
    table: FinishedTable,
    current: Mapping[str, Rating],
    sides: Sides = seats_alone,
    bots: BotRatings | None = None,
) -> list[RatingChange]:
    """Each rated player's change at ``table``; ``current`` holds the ratings before it
    (a player missing from it is new). Empty when the table rates nobody."""
    players = rated_players(table)
    if not players:
        return []
    bot_ratings = bots or BotRatings()
    by_seat = {s.seat: s for s in table.seats}
    teams = _teams(table, sides)
    if len(teams) < 2:
        return []
    counted: set[str] = set()
    model_teams: list[list[object]] = []
    members: list[list[str | None]] = []
    ranks: list[float] = []
    for team in teams:
        ratings: list[object] = []
        names: list[str | None] = []
        for seat_number in sorted(team):
            seat = by_seat[seat_number]
            rating = _seat_rating(
                seat, current, bot_ratings, table.game, table.occurred_at, counted
            )
            ratings.append(_MODEL.create_rating([rating.mu, rating.sigma]))
            names.append(seat.player_id if seat.human and seat.player_id in counted else None)
        model_teams.append(ratings)
        members.append(names)
        ranks.append(float(min(by_seat[s].place for s in team)))
    updated = _MODEL.rate(model_teams, ranks=ranks)  # type: ignore[arg-type]
    changes: dict[str, RatingChange] = {}
    for names, new_team in zip(members, updated, strict=True):
        for name, new in zip(names, new_team, strict=True):
            if name is None or name in changes:
                continue
            before = current.get(name, Rating())
            after = Rating(float(new.mu), float(new.sigma), before.tables + 1)
            changes[name] = RatingChange(name, before, after)
    return [changes[p] for p in sorted(changes)]


def _seat_rating(
    seat: SeatResult,
    current: Mapping[str, Rating],
    bots: BotRatings,
    game: str,
    at: dt.datetime,
    counted: set[str],
) -> Rating:
    """A person's rating (counted once, should they hold two seats), else a bot's."""
    if seat.human and seat.player_id not in counted:
        counted.add(seat.player_id)
        return current.get(seat.player_id, Rating())
    return bots.of(game, seat.bot_level or "medium", at)


def _teams(table: FinishedTable, sides: Sides) -> list[frozenset[int]]:
    """The table's sides, each seat in exactly one; seats the sides miss stand alone."""
    seats = {s.seat for s in table.seats}
    teams: list[frozenset[int]] = []
    placed: set[int] = set()
    for side in sides(table):
        team = frozenset(side & seats) - placed
        if team:
            teams.append(team)
            placed |= team
    teams.extend(frozenset((s,)) for s in sorted(seats - placed))
    return teams
