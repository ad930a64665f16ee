"""The prizes of a finished tournament (PCG-7): the one computation, from the coins the
escrow holds (pure: no I/O).

A split is a table of percentage shares by final place (``(100,)``: winner takes all;
``(60, 30, 10)``). Each place gets its share of the pot rounded down; the coins left over
go one at a time to the places in order (first place first). Players sharing a place (both
semi-final losers are third) pool the prizes of the places they cover (third and fourth)
and split the pool evenly, the remainder one coin at a time in player-id order. A shared
place covers as many places as it has players, counted after the better places (the
places a knock-out bracket gives are numbered so: 1, 2, 3, 3, 5, 5, 5, 5 ...).

**[decision]** A split may pay more places than a tournament ends up with entrants (the
lobby refuses a split with more shares than the tournament's maximum, but fewer may
register): the prizes of places nobody holds go to the champion. Every coin of the pot is
paid, so the escrow always ends at exactly zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence


def by_place(pot: int, split: Sequence[int]) -> tuple[int, ...]:
    """Coins by final place (first place first); the sum is exactly ``pot``."""
    if pot < 0:
        raise ValueError(f"a prize pot is never negative: {pot}")
    shares = tuple(split)
    if not shares or any(s <= 0 for s in shares) or sum(shares) != 100:
        raise ValueError(f"a split is positive percentages summing to 100, not {shares}")
    paid = [pot * share // 100 for share in shares]
    for place in range(pot - sum(paid)):
        paid[place % len(paid)] += 1
    return tuple(paid)


def tournament_prizes(pot: int, split: Sequence[int], places: Mapping[str, int]) -> dict[str, int]:
    """Coins by player (every player of ``places``, 0 for most); the sum is ``pot``."""
    if not places:
        raise ValueError("a tournament's prizes need its entrants' places")
    prizes = list(by_place(pot, split)) + [0] * len(places)
    paid: dict[str, int] = {}
    covered = 0  # places taken by the better groups: a group covers the next len(group)
    for place in sorted(set(places.values())):
        group = sorted(p for p, at in places.items() if at == place)
        pool = sum(prizes[covered : covered + len(group)])
        covered += len(group)
        share, remainder = divmod(pool, len(group))
        for i, player in enumerate(group):
            paid[player] = share + (1 if i < remainder else 0)
    best = min(places.values())
    champion = min(p for p, at in places.items() if at == best)
    paid[champion] += sum(prizes[covered:])  # the prizes of places nobody holds
    return paid
