"""Rated tables with foresight (RATE-2): hold a ticket while a like player is likely to
come, seat it before it has waited longer than first come would have made it wait.

Pure. The matchmaker reads a pool's history (its tickets of the last minutes, seated or
waiting) and gives it here as a ``PoolOutlook``: how fast tickets come, which ratings
they bring, and how many waited past the pool's wait target. From these:

- **the wait target**: ``MatchPolicy.wait_factor`` times the wait that first come would
  give 95% of this pool's tickets at its rate (``first_come_wait``). The rate is read
  over the pool's longer history (``MatchPolicy.rate_window``) unless its recent tickets
  show it has changed (``steady_rate``): a target that wanders with the noise of a few
  minutes' count seats some tickets past the goal and others early for nothing;
- **a ticket's price of waiting on**: its expected share of the spread of a table it
  would find later, the fewer like players come (the rating density of recent arrivals
  at its rating, times the pool's rate, times its time left plus the like players
  already waiting) the dearer; a ticket due (its next round would pass the target) cannot
  wait, unless the pool's late allowance (a share of its recent tickets, just under the
  5% the wait's 95th percentile leaves) lets it; a ticket already past the target has
  until the deadline as its time left, so it waits for a close table where like players
  keep coming; past the deadline it must sit.
- **the plan**: the tables (each a run of neighbours in rating order that may pass over
  up to ``SKIP`` tickets left waiting) and tickets left waiting with the least total
  spread plus prices of waiting (a dynamic programme over the rating order, linear in
  the pool: ``least_cost_plan``); its tables form now, and each still fits the window of
  one of its tickets, as without foresight (a ticket that must sit takes any table). When
  the pool is far past its allowance (a backlog, a burst) its late tickets must sit too.

So tables form when waiting would cost more than it is likely to gain: at once for a
tight group, at the target for the rest, later only for the few the allowance lets wait
for their like. ``bench/bench_ratings.py`` measures it against first come and against a
matcher that knows every arrival in advance.
"""

from __future__ import annotations

import bisect
import functools
import itertools
import math
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from datetime import datetime, timedelta

from tavolo.lobby.play.policy import MatchPolicy, WaitingTicket

SKIP = 3
"""A table may pass over up to this many tickets between its members in rating order
(they wait on): a ticket waiting for its like is not swept into a table it sits in the
middle of."""

MUST_SIT = 1e9
"""The price of leaving a ticket that cannot wait: above any spread, so the plan seats
every such ticket it can before it weighs anything else."""

DENSITY_NEIGHBOURS = 32
"""The rating density at a ticket is read from the distance to its 32nd nearest recent
rating: narrow where ratings crowd, wide at the ends of the range, where a fixed width
would count players far away as like ones (a box of fixed width seated wider tables in
``bench_ratings``)."""

NEAREST_GAP = 0.25
"""The least distance in rating the density is read over: identical ratings would
otherwise make it infinite."""

WAITING_SHARE = 0.5
"""The like players already waiting with a ticket, as a share of a target's worth of the
pool's arrivals: about what a pool holds, its tickets waiting about half the target on
average (a whole target's worth held tickets longer for wider tables in
``bench_ratings``)."""

CHANGE_SIGMAS = 3.0
"""The recent count of arrivals departs from what the longer history's rate predicts by
more than this many standard deviations (Poisson) before the rate follows it."""


@dataclass(frozen=True, slots=True)
class PoolOutlook:
    """What a pool's recent history says of the tickets to come."""

    rate: float
    """Tickets a second into the pool (``steady_rate``)."""
    ratings: tuple[float, ...]
    """The ratings (mu) of the recent tickets, sorted: those to come are like them."""
    target: timedelta
    """A ticket should be seated within this (the wait target)."""
    late_allowed: int
    """How many more tickets may pass the target now and stay within the allowance."""
    overdrawn: bool
    """More than twice the allowance of the recent tickets are past the target (a
    backlog, a burst, not the allowance at work): then those past it sit as soon as they
    can, with whoever is nearest."""
    round_seconds: float
    """Seconds between matchmaking rounds: a ticket waits in steps of this."""

    @classmethod
    def of(
        cls,
        *,
        rate: float,
        target: timedelta,
        arrivals: int,
        late: int,
        ratings: Sequence[float],
        policy: MatchPolicy,
        round_seconds: float,
    ) -> PoolOutlook:
        """The outlook of a pool into which ``arrivals`` tickets came lately (``rate`` a
        second, see ``steady_rate``), ``late`` of them waiting or having waited past
        ``target`` (``wait_target``); ``ratings`` are the mu of the latest of them."""
        ordered = tuple(sorted(ratings))
        allowance = math.floor(policy.late_share * arrivals)
        return cls(
            rate=rate,
            ratings=ordered or (0.0,),
            target=target,
            late_allowed=max(0, allowance - late),
            overdrawn=late > 2 * allowance,
            round_seconds=round_seconds,
        )

    def density(self, mu: float) -> float:
        """Arrivals per unit of rating at ``mu``, as a share of all arrivals: the
        ``DENSITY_NEIGHBOURS`` recent ratings nearest it, over the width they span."""
        ratings = self.ratings
        count = len(ratings)
        near = min(DENSITY_NEIGHBOURS, count)
        at = bisect.bisect_left(ratings, mu)
        # The nearest ``near`` form a run in rating order: the narrowest run about ``mu``.
        reach = min(
            max(mu - ratings[first], ratings[first + near - 1] - mu)
            for first in range(max(0, at - near), min(at, count - near) + 1)
        )
        return near / (2 * max(reach, NEAREST_GAP) * count)


HISTORY_TABLES = 2
"""A pool has an outlook once this many tables' worth of tickets came within the
outlook window: fewer say nothing of its rate."""


@dataclass(frozen=True, slots=True)
class Arrivals:
    """The tickets that came into a pool over a stretch of time (seated, waiting or
    gone): how many, the first and the last."""

    count: int
    earliest: datetime
    latest: datetime


def pool_pace(
    recent: Arrivals,
    history: Arrivals,
    *,
    players: int,
    policy: MatchPolicy,
    round_seconds: float,
) -> tuple[float, timedelta] | None:
    """The rate (``steady_rate``) and wait target (``wait_target``) of a pool whose
    ``recent`` tickets (``policy.outlook_window``) and ``history`` (``policy.rate_window``)
    are given; None while fewer than ``HISTORY_TABLES`` tables' worth came lately (then
    tables form as the windows allow)."""
    if recent.count < HISTORY_TABLES * players:
        return None
    rate = steady_rate(recent, history, round_seconds)
    return rate, wait_target(rate, players, policy, round_seconds)


def steady_rate(recent: Arrivals, history: Arrivals, round_seconds: float) -> float:
    """The pool's rate over its ``history``, unless its ``recent`` tickets came at one
    that history cannot explain (by more than ``CHANGE_SIGMAS``), as when an evening's
    players arrive or leave: then the recent rate. A few minutes' count alone is off by
    a few percent, and the wait target with it (measured: 2% at 4 a second)."""
    lately = pool_rate(recent, round_seconds)
    if history.count <= recent.count:
        return lately
    steady = pool_rate(history, round_seconds)
    span = max((recent.latest - recent.earliest).total_seconds(), round_seconds)
    expected = steady * span
    if abs(recent.count - 1 - expected) > CHANGE_SIGMAS * math.sqrt(max(expected, 1.0)):
        return lately
    return steady


def pool_rate(arrivals: Arrivals, round_seconds: float) -> float:
    """Tickets a second over ``arrivals`` (to three digits: plenty, and the wait target
    is then cached). Measured between arrivals, so a pool gone quiet does not push its
    own target back and hold its tickets for players who stopped coming."""
    span = (arrivals.latest - arrivals.earliest).total_seconds()
    return float(f"{(arrivals.count - 1) / max(span, round_seconds):.3g}")


def wait_target(rate: float, players: int, policy: MatchPolicy, round_seconds: float) -> timedelta:
    """How long a ticket of the pool should wait at most: ``policy.wait_factor`` times
    the wait first come gives 95% of its tickets."""
    return timedelta(seconds=policy.wait_factor * first_come_wait(rate, players, round_seconds))


@functools.lru_cache(maxsize=1024)
def first_come_wait(rate: float, players: int, round_seconds: float, share: float = 0.95) -> float:
    """The wait (seconds) first come gives ``share`` of a pool's tickets at ``rate``.

    First come seats tickets in arrival order, ``players`` at a time, at the first round
    after the last of them came: the k-th of a table waits for ``players - k`` more
    arrivals (an Erlang wait) and then for the round (uniform over ``round_seconds``).
    """

    def seated_within(x: float) -> float:
        steps = 16
        total = 0.0
        for ahead in range(players):
            for step in range(steps):
                left = x - (step + 0.5) / steps * round_seconds
                total += _erlang_cdf(ahead, rate, left)
        return total / (players * steps)

    low, high = 0.0, (10.0 * players) / max(rate, 1e-9) + round_seconds
    for _ in range(40):
        middle = (low + high) / 2
        if seated_within(middle) < share:
            low = middle
        else:
            high = middle
    return high


def _erlang_cdf(arrivals: int, rate: float, x: float) -> float:
    """The chance that ``arrivals`` more tickets come within ``x`` seconds."""
    if x < 0:
        return 0.0
    if arrivals == 0:
        return 1.0
    expected = rate * x
    term, below = 1.0, 1.0
    for k in range(1, arrivals):
        term *= expected / k
        below += term
    return 1.0 - math.exp(-expected) * below


def foresight_tables(
    ordered: Sequence[WaitingTicket],
    players: int,
    now: datetime,
    deadline: timedelta,
    policy: MatchPolicy,
    outlook: PoolOutlook,
    window: Callable[[WaitingTicket], float],
) -> list[tuple[WaitingTicket, ...]]:
    """The tables to form now (tickets in queue order within each), from ``ordered`` (the
    pool in queue order): the least-cost plan described above. ``window`` is a ticket's
    widest spread of ``mu`` now (its window, in rating units)."""
    count = len(ordered)
    if count < players:
        return []
    by_rating = sorted(range(count), key=lambda i: (ordered[i].mu, i))
    tickets = [ordered[i] for i in by_rating]
    waited = [now - t.queued_at for t in tickets]
    prices = _prices(tickets, waited, deadline, policy, outlook)
    # A ticket that must sit takes any table: its window would only make it wait longer
    # than the target for nothing (those the allowance lets wait keep theirs).
    windows = [
        math.inf if p >= MUST_SIT else window(t) for t, p in zip(tickets, prices, strict=True)
    ]
    plan = least_cost_plan([t.mu for t in tickets], prices, windows, players)
    return [tuple(ordered[i] for i in sorted(by_rating[p] for p in table)) for table in plan]


def least_cost_plan(
    mus: Sequence[float], prices: Sequence[float], windows: Sequence[float], players: int
) -> list[tuple[int, ...]]:
    """The tables (positions, ascending) of least total spread plus prices of those left
    waiting, over tickets in rating order (``mus`` ascending): each table is its last
    member and ``players - 1`` of the ``SKIP + players - 1`` tickets below it, within the
    window of one of its members. Dynamic programming, linear in the pool."""
    count = len(mus)
    shapes = _table_shapes(players)
    # cost[end]: the least cost of the first ``end`` tickets; chosen[end]: the table whose
    # last member is ``end - 1``, or None when that ticket waits.
    cost = [0.0] * (count + 1)
    chosen: list[tuple[int, ...] | None] = [None] * (count + 1)
    for end in range(1, count + 1):
        last = end - 1
        best = cost[last] + prices[last]
        table: tuple[int, ...] | None = None
        for others, passed_over in shapes:
            first = last - others[0]
            if first < 0:
                break  # the shapes only widen from here
            spread = mus[last] - mus[first]
            total = cost[first] + spread
            if total >= best:
                continue
            for offset in passed_over:
                total += prices[last - offset]
            if total < best and (
                spread <= windows[last] or any(spread <= windows[last - o] for o in others)
            ):
                best, table = total, (*(last - o for o in others), last)
        cost[end], chosen[end] = best, table
    plan: list[tuple[int, ...]] = []
    end = count
    while end > 0:
        table = chosen[end]
        if table is None:
            end -= 1
        else:
            plan.append(table)
            end = table[0]
    plan.reverse()
    return plan


@functools.lru_cache(maxsize=8)
def _table_shapes(players: int) -> tuple[tuple[tuple[int, ...], tuple[int, ...]], ...]:
    """Every table a ticket can close as its last member: the offsets below it of the
    others (descending) and of the tickets it passes over, the narrowest first, so that
    one close table found early rules most wider ones out in ``least_cost_plan``."""
    reach = SKIP + players - 1
    shapes = []
    for others in itertools.combinations(range(reach, 0, -1), players - 1):
        passed_over = tuple(o for o in range(others[0] - 1, 0, -1) if o not in others)
        shapes.append((others, passed_over))
    return tuple(sorted(shapes))


def _prices(
    tickets: Sequence[WaitingTicket],
    waited: Sequence[timedelta],
    deadline: timedelta,
    policy: MatchPolicy,
    outlook: PoolOutlook,
) -> list[float]:
    """Each ticket's price of waiting on (in rating units, like a spread)."""
    target = outlook.target.total_seconds()
    step = outlook.round_seconds
    prices = [0.0] * len(tickets)
    due: list[int] = []
    last_call = deadline.total_seconds()
    for i, (ticket, wait) in enumerate(zip(tickets, waited, strict=True)):
        seconds = wait.total_seconds()
        if wait >= deadline or (seconds > target and outlook.overdrawn):
            prices[i] = MUST_SIT
            continue
        if seconds + step > target >= seconds:
            prices[i] = MUST_SIT
            due.append(i)
            continue
        # Its time left (to the target, or to the deadline once past the target), and
        # the like players already waiting with it.
        left = (target if seconds <= target else last_call) - seconds
        like_per_second = outlook.rate * outlook.density(ticket.mu)
        chances = like_per_second * (left + WAITING_SHARE * target)
        prices[i] = policy.hold_price / max(chances, 1e-9)
    # The allowance goes to the due tickets with the fewest like players: they gain most.
    # (Keeping it for the ends of the rating range alone does worse: a middle ticket's
    # table gains too when it waits.)
    due.sort(key=lambda i: outlook.density(tickets[i].mu))
    for i in due[: outlook.late_allowed]:
        prices[i] = policy.due_price * tickets[i].sigma
    return prices
