"""Which due timers a replica fires now (`to_fire`, PLAT-3): its own tables' at once,
another replica's only once they wait `takeover` longer than its own rows do, so replicas
that are merely busy leave each other's tables alone and a stopped one is taken over."""

from __future__ import annotations

from datetime import UTC, datetime

from hypothesis import given
from hypothesis import strategies as st

from tavolo.engine.scheduler import to_fire
from tavolo.engine.store import DeadlineRow

NOW = datetime(2026, 1, 1, tzinfo=UTC)
TAKEOVER = 0.5


def row(table: str, key: str = "bot:1") -> DeadlineRow:
    return DeadlineRow(table, key, 1, "bot", NOW)


def fired(
    due: list[tuple[DeadlineRow, float]], mine: set[str], busy: frozenset[str] = frozenset()
) -> list[tuple[str, str]]:
    return [(r.table_id, r.key) for r in to_fire(due, mine.__contains__, busy, TAKEOVER)]


def test_own_tables_fire_at_once_and_anothers_only_after_the_takeover_wait() -> None:
    due = [(row("mine"), 0.0), (row("theirs"), 0.49), (row("stopped"), 0.5)]
    assert fired(due, {"mine"}) == [("mine", "bot:1"), ("stopped", "bot:1")]


def test_a_busy_replica_leaves_anothers_tables_that_wait_no_longer_than_its_own() -> None:
    """Under load every row waits: 0.4 s here for this replica's own, so another's row
    is taken only past 0.9 s (it was taken at 0.5 s, and loaded replicas swapped tables)."""
    due = [(row("mine"), 0.4), (row("theirs"), 0.8), (row("stopped"), 0.95)]
    assert fired(due, {"mine"}) == [("mine", "bot:1"), ("stopped", "bot:1")]


def test_one_row_per_table_and_none_of_a_table_being_fired() -> None:
    due = [
        (row("a", "bot:1"), 0.1),
        (row("a", "turn:2"), 0.0),
        (row("b"), 0.1),
        (row("c"), 3.0),
    ]
    assert fired(due, {"a", "b"}, busy=frozenset({"b", "c"})) == [("a", "bot:1")]


@given(
    st.lists(st.tuples(st.sampled_from("abcdef"), st.floats(0, 5, allow_nan=False)), max_size=30),
    st.sets(st.sampled_from("abcdef")),
    st.sets(st.sampled_from("abcdef")),
)
def test_the_choice_holds_for_any_due_rows(
    waits: list[tuple[str, float]], mine: set[str], busy: set[str]
) -> None:
    due = [(row(table, f"k{n}"), waited) for n, (table, waited) in enumerate(waits)]
    chosen = to_fire(due, mine.__contains__, busy, TAKEOVER)
    tables = [r.table_id for r in chosen]
    assert len(tables) == len(set(tables))  # one row per table
    assert not set(tables) & busy
    # each table's first due row, never a later one
    firsts = {}
    for r, _ in due:
        firsts.setdefault(r.table_id, r)
    assert all(firsts[r.table_id] is r for r in chosen)
    # every own table that is due and not busy fires
    assert {t for t, _ in waits if t in mine} - busy <= set(tables)
    # another's table fires only when one of its rows waited past the own lag + takeover
    own_lag = max((w for t, w in waits if t in mine), default=0.0)
    for table in set(tables) - mine:
        first_wait = next(w for t, w in waits if t == table)
        assert first_wait >= own_lag + TAKEOVER
