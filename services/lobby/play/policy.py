"""What the matchmaker is told (RATE-2, MODE-3, MODE-4): the tickets it sees, how long
they wait for real players and for players of like rating, and each ticket's window.

Its own module so that the rules that decide (``matchmaking``, ``foresight``) share it
without importing each other.
"""

from __future__ import annotations

import math
from dataclasses import dataclass, field
from datetime import datetime, timedelta

from tavolo.lobby.play.tables import BotLevel

NEW_MU = 25.0  # the rating model's start (tavolo.leaderboard.ratings)
NEW_SIGMA = NEW_MU / 3


@dataclass(frozen=True, slots=True)
class WaitingTicket:
    """A ticket in a queue, as the matchmaker sees it."""

    ticket_id: str
    player_id: str
    nickname: str
    queued_at: datetime
    hold_id: str | None = None
    mu: float = NEW_MU
    sigma: float = NEW_SIGMA
    traceparent: str | None = None
    """The JoinQueue call's trace context, for the span forming the ticket's table."""


@dataclass(frozen=True, slots=True)
class MatchPolicy:
    """How long tickets wait for real players, and for players of like rating."""

    bot_fill_after: timedelta = timedelta(seconds=30)
    stake_timeout: timedelta = timedelta(seconds=120)
    bot_level: BotLevel = BotLevel.MEDIUM
    rated: bool = True
    # A ticket's rating window, in its sigmas: ``window_start`` wide, doubling every
    # ``window_doubling`` of its own wait, at most ``window_max`` before the deadline.
    window_start: float = 2.5
    window_doubling: timedelta = timedelta(seconds=0.5)
    window_max: float = 5.0
    # Pools that keep first come, first seated: "game", "game|players" or
    # "game|players|stake" (a pool key starts with these fields).
    unrated_pools: frozenset[str] = field(default_factory=frozenset)
    # None: the rated rule gives way at ``bot_fill_after``.
    rated_deadline_after: timedelta | None = None
    # Foresight (tavolo.lobby.play.foresight): hold tickets while like players are likely
    # to come, within ``wait_factor`` times the wait first come would give 95% of them.
    foresight: bool = True
    wait_factor: float = 1.5
    # The share of a pool's recent tickets that may wait past that target for their like
    # (just under the 5% its 95th percentile leaves), and how far back "recent" goes.
    late_share: float = 0.049
    outlook_window: timedelta = timedelta(minutes=5)
    # How far back the pool's rate is read while it holds steady (foresight.steady_rate).
    rate_window: timedelta = timedelta(minutes=30)
    # Prices of waiting on, in spread: a waiting ticket's per like arrival it expects
    # (before the target, or the deadline once past it), and a due ticket's the
    # allowance lets wait, per sigma of its own.
    hold_price: float = 0.45
    due_price: float = 3.0

    @property
    def rated_deadline(self) -> timedelta:
        return (
            self.bot_fill_after if self.rated_deadline_after is None else self.rated_deadline_after
        )

    def rated_for(self, pool: str) -> bool:
        """Whether ``pool`` (``game|players|stake|options``) seats by rating."""
        if not self.rated:
            return False
        fields = pool.split("|")
        return not any(fields[: len(p.split("|"))] == p.split("|") for p in self.unrated_pools)


def window_sigmas(waited: timedelta, deadline: timedelta, policy: MatchPolicy) -> float:
    """How many of its sigmas wide a ticket's window is after it waited ``waited``."""
    if waited >= deadline:
        return math.inf
    doublings = min(max(waited, timedelta(0)) / policy.window_doubling, 60.0)
    return float(min(policy.window_max, policy.window_start * 2.0**doublings))
