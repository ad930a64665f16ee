"""The prize split of a tournament's escrowed fees (PCG-7).

A split is a table of percentage shares by final place (``(100,)``: winner takes all;
``(60, 30, 10)``). Each place gets its share rounded down; the coins left over go one at
a time to the places in order (first place first), as a stake pot's remainder goes to its
winners in order: the escrow always ends at exactly zero.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavolo.servicekit.errors import InvalidArgument

WINNER_TAKES_ALL = (100,)


def check_split(shares: Sequence[int]) -> tuple[int, ...]:
    """A valid split: whole positive percentages, best place first, summing to 100."""
    split = tuple(shares)
    if not split or any(isinstance(s, bool) or not isinstance(s, int) or s <= 0 for s in split):
        raise InvalidArgument("a prize split is whole positive percentages, e.g. 60/30/10")
    if sum(split) != 100:
        raise InvalidArgument(f"a prize split sums to 100, not {sum(split)}")
    if list(split) != sorted(split, reverse=True):
        raise InvalidArgument("a prize split pays a better place at least as much as a worse")
    return split


def prizes(pot: int, shares: Sequence[int]) -> tuple[int, ...]:
    """Coins by final place (first place first); the sum is exactly ``pot``."""
    if pot < 0:
        raise InvalidArgument("a prize pot is never negative")
    split = check_split(shares)
    paid = [pot * share // 100 for share in split]
    for place in range(pot - sum(paid)):
        paid[place % len(paid)] += 1
    return tuple(paid)
