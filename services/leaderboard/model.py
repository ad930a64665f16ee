"""The facts the leaderboard works from, as plain data (no protobuf, no SQL).

A finished table arrives as a ``TableFinished`` event; ``tavolo.leaderboard.wire`` turns it
into a :class:`FinishedTable`, and the pure rules in ``tavolo.leaderboard.rules`` decide
what it is worth to each player.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum


class Mode(StrEnum):
    """How a table was formed (MODE-1..4); it decides XP and whether the league counts it."""

    VERSUS_COMPUTER = "versus_computer"
    VERSUS_FRIENDS = "versus_friends"
    ONLINE = "online"
    STAKE = "stake"
    TOURNAMENT = "tournament"


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat at the end of a table. ``player_id`` is empty for a bot seat."""

    seat: int
    player_id: str
    bot: bool
    booster: bool
    vip: bool
    place: int
    bot_level: str = ""  # easy, medium or hard for a bot seat; "" when not reported

    @property
    def human(self) -> bool:
        return bool(self.player_id) and not self.bot


@dataclass(frozen=True, slots=True)
class FinishedTable:
    """A table that ended with a result, as the engine reported it."""

    event_id: str
    table_id: str
    game: str
    mode: Mode
    bot_filled: bool
    occurred_at: datetime
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True)
class TournamentResult:
    """One entrant's place and prize in a finished knock-out tournament (PCG-7)."""

    tournament_id: str
    game: str
    player_id: str
    place: int
    prize: int
