"""The events the wallet reacts to, as plain data (no protobuf, no SQL).

``tavolo.wallet.consumers`` turns each NATS message into one of these; the settlement use
cases and the pure payout rules work from them alone.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, field
from enum import StrEnum


class Mode(StrEnum):
    """How a table was formed (MODE-1..4): it decides what the wallet pays."""

    UNSPECIFIED = "unspecified"
    VERSUS_COMPUTER = "versus_computer"
    VERSUS_FRIENDS = "versus_friends"
    ONLINE = "online"
    STAKE = "stake"
    TOURNAMENT = "tournament"  # a tournament's match: no reward, the prizes are paid once


@dataclass(frozen=True, slots=True)
class SeatResult:
    """One seat of a table; ``place`` is 0 until the table finished (1 = first)."""

    seat: int
    player_id: str
    bot: bool = False
    booster: bool = False
    vip: bool = False
    place: int = 0

    @property
    def human(self) -> bool:
        return bool(self.player_id) and not self.bot


@dataclass(frozen=True, slots=True)
class MatchFormed:
    """The lobby formed a table; for a stake table, ``hold_ids`` maps seat -> hold."""

    event_id: str
    table_id: str
    mode: Mode
    stake: int
    seats: tuple[SeatResult, ...]
    hold_ids: Mapping[int, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class MatchCancelled:
    """The lobby gave up on a match; ``hold_ids`` maps player id -> hold to void."""

    event_id: str
    table_id: str
    reason: str
    hold_ids: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True, slots=True)
class TableFinished:
    """A table ended with places (ties share a place)."""

    event_id: str
    table_id: str
    mode: Mode
    stake: int
    seats: tuple[SeatResult, ...]


@dataclass(frozen=True, slots=True)
class TableAborted:
    """A table ended without a result: every stake goes back."""

    event_id: str
    table_id: str
    mode: Mode
    stake: int
    reason: str


@dataclass(frozen=True, slots=True)
class FreezeChanged:
    """A sanction froze (or stopped freezing) a player's balance (PCG-4).

    ``sanction`` names the freeze (the event's source stream, one per sanction), so
    lifting one sanction leaves another's freeze in force.
    """

    event_id: str
    sanction: str
    player_id: str
    frozen: bool
    reason: str
    by: str


@dataclass(frozen=True, slots=True)
class PlayerRegistered:
    """A new account exists; ``person_id`` is its owner (the player id of their first account).

    An empty ``person_id`` comes from a lobby that did not yet say whose account it is; such
    an account is taken for a first account, as every account was before linking existed.
    """

    event_id: str
    player_id: str
    person_id: str

    @property
    def first_account(self) -> bool:
        return self.person_id in ("", self.player_id)


@dataclass(frozen=True, slots=True)
class Prize:
    """One entrant's result in a finished tournament (PCG-7)."""

    seat: int
    player_id: str
    place: int
    coins: int


@dataclass(frozen=True, slots=True)
class TournamentFinished:
    """A tournament's final is over: its prizes are paid from its escrow, once. ``prizes``
    give each entrant's place (and, from a lobby that computed them, coins); ``split``
    the percentages by place the wallet computes the prizes with."""

    event_id: str
    escrow_id: str  # the "table" whose escrow holds the fees
    pot: int
    prizes: tuple[Prize, ...]
    tournament_id: str = ""
    game: str = ""
    split: tuple[int, ...] = ()
