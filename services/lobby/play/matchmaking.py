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
model's 25 and 25/3). Each ticket has a window of its own that widens with its own wait:
``window_start`` of its sigmas at first, doubling every ``window_doubling``, never wider
than ``window_max`` sigmas until the ticket has waited ``rated_deadline``; from then on
it takes any rating. Tickets are seen oldest first; each one's best group is the
tightest run of ``players`` neighbours in rating order that holds it (the smallest spread
of ``mu``), and a table forms when that spread fits the ticket's window. So the
longest-waiting players sit first, with the players nearest them; a player far from
everyone (the ends of the rating range) waits, up to the deadline, for others like them
rather than widening a table for everyone. Tickets left over fall back to the rule above
once fewer than a table remain: bot fill or cancellation on the same clocks.
``MatchPolicy.rated_for`` turns the rated rule off per pool.

Why these defaults (``bench/bench_ratings.py``, 32 draws of arrivals at 1, 4 and 20
tickets a second into a 4-seat pool with a half hour's history): the windows (2.5 sigmas
doubling every 0.5 s, capped at 5) alone seat tables at 0.73x and 0.64x first come's
rating spread at 1 and 4 tickets a second, at 1.6x its wait; within them, foresight
(``tavolo.lobby.play.foresight``, given the pool's ``PoolOutlook``) decides when a table
forms: 0.56x, 0.49x and 0.33x at 1, 4 and 20 tickets a second, at 1.52x, 1.49x and 1.43x
the wait.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from tavolo.lobby.play.foresight import PoolOutlook, foresight_tables
from tavolo.lobby.play.policy import MatchPolicy, WaitingTicket, window_sigmas


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
    outlook: PoolOutlook | None = None,
) -> list[Decision]:
    """The tables to form and cancel for one pool; ``tickets`` in queue order. A rated
    pool with an ``outlook`` (its recent history) plans with foresight when the policy
    says so; without one its tables form as soon as the windows allow."""
    if players < 2:
        raise ValueError("a table has at least 2 seats")
    ordered = sorted(tickets, key=lambda t: (t.queued_at, t.ticket_id))
    deadline = (
        policy.rated_deadline if stake == 0 else min(policy.rated_deadline, policy.stake_timeout)
    )
    if rated:
        decisions: list[Decision]
        if policy.foresight and outlook is not None:

            def window(ticket: WaitingTicket) -> float:
                return ticket.sigma * window_sigmas(now - ticket.queued_at, deadline, policy)

            planned = foresight_tables(ordered, players, now, deadline, policy, outlook, window)
            decisions = [FormTable(table) for table in planned]
        else:
            decisions = list(rated_tables(ordered, players, now, deadline, policy))
        seated = {t.ticket_id for d in decisions for t in d.tickets}
        left = [t for t in ordered if t.ticket_id not in seated]
        if len(left) >= players:
            return decisions  # nobody in ``left`` has reached the deadline
        return decisions + _fallback(
            left, players=players, stake=stake, now=now, policy=policy, complete=complete
        )
    full = len(ordered) // players * players
    decisions = [FormTable(tuple(ordered[i : i + players])) for i in range(0, full, players)]
    return decisions + _fallback(
        ordered[full:], players=players, stake=stake, now=now, policy=policy, complete=complete
    )


def _fallback(
    rest: Sequence[WaitingTicket],
    *,
    players: int,
    stake: int,
    now: datetime,
    policy: MatchPolicy,
    complete: bool,
) -> list[Decision]:
    """What becomes of fewer tickets than a table (oldest first): bot fill for online
    pools, cancellation for stake pools, each on its own clock."""
    if not rest or not complete:
        return []
    if stake == 0:
        if now - rest[0].queued_at >= policy.bot_fill_after:
            return [FormTable(tuple(rest), bots=players - len(rest))]
        return []
    expired = tuple(t for t in rest if now - t.queued_at >= policy.stake_timeout)
    return [CancelTable(expired)] if expired else []


def rated_tables(
    ordered: Sequence[WaitingTicket],
    players: int,
    now: datetime,
    deadline: timedelta,
    policy: MatchPolicy,
) -> list[FormTable]:
    """Full tables of like ratings (RATE-2): each ticket, oldest first, sits with the
    tightest run of ``players`` free neighbours in rating order that holds it, when that
    run's spread fits the ticket's own window; others wait for a wider one.

    Seated tickets are skipped through "next free" links with path halving, so a round
    costs about O(n log n + n * players) rather than comparing every group.
    """
    count = len(ordered)
    by_rating = sorted(range(count), key=lambda i: (ordered[i].mu, i))
    slot = {index: position for position, index in enumerate(by_rating)}
    mus = [ordered[i].mu for i in by_rating]
    free = _FreeSlots(count)
    tables: list[FormTable] = []
    for index, ticket in enumerate(ordered):
        if free.left < players:
            break
        if not free.is_free(slot[index]):
            continue
        run = _tightest_run(free, mus, slot[index], players)
        width = ticket.sigma * window_sigmas(now - ticket.queued_at, deadline, policy)
        if run is None or mus[run[-1]] - mus[run[0]] > width:
            continue
        for position in run:
            free.take(position)
        tables.append(FormTable(tuple(ordered[i] for i in sorted(by_rating[p] for p in run))))
    return tables


def _tightest_run(
    free: _FreeSlots, mus: Sequence[float], centre: int, size: int
) -> list[int] | None:
    """The ``size`` consecutive free slots holding ``centre`` whose ratings spread least
    (ties to the lower ratings), or None when fewer are free."""
    below: list[int] = []
    position = centre
    while len(below) < size - 1 and (position := free.before(position)) >= 0:
        below.append(position)
    above: list[int] = []
    position = centre
    while len(above) < size - 1 and (position := free.after(position)) < len(mus):
        above.append(position)
    line = [*reversed(below), centre, *above]
    if len(line) < size:
        return None
    start = min(range(len(line) - size + 1), key=lambda s: mus[line[s + size - 1]] - mus[line[s]])
    return line[start : start + size]


class _FreeSlots:
    """Which rating-order slots are still free, with the nearest free slot on either side
    found through links that skip seated slots (path halving keeps the walks short)."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.left = count
        self._taken = [False] * count
        self._prev = list(range(-1, count - 1))
        self._next = list(range(1, count + 1))

    def is_free(self, position: int) -> bool:
        return not self._taken[position]

    def take(self, position: int) -> None:
        self._taken[position] = True
        self.left -= 1

    def before(self, position: int) -> int:
        """The nearest free slot below ``position``, or -1."""
        links = self._prev
        at = links[position]
        while at >= 0 and self._taken[at]:
            links[position] = links[at]
            position, at = at, links[at]
        return at

    def after(self, position: int) -> int:
        """The nearest free slot above ``position``, or ``count``."""
        links = self._next
        at = links[position]
        while at < self.count and self._taken[at]:
            links[position] = links[at]
            position, at = at, links[at]
        return at


def next_deadline(oldest_queued_at: datetime, *, stake: int, policy: MatchPolicy) -> datetime:
    """When the oldest ticket of a pool that is not full needs the matchmaker again."""
    wait = policy.bot_fill_after if stake == 0 else policy.stake_timeout
    return oldest_queued_at + wait
