"""The clairvoyant of bench_ratings (RATE-2): its lower bound really is one (never above
the best grouping found by trying them all) and its grouping really keeps the wait cap,
on small random pools where every grouping can be tried."""

from __future__ import annotations

import random

import pytest
from clairvoyant.bound import lower_bound
from clairvoyant.grouping import best_grouping
from clairvoyant.instance import SEATS, Arrival, Pool, late_allowed

STEP = 0.5


def groupings(members: list[int]) -> list[list[list[int]]]:
    """Every split of ``members`` into tables of four."""
    if not members:
        return [[]]
    first, rest = members[0], members[1:]
    out = []
    for i in range(len(rest)):
        for j in range(i + 1, len(rest)):
            for k in range(j + 1, len(rest)):
                table = [first, rest[i], rest[j], rest[k]]
                left = [m for m in rest if m not in table]
                out.extend([table, *tail] for tail in groupings(left))
    return out


def brute_force(pool: Pool, allowed: int | None = None) -> float:
    """The least mean spread of any grouping with at most ``allowed`` tickets past the cap
    (by default the p95's count; inf when there is none)."""
    allowed = late_allowed(len(pool.arrivals)) if allowed is None else allowed
    best = float("inf")
    for tables in groupings(list(range(len(pool.arrivals)))):
        if sum(pool.late(t) for t in tables) <= allowed:
            best = min(best, sum(pool.spread(t) for t in tables) / pool.tables)
    return best


def random_pool(rng: random.Random, count: int) -> Pool:
    """Arrivals at 4 a second, the cap between first come's p95 and five times it, so
    the cap binds some groupings and first come keeps it."""
    at, arrivals = 0.0, []
    for _ in range(count):
        at += rng.expovariate(4.0)
        arrivals.append(Arrival(at, rng.gauss(25, 12)))
    pool = Pool(tuple(arrivals), STEP, STEP)
    first_come = sorted(w for i in range(0, count, SEATS) for w in pool.waits(range(i, i + 4)))
    p95 = max(STEP, first_come[int(0.95 * (count - 1))])
    return Pool(pool.arrivals, p95 * rng.uniform(1.0, 5.0), STEP)


def test_rate_2_the_p95_allows_the_simulations_count_of_late_waits() -> None:
    """RATE-2: the wait p95 read at index int(0.95 * (n - 1)) stays within the cap when
    exactly ``late_allowed(n)`` waits exceed it, and not with one more."""
    for count in (8, 12, 100, 2400):
        allowed = late_allowed(count)
        for late, within in ((allowed, True), (allowed + 1, False)):
            waits = sorted([1.0] * (count - late) + [9.0] * late)
            assert (waits[int(0.95 * (count - 1))] <= 1.0) is within


@pytest.mark.parametrize("seed", range(12))
def test_rate_2_the_bound_is_never_above_the_best_grouping(seed: int) -> None:
    """RATE-2: on 12 random arrivals (5,775 groupings) the clairvoyant's bound is at most
    the best mean spread within the cap, and its grouping keeps the cap."""
    rng = random.Random(seed)
    pool = random_pool(rng, 12)
    best = brute_force(pool)
    assert best < float("inf")  # first come keeps these caps
    tables = best_grouping(pool, moves=3000, seed=seed)
    assert sorted(i for t in tables for i in t) == list(range(12))
    assert all(len(t) == SEATS for t in tables)
    assert sum(pool.late(t) for t in tables) <= late_allowed(12)
    reached = sum(pool.spread(t) for t in tables) / pool.tables
    assert best <= reached + 1e-9
    assert lower_bound(pool, reached, rounds=300) <= best + 1e-9


@pytest.mark.parametrize("allowed", [0, 2, 3, 5])
def test_rate_2_the_bound_holds_for_any_count_of_late_waits(allowed: int) -> None:
    """RATE-2: the bound's handling of late tickets (the holes they leave, their prices)
    holds with none of them allowed and with several, on tight caps where they matter."""
    rng = random.Random(1000 + allowed)
    for _ in range(4):
        pool = random_pool(rng, 12)
        pool = Pool(pool.arrivals, rng.choice([1.0, 1.5, 2.0]), STEP)  # caps that bind
        best = brute_force(pool, allowed)
        target = best if best < float("inf") else 25.0
        assert lower_bound(pool, target, rounds=300, allowed=allowed) <= best + 1e-9


def test_rate_2_the_bound_is_not_empty() -> None:
    """RATE-2: on such pools the bound says something (above zero, most of the way to the
    best on average) rather than holding trivially."""
    rng = random.Random(99)
    ratios = []
    for _ in range(8):
        pool = random_pool(rng, 12)
        best = brute_force(pool)
        ratios.append(lower_bound(pool, best, rounds=300) / best)
    assert min(ratios) > 0
    assert sum(ratios) / len(ratios) > 0.5
