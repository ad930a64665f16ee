"""Rated matchmaking decisions (RATE-2): a window of like ratings that widens with the
oldest ticket's wait, and today's rule at the deadline."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

from hypothesis import given
from hypothesis import strategies as st

from tavolo.lobby.play.matchmaking import (
    FormTable,
    MatchPolicy,
    WaitingTicket,
    plan_pool,
    window_factor,
)

NOW = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)
POLICY = MatchPolicy(bot_fill_after=timedelta(seconds=30), stake_timeout=timedelta(seconds=60))


def rated(*tickets: tuple[float, float]) -> list[WaitingTicket]:
    """Tickets (age in seconds, mu), sigma 2, oldest first as given."""
    return [
        WaitingTicket(f"t{i}", f"p{i}", f"n{i}", NOW - timedelta(seconds=age), None, mu, 2.0)
        for i, (age, mu) in enumerate(tickets)
    ]


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
    """RATE-2: mu 25 and 31 (sigma 2) are 3 sigmas apart: no table at 5 s (window 2.8),
    a table at 16 s (window 2 * 2^1.6 = 6.1)."""
    for age, seated in ((5, False), (16, True)):
        queue = rated((age, 25), (age - 1, 31))
        decisions = plan_pool(queue, players=2, stake=0, now=NOW, policy=POLICY, rated=True)
        assert bool(decisions) is seated


def test_rate_2_the_deadline_falls_back_to_first_come_with_bots() -> None:
    """RATE-2: at the deadline the pool is seated as without ratings, bot fill included."""
    queue = rated((30, 5), (20, 45), (10, 25))
    decisions = plan_pool(queue, players=4, stake=0, now=NOW, policy=POLICY, rated=True)
    assert decisions == [FormTable(tuple(queue), bots=1)]
    off = plan_pool(queue, players=4, stake=0, now=NOW, policy=POLICY, rated=False)
    assert decisions == off


@given(
    st.lists(
        st.tuples(st.floats(0, 29), st.floats(0, 50), st.floats(0.5, 9)),
        min_size=0,
        max_size=14,
    ),
    st.integers(2, 4),
)
def test_rate_2_every_rated_table_is_full_within_its_window_and_seats_each_ticket_once(
    raw: list[tuple[float, float, float]], players: int
) -> None:
    """RATE-2: before the deadline, whatever the tickets: only full tables, no ticket
    twice, every table's ratings within the window of one of its tickets, and no table
    left unformed among the tickets still waiting."""
    queue = [
        WaitingTicket(f"t{i}", f"p{i}", f"n{i}", NOW - timedelta(seconds=age), None, mu, sigma)
        for i, (age, mu, sigma) in enumerate(raw)
    ]
    decisions = plan_pool(queue, players=players, stake=0, now=NOW, policy=POLICY, rated=True)
    seated = [t.ticket_id for d in decisions for t in d.tickets]
    assert len(seated) == len(set(seated))
    if not queue:
        return
    factor = window_factor(NOW - min(t.queued_at for t in queue), POLICY)
    for decision in decisions:
        assert isinstance(decision, FormTable) and decision.bots == 0
        assert len(decision.tickets) == players
        assert any(
            all(abs(t.mu - c.mu) <= c.sigma * factor for t in decision.tickets)
            for c in decision.tickets
        )
    left = [t for t in queue if t.ticket_id not in set(seated)]
    for centre in left:  # nobody left over could have made a table
        near = [
            t for t in left if t is not centre and abs(t.mu - centre.mu) <= centre.sigma * factor
        ]
        assert len(near) < players - 1


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
