"""Matchmaking decisions (MODE-3, MODE-4): full tables, bot fill, stake cancellation."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavolo.lobby.play.matchmaking import CancelTable, FormTable, next_deadline, plan_pool
from tavolo.lobby.play.policy import MatchPolicy, WaitingTicket

NOW = datetime(2026, 5, 1, 20, 0, tzinfo=UTC)
POLICY = MatchPolicy(bot_fill_after=timedelta(seconds=30), stake_timeout=timedelta(seconds=60))


def tickets(*ages: float) -> list[WaitingTicket]:
    return [
        WaitingTicket(f"t{i}", f"p{i}", f"nick{i}", NOW - timedelta(seconds=age), f"h{i}")
        for i, age in enumerate(ages)
    ]


def test_mode_3_eight_tickets_make_two_four_seat_tables_in_queue_order() -> None:
    queue = tickets(80, 70, 60, 50, 40, 30, 20, 10)
    decisions = plan_pool(queue, players=4, stake=0, now=NOW, policy=POLICY)
    assert [d.tickets for d in decisions] == [tuple(queue[:4]), tuple(queue[4:])]
    assert all(isinstance(d, FormTable) and not d.bot_filled for d in decisions)


def test_mode_3_a_young_remainder_keeps_waiting() -> None:
    decisions = plan_pool(tickets(5, 3), players=4, stake=0, now=NOW, policy=POLICY)
    assert decisions == []


def test_mode_3_a_lonely_ticket_is_bot_filled_after_the_wait() -> None:
    queue = tickets(30)
    (decision,) = plan_pool(queue, players=4, stake=0, now=NOW, policy=POLICY)
    assert decision == FormTable((queue[0],), bots=3)
    assert decision.bot_filled


def test_mode_3_bot_fill_takes_the_whole_remainder() -> None:
    queue = tickets(31, 2)
    (decision,) = plan_pool(queue, players=4, stake=0, now=NOW, policy=POLICY)
    assert decision == FormTable(tuple(queue), bots=2)


def test_mode_4_stake_tables_never_take_bots() -> None:
    decisions = plan_pool(tickets(59, 40), players=4, stake=100, now=NOW, policy=POLICY)
    assert decisions == []


def test_mode_4_an_unfilled_stake_table_is_cancelled_for_the_tickets_that_waited() -> None:
    queue = tickets(61, 60, 10)
    (decision,) = plan_pool(queue, players=4, stake=250, now=NOW, policy=POLICY)
    assert decision == CancelTable((queue[0], queue[1]))


def test_mode_4_a_full_stake_table_forms_whatever_the_wait() -> None:
    queue = tickets(500, 400, 300, 200)
    (decision,) = plan_pool(queue, players=4, stake=1000, now=NOW, policy=POLICY)
    assert decision == FormTable(tuple(queue))


def test_an_incomplete_batch_forms_only_full_tables() -> None:
    queue = tickets(100, 100, 100, 100, 100)
    decisions = plan_pool(queue, players=4, stake=0, now=NOW, policy=POLICY, complete=False)
    assert decisions == [FormTable(tuple(queue[:4]))]


def test_deadlines() -> None:
    oldest = NOW - timedelta(seconds=5)
    assert next_deadline(oldest, stake=0, policy=POLICY) == oldest + timedelta(seconds=30)
    assert next_deadline(oldest, stake=100, policy=POLICY) == oldest + timedelta(seconds=60)


def test_a_table_has_at_least_two_seats() -> None:
    with pytest.raises(ValueError, match="at least 2"):
        plan_pool([], players=1, stake=0, now=NOW, policy=POLICY)


@given(
    ages=st.lists(st.integers(min_value=0, max_value=200), max_size=40),
    players=st.integers(min_value=2, max_value=4),
    stake=st.sampled_from([0, 100]),
)
def test_mode_3_nobody_is_seated_twice_and_tables_are_never_overfull(
    ages: list[int], players: int, stake: int
) -> None:
    queue = tickets(*ages)
    decisions = plan_pool(queue, players=players, stake=stake, now=NOW, policy=POLICY)
    placed = [t.ticket_id for d in decisions for t in d.tickets]
    assert len(placed) == len(set(placed))
    for decision in decisions:
        if isinstance(decision, FormTable):
            assert len(decision.tickets) + decision.bots == players
            assert decision.bots == 0 or stake == 0
    full_tables = len(queue) // players
    formed = [d for d in decisions if isinstance(d, FormTable) and not d.bot_filled]
    assert len(formed) == full_tables
