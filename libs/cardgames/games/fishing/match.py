"""How a fishing match ends and places its sides (RULES §0.10-14, SCOPA-8, CIRULLA-9/10).

A match is ``points:T`` (the first hand after which a side has T or more ends it) or
``hands:N`` (it ends after N hands). The target is checked only at the end of a hand; the
highest total wins. An equal highest total plays tie-break hands: the whole table plays,
and among the tied sides whoever scores more in the hand ranks higher; their points never
enter the totals. After a third level tie-break hand (KO, PCG-7) the tied side that made
the last capture loses; if that side is not among the tied ones, they share their place.

Places come from a rank key per side, compared lexicographically: its total, then its
points in each tie-break hand (0 for sides that were not tied), then the KO mark.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Final

MAX_TIEBREAK_HANDS: Final = 3
MAX_HANDS: Final = 50


def parse_match_length(value: object) -> tuple[str, int]:
    """``"points:T"`` → ("points", T); ``"hands:N"`` → ("hands", N)."""
    if isinstance(value, str) and ":" in value:
        kind, _, number = value.partition(":")
        if kind in ("points", "hands") and number.isdigit() and int(number) >= 1:
            return kind, int(number)
    raise ValueError(f"match_length must be 'points:T' or 'hands:N', not {value!r}")


def match_length_check(targets: tuple[int, ...]) -> Callable[[object], str | None]:
    """The option check: ``points:T`` with T among ``targets``, or ``hands:1`` to
    ``hands:50``."""
    allowed = ", ".join(f"points:{t}" for t in targets) + f", hands:1 … hands:{MAX_HANDS}"

    def check(value: object) -> str | None:
        try:
            kind, number = parse_match_length(value)
        except ValueError:
            return f"must be one of {allowed}, not {value!r}"
        if kind == "points" and number not in targets:
            return f"must be one of {allowed}, not {value!r}"
        if kind == "hands" and number > MAX_HANDS:
            return f"must be one of {allowed}, not {value!r}"
        return None

    return check


def decided(kind: str, number: int, totals: Sequence[int], hands_played: int) -> bool:
    """Does the match end after this hand (before any tie-break)?"""
    if kind == "hands":
        return hands_played >= number
    return max(totals) >= number


def tied_at_top(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """The sides sharing the best rank key (one side: nobody is tied)."""
    best = max(keys)
    return tuple(s for s, k in enumerate(keys) if k == best)


def rank_keys(
    totals: Sequence[int], tiebreaks: Sequence[Sequence[int]], ko_loser: int | None
) -> list[tuple[int, ...]]:
    """Each side's rank key: total, tie-break hand points, then -1 for a KO loser."""
    return [
        (totals[s], *(hand[s] for hand in tiebreaks), -1 if s == ko_loser else 0)
        for s in range(len(totals))
    ]


def places_of_sides(keys: Sequence[tuple[int, ...]]) -> tuple[int, ...]:
    """Competition ranking of the sides (1, 2, 2, 4) by rank key, higher first."""
    return tuple(1 + sum(1 for other in keys if other > key) for key in keys)
