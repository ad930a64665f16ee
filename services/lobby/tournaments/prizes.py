"""The prize split a tournament is created with (PCG-7).

A split is a table of percentage shares by final place (``(100,)``: winner takes all;
``(60, 30, 10)``). The lobby only checks it: the coins are computed once, by the wallet,
from the fees it escrowed (its ``TournamentPaid`` is what the lobby shows as prizes).
"""

from __future__ import annotations

from collections.abc import Sequence

from tavolo.servicekit.errors import InvalidArgument

WINNER_TAKES_ALL = (100,)


def check_split(shares: Sequence[int], max_entrants: int | None = None) -> tuple[int, ...]:
    """A valid split: whole positive percentages, best place first, summing to 100, and
    paying no more places than the tournament can have entrants."""
    split = tuple(shares)
    if not split or any(isinstance(s, bool) or not isinstance(s, int) or s <= 0 for s in split):
        raise InvalidArgument(
            "a prize split is whole positive percentages, e.g. 60/30/10",
            reason="TOURNAMENT_INVALID",
            metadata={"field": "prize_split"},
        )
    if sum(split) != 100:
        raise InvalidArgument(
            f"a prize split sums to 100, not {sum(split)}",
            reason="TOURNAMENT_INVALID",
            metadata={"field": "prize_split"},
        )
    if list(split) != sorted(split, reverse=True):
        raise InvalidArgument(
            "a prize split pays a better place at least as much as a worse",
            reason="TOURNAMENT_INVALID",
            metadata={"field": "prize_split"},
        )
    if max_entrants is not None and len(split) > max_entrants:
        raise InvalidArgument(
            f"a prize split of {len(split)} places pays more places than the"
            f" {max_entrants} entrants the tournament can have",
            reason="TOURNAMENT_INVALID",
            metadata={"field": "prize_split"},
        )
    return split
