"""Rated tables with foresight (RATE-2): a pool's outlook (its rate, the ratings its
tickets bring, how many waited past the target) decides when a table forms. A tight
group sits at once; a loose one is held while like players are likely to come, and sits
when a ticket is due; the late allowance lets the loneliest due tickets wait for their
like; the deadline and the windows stand as without foresight."""

from __future__ import annotations

import itertools
import random
import statistics
from datetime import datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavolo.lobby.play.foresight import (
    MUST_SIT,
    NEAREST_GAP,
    SKIP,
    Arrivals,
    PoolOutlook,
    first_come_wait,
    least_cost_plan,
    pool_pace,
    pool_rate,
    steady_rate,
    wait_target,
)
from tavolo.lobby.play.matchmaking import FormTable, plan_pool
from tavolo.lobby.play.policy import MatchPolicy, WaitingTicket

from . import waiting
from .waiting import NOW

POLICY = MatchPolicy(bot_fill_after=timedelta(seconds=30), stake_timeout=timedelta(seconds=60))
STEP = 0.5
# A pool of 4 tickets a second whose ratings spread as a settled population's (sd 12).
_DRAW = random.Random(5)
POPULATION = [_DRAW.gauss(25, 12) for _ in range(256)]


def outlook(
    players: int = 2, rate: float = 4.0, late: int = 0, arrivals: int = 1200
) -> PoolOutlook:
    return PoolOutlook.of(
        rate=rate,
        target=wait_target(rate, players, POLICY, STEP),
        arrivals=arrivals,
        late=late,
        ratings=POPULATION,
        policy=POLICY,
        round_seconds=STEP,
    )


def rated(*tickets: tuple[float, float]) -> list[WaitingTicket]:
    """Tickets (age in seconds, mu), sigma 5: windows wide enough for these tests."""
    return waiting.rated(*tickets, sigma=5.0)


def seated(queue: list[WaitingTicket], players: int, view: PoolOutlook) -> list[list[str]]:
    decisions = plan_pool(
        queue, players=players, stake=0, now=NOW, policy=POLICY, rated=True, outlook=view
    )
    return [[t.player_id for t in d.tickets] for d in decisions]


@pytest.mark.parametrize(("rate", "players"), [(1.0, 4), (4.0, 4), (20.0, 4), (4.0, 2)])
def test_rate_2_the_first_come_wait_is_what_first_come_gives(rate: float, players: int) -> None:
    """RATE-2: the model behind the wait target against first come itself, simulated
    (Poisson arrivals, a table at the first round after its last ticket): within 6%."""
    rng = random.Random(3)
    clock, arrivals = 0.0, []
    while len(arrivals) < 40_000:
        clock += rng.expovariate(rate)
        arrivals.append(clock)
    waits = []
    for start in range(0, len(arrivals) - players + 1, players):
        group = arrivals[start : start + players]
        formed = -(-group[-1] // STEP) * STEP
        waits += [formed - at for at in group]
    waits.sort()
    simulated = waits[int(0.95 * (len(waits) - 1))]
    assert first_come_wait(rate, players, STEP) == pytest.approx(simulated, rel=0.06)


def test_rate_2_a_tight_pair_sits_at_once_and_a_loose_one_is_held_until_due() -> None:
    """RATE-2: two like players (mu 25, 25.5) sit in the first round; two far apart
    (25 and 40, within the window) are held while a like player is likely to come, and
    sit at the round before the older would pass the target."""
    view = outlook()
    target = view.target.total_seconds()
    assert seated(rated((0, 25), (0, 25.5)), 2, view) == [["p0", "p1"]]
    assert seated(rated((0, 25), (0, 40)), 2, view) == []
    due = target - STEP / 2
    assert seated(rated((due, 25), (0, 40)), 2, view) == [["p0", "p1"]]


def test_rate_2_the_allowance_lets_a_lonely_due_ticket_wait_for_its_like() -> None:
    """RATE-2: a due ticket far from everyone (mu 45 against 25, within its window) waits
    on while the late allowance lasts and sits when it is spent; past the target a
    ticket is priced up to the deadline, so in the middle of the range (many like players
    to come) it waits for a close one rather than sit 10 points apart."""
    view = outlook()
    due = view.target.total_seconds() - STEP / 2
    queue = rated((due, 45), (0, 25))
    assert view.late_allowed > 0
    assert seated(queue, 2, view) == []
    spent = outlook(late=view.late_allowed)
    assert spent.late_allowed == 0
    assert seated(queue, 2, spent) == [["p0", "p1"]]
    late = view.target.total_seconds() + 1
    assert seated(rated((late, 25), (0, 35)), 2, spent) == []
    assert seated(rated((late, 25), (0, 25.1)), 2, spent) == [["p0", "p1"]]


def test_rate_2_a_backlog_past_the_target_sits_at_once() -> None:
    """RATE-2: when more than twice the allowance of the recent tickets are past the
    target (a backlog after a restart, a burst), a ticket past it does not wait for a
    closer table: it sits with whoever is nearest."""
    view = outlook()
    budget = view.late_allowed
    late = view.target.total_seconds() + 1
    queue = rated((late, 25), (0, 35))
    assert seated(queue, 2, outlook(late=2 * budget)) == []
    backlog = outlook(late=2 * budget + 1)
    assert backlog.overdrawn
    assert seated(queue, 2, backlog) == [["p0", "p1"]]


def test_rate_2_with_foresight_the_window_and_deadline_still_stand() -> None:
    """RATE-2: a due pair wider than its window (2.5 sigmas at first) waits when the
    allowance lets it; at the deadline any pair sits; without an outlook (a pool too new
    to have one) tables form as the windows allow."""
    policy = MatchPolicy(window_start=0.1, window_doubling=timedelta(seconds=100), window_max=0.1)
    view = outlook()
    queue = rated((29, 25), (0.5, 60))
    assert (
        plan_pool(queue, players=2, stake=0, now=NOW, policy=policy, rated=True, outlook=view) == []
    )
    at_deadline = rated((30, 25), (0.5, 60))
    (table,) = plan_pool(
        at_deadline, players=2, stake=0, now=NOW, policy=policy, rated=True, outlook=view
    )
    assert isinstance(table, FormTable) and len(table.tickets) == 2
    fresh = rated((0.5, 25), (0.5, 26))
    assert plan_pool(fresh, players=2, stake=0, now=NOW, policy=POLICY, rated=True) == [
        FormTable(tuple(fresh))
    ]


def came(count: int, minutes: float, until: datetime = NOW) -> Arrivals:
    return Arrivals(count, until - timedelta(minutes=minutes), until)


def test_rate_2_the_outlook_reads_the_rate_and_the_allowance() -> None:
    """RATE-2: 1,201 tickets over five minutes are 4 a second, however long ago the last
    came; tickets closer together than a round count a round apart; the allowance is
    4.9% of them less those already late."""
    assert pool_rate(came(1201, 5), STEP) == 4.0
    assert pool_rate(came(1201, 5, NOW - timedelta(minutes=4)), STEP) == 4.0
    assert pool_rate(Arrivals(3, NOW - timedelta(seconds=0.1), NOW), STEP) == 4.0
    lately = Arrivals(4, NOW - timedelta(seconds=0.75), NOW)
    few = Arrivals(3, NOW - timedelta(seconds=0.75), NOW)
    assert pool_pace(few, few, players=2, policy=POLICY, round_seconds=STEP) is None
    assert pool_pace(lately, lately, players=2, policy=POLICY, round_seconds=STEP) == (
        4.0,
        wait_target(4.0, 2, POLICY, STEP),
    )
    assert outlook(late=0).late_allowed == 58
    assert outlook(late=50).late_allowed == 8
    assert outlook(late=80).late_allowed == 0


@pytest.mark.parametrize(
    ("recent", "rate"),
    [
        (1201, 4.0),  # as the half hour: its rate
        (1160, 4.0),  # 1.2 standard deviations under: still the half hour's (steady)
        (1280, 4.0),  # 2.3 over: steady
        (1080, 3.6),  # 3.5 under: players are leaving, the recent rate
        (1321, 4.4),  # 3.5 over: an evening's players arrive
        (2401, 8.0),
    ],
)
def test_rate_2_the_rate_holds_steady_until_recent_tickets_show_a_change(
    recent: int, rate: float
) -> None:
    """RATE-2: the rate is read over the last half hour (7,201 tickets: 4 a second) while
    the last five minutes' count lies within 3 standard deviations (Poisson, about 35
    tickets) of what that rate predicts, and follows the five minutes once it does not;
    with no longer history than the recent tickets, theirs."""
    history = came(7201, 30)
    assert steady_rate(came(recent, 5), history, STEP) == rate
    assert steady_rate(came(recent, 5), came(recent, 5), STEP) == pool_rate(came(recent, 5), STEP)


def arrivals_within(times: list[float], at: float, minutes: float) -> Arrivals:
    """The arrivals (seconds from NOW) of the ``minutes`` up to second ``at``."""
    inside = [t for t in times if at - 60 * minutes < t <= at]
    return Arrivals(
        len(inside), NOW + timedelta(seconds=inside[0]), NOW + timedelta(seconds=inside[-1])
    )


def test_rate_2_a_steady_pool_keeps_its_wait_target() -> None:
    """RATE-2: over an hour of Poisson arrivals at 4 a second, read every ten seconds of
    its second half hour as the lobby reads them, the wait target from the steady rate
    wanders less than a third as far as the one from the last five minutes alone."""
    rng = random.Random(8)
    clock, times = 0.0, []
    while clock < 3600:
        clock += rng.expovariate(4.0)
        times.append(clock)
    steady, recent_only = [], []
    for at in range(1800, 3600, 10):
        recent, history = arrivals_within(times, at, 5), arrivals_within(times, at, 30)
        steady.append(wait_target(steady_rate(recent, history, STEP), 4, POLICY, STEP))
        recent_only.append(wait_target(pool_rate(recent, STEP), 4, POLICY, STEP))

    def wander(targets: list[timedelta]) -> float:
        return statistics.pstdev(t.total_seconds() for t in targets)

    assert wander(steady) < wander(recent_only) / 3


def test_rate_2_the_density_is_read_from_the_nearest_ratings() -> None:
    """RATE-2: the density at a rating is the share of recent ratings nearest it over
    the width they span: uniform ratings read alike wherever they are, a crowd reads
    denser than its edge, and the ends of the range (no ratings beyond) read thin."""
    uniform = PoolOutlook.of(
        rate=4.0,
        target=timedelta(seconds=2),
        arrivals=400,
        late=0,
        ratings=[i / 4 for i in range(400)],  # 4 to a point of rating, over 0-100
        policy=POLICY,
        round_seconds=STEP,
    )
    assert uniform.density(50) == pytest.approx(1 / 100, rel=0.05)
    assert uniform.density(20.1) == pytest.approx(uniform.density(70.3), rel=0.05)
    assert uniform.density(0) < uniform.density(50) * 0.6
    crowd = outlook()
    assert crowd.density(25) > 2 * crowd.density(50)
    identical = PoolOutlook.of(
        rate=4.0,
        target=timedelta(seconds=2),
        arrivals=10,
        late=0,
        ratings=[25.0] * 10,
        policy=POLICY,
        round_seconds=STEP,
    )
    assert identical.density(25) == 10 / (2 * NEAREST_GAP * 10)  # not infinite
    assert wait_target(4.0, 4, POLICY, STEP) == timedelta(
        seconds=1.5 * first_come_wait(4.0, 4, STEP)
    )


@given(
    st.lists(
        st.tuples(st.floats(0, 40), st.floats(-10, 60), st.floats(0.5, 9)),
        min_size=0,
        max_size=16,
    ),
    st.integers(2, 5),
    st.integers(0, 3),
    st.sampled_from([0.5, 4.0, 20.0]),
)
def test_rate_2_foresight_seats_each_ticket_once_and_every_must_sit_ticket_it_can(
    raw: list[tuple[float, float, float]], players: int, allowance: int, rate: float
) -> None:
    """RATE-2: whatever the tickets and the outlook: no ticket twice; every table is full
    and either fits the window of one of its tickets or holds one that had to sit (due
    with no allowance left, or past the deadline); when a table's worth is left, nobody
    left has reached the deadline and at most the allowance of them are past the
    target."""
    queue = [
        WaitingTicket(f"t{i}", f"p{i}", f"n{i}", NOW - timedelta(seconds=age), None, mu, sigma)
        for i, (age, mu, sigma) in enumerate(raw)
    ]
    view = outlook(players, rate, late=max(0, outlook(players, rate).late_allowed - allowance))
    decisions = plan_pool(
        queue, players=players, stake=0, now=NOW, policy=POLICY, rated=True, outlook=view
    )
    ids = [t.ticket_id for d in decisions for t in d.tickets]
    assert len(ids) == len(set(ids))
    deadline = POLICY.rated_deadline
    for decision in decisions:
        assert isinstance(decision, FormTable)
        if decision.bots:
            assert len(decision.tickets) + decision.bots == players
            continue
        assert len(decision.tickets) == players
    left = [t for t in queue if t.ticket_id not in set(ids)]
    if len(left) >= players:
        assert all(NOW - t.queued_at < deadline for t in left)
        target = view.target.total_seconds()
        due = [t for t in left if target - STEP < (NOW - t.queued_at).total_seconds() <= target]
        assert len(due) <= view.late_allowed


def brute_force_cost(
    mus: list[float], prices: list[float], windows: list[float], players: int
) -> float:
    """The least cost over every set of tables with disjoint spans in rating order, each
    within a window of a member and passing over at most SKIP tickets, found from the
    left by trying every table that starts at each ticket."""

    def best(start: int) -> float:
        if start >= len(mus):
            return 0.0
        options = [prices[start] + best(start + 1)]
        for last in range(start + players - 1, min(len(mus), start + players + SKIP)):
            for middle in itertools.combinations(range(start + 1, last), players - 2):
                members = (start, *middle, last)
                spread = mus[last] - mus[start]
                if spread > max(windows[i] for i in members):
                    continue
                passed = sum(prices[i] for i in range(start, last + 1) if i not in members)
                options.append(spread + passed + best(last + 1))
        return min(options)

    return best(0)


@given(
    st.lists(
        st.tuples(
            st.floats(0, 30),
            st.one_of(st.floats(0, 20), st.just(MUST_SIT)),
            st.floats(0.5, 40),
        ),
        min_size=0,
        max_size=9,
    ),
    st.integers(2, 4),
)
def test_rate_2_the_plan_is_the_least_cost_one(
    raw: list[tuple[float, float, float]], players: int
) -> None:
    """RATE-2: the dynamic programme's plan costs exactly the least any set of tables
    (of the shapes it considers) costs, and is such a set."""
    raw = sorted(raw)
    mus = [m for m, _, _ in raw]
    prices = [p for _, p, _ in raw]
    windows = [w for _, _, w in raw]
    plan = least_cost_plan(mus, prices, windows, players)
    seated = [i for table in plan for i in table]
    assert len(seated) == len(set(seated))
    for table in plan:
        assert len(table) == players and list(table) == sorted(table)
        assert table[-1] - table[0] + 1 - players <= SKIP
        assert mus[table[-1]] - mus[table[0]] <= max(windows[i] for i in table)
    spans = sorted((t[0], t[-1]) for t in plan)
    assert all(a[1] < b[0] for a, b in itertools.pairwise(spans))
    cost = sum(mus[t[-1]] - mus[t[0]] for t in plan)
    cost += sum(p for i, p in enumerate(prices) if i not in set(seated))
    assert cost == pytest.approx(brute_force_cost(mus, prices, windows, players), abs=1e-6)
