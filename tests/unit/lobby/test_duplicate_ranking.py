"""Duplicate Solitario's leaderboard and competitions, pure: places by score, then time,
then moves; the daily competition's hours; the seed shown only after the close."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavolo.lobby.duplicates.competition import commitment, daily, new_competition
from tavolo.lobby.duplicates.ranking import Entry, rank
from tavolo.servicekit.errors import FailedPrecondition, InvalidArgument

SEED = bytes(range(32))
NOON = datetime(2026, 12, 1, 12, 0, tzinfo=UTC)


def entry(name: str, score: int, millis: int, moves: int, result: str | None = "won") -> Entry:
    return Entry(name, name, f"t-{name}", result, score, millis, moves)


def test_score_then_time_then_moves_and_equal_entries_share_a_place() -> None:
    found = rank(
        [
            entry("slow", 500, 90_000, 100),
            entry("best", 600, 99_000, 200),
            entry("few", 500, 60_000, 80),
            entry("many", 500, 60_000, 120),
            entry("twin", 500, 60_000, 80),
            entry("playing", 0, 0, 0, None),
            entry("left", 700, 1, 1, "aborted"),
            entry("low", 100, 1_000, 10, "stopped"),
        ]
    )
    assert [(s.place, s.entry.player_id) for s in found] == [
        (1, "best"),
        (2, "few"),
        (2, "twin"),
        (4, "many"),
        (5, "slow"),
        (6, "low"),
        (7, "left"),
        (0, "playing"),
    ]


results = st.builds(
    entry,
    st.text("abcdef", min_size=1, max_size=4),
    st.integers(0, 3),
    st.integers(0, 3),
    st.integers(0, 3),
    st.sampled_from(["won", "stopped", "aborted", None]),
)


@given(st.lists(results, max_size=12))
def test_a_better_entry_never_ranks_below_a_worse_one(entries: list[Entry]) -> None:
    found = [s for s in rank(entries) if s.place]
    assert len(rank(entries)) == len(entries)
    for a in found:
        for b in found:
            if a.entry.measure() < b.entry.measure():
                assert a.place < b.place
            if a.entry.measure() == b.entry.measure():
                assert a.place == b.place
    assert sorted(s.place for s in found) == [s.place for s in found]
    assert all(found[i].place <= i + 1 for i in range(len(found)))


def test_the_daily_competition_runs_one_utc_day_and_reveals_its_seed_at_the_close() -> None:
    today = daily(NOON, SEED)
    assert today.duplicate_id == "daily-2026-12-01"
    assert (today.opens_at, today.closes_at) == (
        datetime(2026, 12, 1, tzinfo=UTC),
        datetime(2026, 12, 2, tzinfo=UTC),
    )
    assert dict(today.spec.options)["draw"] == 1
    assert today.commitment == commitment(SEED) and len(today.commitment) == 64
    assert today.seed_shown(NOON) == b""
    assert today.seed_shown(today.closes_at) == SEED
    today.check_entry(NOON)
    with pytest.raises(FailedPrecondition, match="closed"):
        today.check_entry(today.closes_at)


@pytest.mark.parametrize(
    ("name", "opens", "closes", "words"),
    [
        ("", NOON, NOON + timedelta(hours=1), "id"),
        ("daily-2026-12-01", NOON, NOON + timedelta(hours=1), "daily"),
        ("cup", NOON, NOON, "after it opens"),
        ("cup", NOON - timedelta(days=2), NOON - timedelta(days=1), "future"),
        ("cup", NOON, NOON + timedelta(days=40), "at most"),
    ],
)
def test_an_operators_competition_is_checked(
    name: str, opens: datetime, closes: datetime, words: str
) -> None:
    with pytest.raises(InvalidArgument, match=words):
        new_competition(name, {}, opens, closes, SEED, NOON)


def test_an_operators_competition_takes_solitarios_options() -> None:
    made = new_competition("cup", {"draw": 3}, NOON, NOON + timedelta(hours=2), SEED, NOON)
    assert dict(made.spec.options)["draw"] == 3
    with pytest.raises(InvalidArgument, match="draw"):
        new_competition("cup", {"draw": 2}, NOON, NOON + timedelta(hours=2), SEED, NOON)
