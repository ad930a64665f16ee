"""Matchmaking decisions (MODE-3, MODE-4): which waiting tickets make a table, and when.

Pure: given one pool's waiting tickets in queue order and the time, say which tables to
form and which stake tables to cancel. The matchmaker loop locks the tickets, asks here,
and writes the answer in the same transaction.

- Full tables first, in queue order: the longest-waiting players sit first.
- Online (no stake): when the oldest ticket left over has waited ``bot_fill_after``,
  the left-over tickets get a table completed with bots, marked bot-filled (the league
  counts it half, MODE-3).
- Stake tables take only real people (MODE-4): a ticket that has waited
  ``stake_timeout`` without a full table is cancelled, together with every other ticket
  that has waited as long; those form the cancelled table and their stakes go back.
  Fresher tickets keep waiting on their own clock.
- When the tickets given are only the first part of a longer queue (``complete`` is
  False), only full tables are formed: the left-over is not the real remainder.

Rated pools (RATE-2) seat players of like strength first. Each ticket carries the rating
its player had when joining (``mu``, ``sigma``; a player without one starts at the
model's 25 and 25/3). Until the pool's oldest ticket has waited ``rated_deadline``, a
table forms only from tickets whose ``mu`` lies within a window around one ticket's (each
ticket in queue order is tried as the centre): the centre's ``sigma`` at first, doubling
every ``window_doubling`` of the oldest ticket's wait; the centre sits with the tickets
closest to it. From the deadline on the pool falls back to the rule above, first come
first seated, bot fill included. ``MatchPolicy.rated_for`` turns the rated rule off per
pool.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
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
    window_doubling: timedelta = timedelta(seconds=10)
    # Pools that keep first come, first seated: "game", "game|players" or
    # "game|players|stake" (a pool key starts with these fields).
    unrated_pools: frozenset[str] = field(default_factory=frozenset)
    # None: the rated rule gives way at ``bot_fill_after``.
    rated_deadline_after: timedelta | None = None

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


@dataclass(frozen=True, slots=True)
class FormTable:
    """Seat these tickets, in order, then ``bots`` bots."""

    tickets: tuple[WaitingTicket, ...]
    bots: int = 0

    @property
    def bot_filled(self) -> bool:
        return self.bots > 0


@dataclass(frozen=True, slots=True)
class CancelTable:
    """A stake table that did not fill in time: these tickets end, their stakes go back."""

    tickets: tuple[WaitingTicket, ...]


Decision = FormTable | CancelTable


def plan_pool(
    tickets: Sequence[WaitingTicket],
    *,
    players: int,
    stake: int,
    now: datetime,
    policy: MatchPolicy,
    complete: bool = True,
    rated: bool = False,
) -> list[Decision]:
    """The tables to form and cancel for one pool; ``tickets`` in queue order."""
    if players < 2:
        raise ValueError("a table has at least 2 seats")
    ordered = sorted(tickets, key=lambda t: (t.queued_at, t.ticket_id))
    deadline = (
        policy.rated_deadline if stake == 0 else min(policy.rated_deadline, policy.stake_timeout)
    )
    if rated and ordered and now - ordered[0].queued_at < deadline:
        return list(rated_tables(ordered, players, now - ordered[0].queued_at, policy))
    full = len(ordered) // players * players
    decisions: list[Decision] = [
        FormTable(tuple(ordered[i : i + players])) for i in range(0, full, players)
    ]
    rest = ordered[full:]
    if not rest or not complete:
        return decisions
    if stake == 0:
        if now - rest[0].queued_at >= policy.bot_fill_after:
            decisions.append(FormTable(tuple(rest), bots=players - len(rest)))
        return decisions
    expired = tuple(t for t in rest if now - t.queued_at >= policy.stake_timeout)
    if expired:
        decisions.append(CancelTable(expired))
    return decisions


def window_factor(waited: timedelta, policy: MatchPolicy) -> float:
    """How many sigmas wide the window is after the oldest ticket waited ``waited``."""
    doublings = max(waited, timedelta(0)) / policy.window_doubling
    return float(2.0 ** min(doublings, 60.0))


def rated_tables(
    ordered: Sequence[WaitingTicket], players: int, waited: timedelta, policy: MatchPolicy
) -> list[FormTable]:
    """Full tables of tickets within the window of one of them (RATE-2), before the
    deadline; left-over tickets wait for a wider window.

    Each ticket in queue order is a centre in turn; its nearest free neighbours by rating
    are found by walking outwards from it in rating order, so a round costs
    O(n log n + n * players) rather than comparing every pair.
    """
    factor = window_factor(waited, policy)
    by_rating = sorted(range(len(ordered)), key=lambda i: (ordered[i].mu, i))
    slot = {index: position for position, index in enumerate(by_rating)}
    taken = [False] * len(ordered)
    left = len(ordered)
    tables: list[FormTable] = []
    for centre_index, centre in enumerate(ordered):
        if left < players:
            break
        if taken[centre_index]:
            continue
        width = centre.sigma * factor
        chosen = _nearest(ordered, by_rating, taken, slot[centre_index], width, players - 1)
        if chosen is None:
            continue
        seated = sorted([centre_index, *chosen])
        for index in seated:
            taken[index] = True
        left -= players
        tables.append(FormTable(tuple(ordered[i] for i in seated)))
    return tables


def _nearest(
    ordered: Sequence[WaitingTicket],
    by_rating: Sequence[int],
    taken: Sequence[bool],
    centre_slot: int,
    width: float,
    wanted: int,
) -> list[int] | None:
    """The ``wanted`` free tickets nearest the centre's rating within ``width`` (ties to
    the longer wait), or None when the window holds fewer."""
    mu = ordered[by_rating[centre_slot]].mu
    below, above = centre_slot - 1, centre_slot + 1
    found: list[int] = []
    while len(found) < wanted:
        while below >= 0 and taken[by_rating[below]]:
            below -= 1
        while above < len(by_rating) and taken[by_rating[above]]:
            above += 1
        low = by_rating[below] if below >= 0 else None
        high = by_rating[above] if above < len(by_rating) else None
        low_gap = mu - ordered[low].mu if low is not None else math.inf
        high_gap = ordered[high].mu - mu if high is not None else math.inf
        if min(low_gap, high_gap) > width:
            return None
        if low is not None and (
            low_gap < high_gap or (low_gap == high_gap and high is not None and low < high)
        ):
            found.append(low)
            below -= 1
        else:
            assert high is not None
            found.append(high)
            above += 1
    return found


def next_deadline(oldest_queued_at: datetime, *, stake: int, policy: MatchPolicy) -> datetime:
    """When the oldest ticket of a pool that is not full needs the matchmaker again."""
    wait = policy.bot_fill_after if stake == 0 else policy.stake_timeout
    return oldest_queued_at + wait
