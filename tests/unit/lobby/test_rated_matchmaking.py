"""Rated matchmaking decisions (RATE-2): each ticket's window of like ratings widens with
its own wait up to a cap, the oldest ticket sits first with the tightest group that holds
it, and past the deadline a ticket takes its nearest players or falls back to bot fill."""

from __future__ import annotations

from datetime import timedelta

from hypothesis import given
from hypothesis import strategies as st

from tavolo.lobby.play.matchmaking import FormTable, plan_pool
from tavolo.lobby.play.policy import MatchPolicy, WaitingTicket, window_sigmas

from .waiting import NOW, rated

POLICY = MatchPolicy(
    bot_fill_after=timedelta(seconds=30),
    stake_timeout=timedelta(seconds=60),
    window_start=1.0,
    window_doubling=timedelta(seconds=1),
    window_max=4.0,
)
DEADLINE = timedelta(seconds=30)


def test_rate_2_a_narrow_window_keeps_far_ratings_apart() -> None:
    """RATE-2: two strong and two weak players waiting 1 s do not share a 2-seat table
    across the gap; each pair sits together."""
    queue = rated((1, 40), (1, 10), (1, 41), (1, 11))
    decisions = plan_pool(queue, players=2, stake=0, now=NOW, policy=POLICY, rated=True)
    assert [tuple(t.player_id for t in d.tickets) for d in decisions] == [
        ("p0", "p2"),
        ("p1", "p3"),
    ]


def test_rate_2_a_narrow_window_waits_and_a_widened_one_seats() -> None:
    """RATE-2: mu 25 and 31 (sigma 2) are 3 sigmas apart: no table at 1 s (window 2
    sigmas), a table at 1.6 s (2^1.6 = 3.03 sigmas); the fresh ticket's own window (1
    sigma) does not matter, the oldest ticket's does."""
    for age, seated in ((1, False), (1.6, True)):
        queue = rated((age, 25), (0, 31))
        decisions = plan_pool(queue, players=2, stake=0, now=NOW, policy=POLICY, rated=True)
        assert bool(decisions) is seated


def test_rate_2_the_deadline_falls_back_to_first_come_with_bots() -> None:
    """RATE-2: at the deadline the pool is seated as without ratings, bot fill included."""
    queue = rated((30, 5), (20, 45), (10, 25))
    decisions = plan_pool(queue, players=4, stake=0, now=NOW, policy=POLICY, rated=True)
    assert decisions == [FormTable(tuple(queue), bots=1)]
    off = plan_pool(queue, players=4, stake=0, now=NOW, policy=POLICY, rated=False)
    assert decisions == off


def test_rate_2_a_window_stops_at_its_cap_until_the_deadline() -> None:
    """RATE-2: mu 5 and 25 (sigma 2) are 10 sigmas apart, more than the cap of 4: they
    wait however long until the deadline (a doubling window would have reached them at
    3.3 s), then sit together."""
    for age, seated in ((4, False), (29.9, False), (30, True)):
        queue = rated((age, 5), (age, 25))
        decisions = plan_pool(queue, players=2, stake=0, now=NOW, policy=POLICY, rated=True)
        assert bool(decisions) is seated


def test_rate_2_past_the_deadline_a_ticket_takes_its_nearest_while_the_rest_stay_rated() -> None:
    """RATE-2: the deadline is each ticket's own: the one that reached it sits with the
    rating nearest its own (6, not the first come 45); 45 waits on, alone in its range."""
    queue = rated((30, 5), (1, 45), (1, 6))
    (decision,) = plan_pool(queue, players=2, stake=0, now=NOW, policy=POLICY, rated=True)
    assert [t.player_id for t in decision.tickets] == ["p0", "p2"]


def test_rate_2_the_oldest_ticket_sits_with_the_tightest_group_that_holds_it() -> None:
    """RATE-2: for the oldest ticket (mu 25) the tightest three with 23, 26.5 and 27.6 are
    25, 26.5, 27.6 (spread 2.6), not its two nearest (26.5 and 23, spread 3.5)."""
    queue = rated((3, 25), (0, 23), (0, 26.5), (0, 27.6))
    (decision,) = plan_pool(queue, players=3, stake=0, now=NOW, policy=POLICY, rated=True)
    assert sorted(t.mu for t in decision.tickets) == [25, 26.5, 27.6]


def tightest_spread(ticket: WaitingTicket, others: list[WaitingTicket], size: int) -> float:
    """The least spread of any ``size`` tickets of ``others`` holding ``ticket``: a run of
    neighbours in rating order."""
    mus = sorted(t.mu for t in others)
    at = next(i for i, t in enumerate(sorted(others, key=lambda t: t.mu)) if t is ticket)
    starts = range(max(0, at - size + 1), min(at, len(mus) - size) + 1)
    return min((mus[s + size - 1] - mus[s] for s in starts), default=float("inf"))


@given(
    st.lists(
        st.tuples(st.floats(0, 40), st.floats(0, 50), st.floats(0.5, 9)),
        min_size=0,
        max_size=14,
    ),
    st.integers(2, 4),
)
def test_rate_2_every_rated_table_fits_a_window_and_seats_each_ticket_once(
    raw: list[tuple[float, float, float]], players: int
) -> None:
    """RATE-2: whatever the tickets: no ticket twice; every table of people only is full
    and its spread fits the window of one of its tickets (the one that chose it); nobody left
    over could have made a table within their own window; a ticket left past the
    deadline is left because fewer than a table remain."""
    queue = [
        WaitingTicket(f"t{i}", f"p{i}", f"n{i}", NOW - timedelta(seconds=age), None, mu, sigma)
        for i, (age, mu, sigma) in enumerate(raw)
    ]
    decisions = plan_pool(queue, players=players, stake=0, now=NOW, policy=POLICY, rated=True)
    seated = [t.ticket_id for d in decisions for t in d.tickets]
    assert len(seated) == len(set(seated))

    def window(t: WaitingTicket) -> float:
        return t.sigma * window_sigmas(NOW - t.queued_at, DEADLINE, POLICY)

    for decision in decisions:
        assert isinstance(decision, FormTable)
        if decision.bots:
            assert len(decision.tickets) + decision.bots == players
            continue
        assert len(decision.tickets) == players
        mus = [t.mu for t in decision.tickets]
        assert any(max(mus) - min(mus) <= window(t) for t in decision.tickets)
    left = [t for t in queue if t.ticket_id not in set(seated)]
    if len(left) >= players:
        for ticket in left:
            assert tightest_spread(ticket, left, players) > window(ticket)
            assert NOW - ticket.queued_at < DEADLINE


def test_rate_2_a_pool_turned_off_is_first_come() -> None:
    """RATE-2: the option names pools by game, seats and stake."""
    policy = MatchPolicy(unrated_pools=frozenset({"pika", "scopa|2|100"}))
    assert not policy.rated_for("pika|4|0|{}")
    assert not policy.rated_for("scopa|2|100|{}")
    assert policy.rated_for("scopa|2|0|{}")
    assert policy.rated_for("pikachu|4|0|{}")
    assert not MatchPolicy(rated=False).rated_for("scopa|2|0|{}")


def test_rate_2_a_stake_pool_cancels_on_its_own_clock_even_before_the_rated_deadline() -> None:
    """RATE-2, MODE-4: a stake timeout shorter than the rated deadline still cancels."""
    policy = MatchPolicy(bot_fill_after=timedelta(seconds=60), stake_timeout=timedelta(seconds=20))
    queue = rated((20, 25))
    (decision,) = plan_pool(queue, players=2, stake=100, now=NOW, policy=policy, rated=True)
    assert decision.tickets == tuple(queue) and not isinstance(decision, FormTable)
