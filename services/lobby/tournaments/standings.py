"""Final places of a finished bracket and the coins each player is paid (PCG-7).

The champion is first and the finalist second; the losers of each earlier round share a
place (both semi-final losers are third, the quarter-final losers fifth). Players sharing
a place pool the prizes of the places they cover and split the pool evenly, the remainder
going one coin at a time in player-id order, so the escrow still ends at exactly zero.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from tavolo.lobby.tournaments.bracket import Bracket
from tavolo.lobby.tournaments.prizes import prizes
from tavolo.servicekit.errors import FailedPrecondition


def final_places(bracket: Bracket) -> dict[str, int]:
    """Player → place, once the final is decided."""
    champion = bracket.champion
    if champion is None:
        raise FailedPrecondition("the final is not decided yet")
    places = {champion: 1}
    for round_ in range(len(bracket.rounds) - 1, -1, -1):
        losers = [
            side
            for m in bracket.rounds[round_]
            for side in (m.a, m.b)
            if side is not None and side != m.winner and side not in places
        ]
        place = len(bracket.rounds[round_]) + 1
        for loser in losers:
            places[loser] = place
    return places


def payouts(pot: int, shares: Sequence[int], places: Mapping[str, int]) -> dict[str, int]:
    """Coins by player for ``places``; players without a prize are left out."""
    by_place = list(prizes(pot, shares)) + [0] * len(places)
    paid: dict[str, int] = {}
    for place in sorted(set(places.values())):
        group = sorted(p for p, at in places.items() if at == place)
        pool = sum(by_place[place - 1 : place - 1 + len(group)])
        share, remainder = divmod(pool, len(group))
        for i, player in enumerate(group):
            coins = share + (1 if i < remainder else 0)
            if coins:
                paid[player] = coins
    return paid
