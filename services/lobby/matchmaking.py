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
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from tavolo.lobby.tables import BotLevel


@dataclass(frozen=True, slots=True)
class WaitingTicket:
    """A ticket in a queue, as the matchmaker sees it."""

    ticket_id: str
    player_id: str
    nickname: str
    queued_at: datetime
    hold_id: str | None = None
    traceparent: str | None = None
    """The JoinQueue call's trace context, for the span forming the ticket's table."""


@dataclass(frozen=True, slots=True)
class MatchPolicy:
    """How long tickets wait for real players."""

    bot_fill_after: timedelta = timedelta(seconds=30)
    stake_timeout: timedelta = timedelta(seconds=120)
    bot_level: BotLevel = BotLevel.MEDIUM


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
) -> list[Decision]:
    """The tables to form and cancel for one pool; ``tickets`` in queue order."""
    if players < 2:
        raise ValueError("a table has at least 2 seats")
    ordered = sorted(tickets, key=lambda t: (t.queued_at, t.ticket_id))
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


def next_deadline(oldest_queued_at: datetime, *, stake: int, policy: MatchPolicy) -> datetime:
    """When the oldest ticket of a pool that is not full needs the matchmaker again."""
    wait = policy.bot_fill_after if stake == 0 else policy.stake_timeout
    return oldest_queued_at + wait
