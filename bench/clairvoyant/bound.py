"""A lower bound on the clairvoyant's best mean spread at a wait cap: no grouping of the
same arrivals, and so no matchmaking rule, seats them with a smaller one.

Why it is a bound. In any grouping that keeps the goal, call a ticket *late* when it
waits past the cap (at most ``K = late_allowed(n)`` of them) and a table's *part* the
members that are not late. A table's last arrival is never late (it waits less than one
round), so every part is non-empty and *on time*: its own last arrival's round comes at
most ``cap`` after its first arrival. The parts and the late tickets split the arrivals;
the holes the late tickets leave in the parts number ``sum(4 - |part|)`` = the late
count <= K; and a table spreads at least as wide as its part. So for any prices ``pi``
(one a ticket) and any ``mu >= 0``, with ``r(P) = spread(P) + mu * (4 - |P|) - pi(P)``:

    total spread >= sum over parts of spread(P)
                 >= sum(pi) - pi(late) - mu * K + sum over parts of r(P)
                 >= sum(pi) - (the K largest positive prices) - mu * K
                    + sum over EVERY on-time part P of min(0, r(P))

since the parts of one grouping are distinct on-time sets. Every ``pi`` and ``mu`` give
a bound (the Lagrangian relaxation of the set-partitioning program); a subgradient
ascent looks for a high one. On-time parts spreading more than ``limit`` are never
listed: with every price at most ``limit / 4`` their ``r`` cannot be negative.
"""

from __future__ import annotations

from itertools import combinations

from clairvoyant.instance import SEATS, Pool, late_allowed, round_after


def on_time_parts(pool: Pool, limit: float) -> list[list[tuple[tuple[int, ...], float]]]:
    """The on-time parts spreading at most ``limit``, by size (1 to 4): index tuples, each
    with its spread."""
    arrivals = pool.arrivals
    by_size: list[list[tuple[tuple[int, ...], float]]] = [[] for _ in range(SEATS + 1)]
    for first, head in enumerate(arrivals):
        later = []
        for j in range(first + 1, len(arrivals)):
            if round_after(arrivals[j].at, pool.step) - head.at > pool.cap + 1e-9:
                break
            if abs(arrivals[j].mu - head.mu) <= limit:
                later.append(j)
        for size in range(SEATS):
            for rest in combinations(later, size):
                mus = [head.mu, *(arrivals[j].mu for j in rest)]
                width = max(mus) - min(mus)
                if width <= limit:
                    by_size[size + 1].append(((first, *rest), width))
    return by_size


def lower_bound(
    pool: Pool,
    target: float,
    rounds: int = 150,
    limit: float | None = None,
    allowed: int | None = None,
) -> float:
    """A mean spread a table that no grouping with at most ``allowed`` tickets past the
    cap (by default as many as the p95 allows) beats. ``target`` is the mean spread of
    some grouping (it steers the step size; any value gives a bound)."""
    count = len(pool.arrivals)
    allowed = late_allowed(count) if allowed is None else allowed
    total_target = target * pool.tables
    limit = 3.0 * target if limit is None else limit
    ceiling = limit / SEATS
    parts = on_time_parts(pool, limit)
    prices = [min(ceiling, target / SEATS)] * count
    hole = target / SEATS
    best = 0.0
    scale, stalled = 1.0, 0
    for _ in range(rounds):
        value, grad, hole_grad = _evaluate(parts, prices, hole, allowed)
        if value > best + 1e-9:
            best, stalled = value, 0
        else:
            stalled += 1
            if stalled >= 10:
                scale, stalled = scale / 2, 0
        norm = sum(g * g for g in grad) + hole_grad * hole_grad
        if norm == 0:
            break
        size = scale * max(total_target - value, 1e-6 * total_target) / norm
        prices = [min(ceiling, p + size * g) for p, g in zip(prices, grad, strict=True)]
        hole = max(0.0, hole + size * hole_grad)
    return best / pool.tables


def _evaluate(
    parts: list[list[tuple[tuple[int, ...], float]]],
    prices: list[float],
    hole: float,
    allowed: int,
) -> tuple[float, list[float], float]:
    """The bound at these prices and hole cost, with its subgradient."""
    count = len(prices)
    covered = [0] * count
    dropped = sorted((i for i in range(count) if prices[i] > 0), key=lambda i: -prices[i])
    dropped = dropped[:allowed]
    value = sum(prices) - sum(prices[i] for i in dropped) - hole * allowed
    holes = -allowed
    for size in range(1, SEATS + 1):
        missing = SEATS - size
        extra = hole * missing
        for members, width in parts[size]:
            reduced = width + extra - sum(prices[i] for i in members)
            if reduced < 0:
                value += reduced
                holes += missing
                for i in members:
                    covered[i] += 1
    grad = [1.0 - c for c in covered]
    for i in dropped:
        grad[i] -= 1.0
    return value, grad, float(holes)
