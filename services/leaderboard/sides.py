"""Who plays with whom at a finished table, asked of the game's own rules.

Partnerships are fixed by the seats in every game that has them (Scopone, Briscola and
Tresette at four, Burraco at four, Spades), so a table dealt with default options at the
same number of seats tells them; the answer is kept per game and size.
"""

from __future__ import annotations

from functools import lru_cache

from tavolo.cardgames.registry import get_game
from tavolo.leaderboard.model import FinishedTable

_SEED = bytes(32)


@lru_cache(maxsize=256)
def sides_of(game: str, seats: int) -> tuple[frozenset[int], ...]:
    """The sides of ``game`` at ``seats`` seats; every seat alone when the rules cannot
    deal such a table (an unknown game, a size it does not offer)."""
    try:
        rules = get_game(game)
        state = rules.new_game(None, seats, _SEED)
        found: list[frozenset[int]] = []
        for seat in range(seats):
            side = frozenset(rules.partners(state, seat))
            if side not in found:
                found.append(side)
        return tuple(found)
    except Exception:  # any refusal of the rules means: no partnerships known
        return tuple(frozenset((s,)) for s in range(seats))


def table_sides(table: FinishedTable) -> tuple[frozenset[int], ...]:
    return sides_of(table.game, len(table.seats))
