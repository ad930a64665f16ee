"""Intervals and percentiles the league prints: normal 95% intervals over deals (each
deal one sample), Wilson intervals for a rate, nearest-rank percentiles."""

from __future__ import annotations

import math
from collections.abc import Sequence

Z95 = 1.96


def interval(values: Sequence[float]) -> tuple[float, float, float]:
    """Mean and 95% confidence interval (normal approximation)."""
    n = len(values)
    mean = sum(values) / n
    var = sum((v - mean) ** 2 for v in values) / max(1, n - 1)
    half = Z95 * math.sqrt(var / n)
    return mean, mean - half, mean + half


def wilson(wins: float, n: int) -> tuple[float, float]:
    """The Wilson score interval of a rate: honest near 0% and 100%, where Solitario's
    weaker levels sit."""
    if n == 0:
        return 0.0, 1.0
    p, z = wins / n, Z95
    centre = (p + z * z / (2 * n)) / (1 + z * z / n)
    half = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n)) / (1 + z * z / n)
    return max(0.0, centre - half), min(1.0, centre + half)


def percentile(values: Sequence[float], q: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] if ordered else 0.0
