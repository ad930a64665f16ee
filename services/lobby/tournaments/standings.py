"""Final places of a finished bracket (PCG-7).

The champion is first and the finalist second; the losers of each earlier round share a
place (both semi-final losers are third, the quarter-final losers fifth). The coins each
place earns are the wallet's to compute, from the fees it escrowed (``TournamentPaid``).
"""

from __future__ import annotations

from tavolo.lobby.tournaments.bracket import Bracket
from tavolo.servicekit.errors import FailedPrecondition


def final_places(bracket: Bracket) -> dict[str, int]:
    """Player → place, once the final is decided."""
    champion = bracket.champion
    if champion is None:
        raise FailedPrecondition("the final is not decided yet", reason="MATCH_STATE")
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
