"""Determinized Monte Carlo search: the hard level of games with hidden cards.

A seat cannot see the others' hands, so it guesses them: a game's hook deals the cards
its seat has not seen (only what its views showed and what it remembers from them) into
one possible *world*, consistent with everything seen, and plays it out. For each world
the searcher plays every candidate move, then the rest of the hand by a fast playout
policy, and keeps the average outcome of each candidate; the best average is the move.
The same worlds serve every candidate, so the luck of a guess cancels out between them.

The work is counted, not timed: ``budget`` card plays per move, shared out over the
candidates and the plays left in the hand, between ``MIN_WORLDS`` and ``MAX_WORLDS``
worlds. A move thus costs about the same everywhere, and the same generator state gives
the same move on any machine (a bot's play is fixed by its seed).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Protocol, TypeVar

from tavolo.cardgames.rng import SeededRandom

MIN_WORLDS = 3
MAX_WORLDS = 160
DEFAULT_BUDGET = 1000
"""Card plays simulated per move: a third of the 3,000 that took 7-11 ms at p99, to keep a
decision inside 10 ms (GAMES 8); the bot league prints hard's share against medium."""

W = TypeVar("W", bound="World")


class World(Protocol):
    """One guess at the hidden cards, played forward in place."""

    def copy(self: W) -> W: ...

    def plays_left(self) -> int:
        """Card plays until the hand ends (what a playout costs)."""

    def play(self, move: str) -> None:
        """The seat to move plays ``move``."""

    def play_out(self) -> None:
        """Every seat plays the playout policy's move to the hand's end."""

    def value(self) -> float:
        """How good the finished hand is for the searching seat (higher is better)."""


def best_move(
    candidates: Sequence[str],
    sample: Callable[[SeededRandom], World],
    rng: SeededRandom,
    budget: int = DEFAULT_BUDGET,
) -> str:
    """The candidate with the best average outcome over worlds drawn by ``sample``."""
    if len(candidates) == 1:
        return candidates[0]
    first = sample(rng)
    per_world = max(1, len(candidates) * first.plays_left())
    worlds = min(MAX_WORLDS, max(MIN_WORLDS, budget // per_world))
    totals = [0.0] * len(candidates)
    for n in range(worlds):
        world = first if n == 0 else sample(rng)
        for i, move in enumerate(candidates):
            played = world.copy()
            played.play(move)
            played.play_out()
            totals[i] += played.value()
    best = max(totals)
    top = [c for c, total in zip(candidates, totals, strict=True) if total == best]
    return top[rng.randbelow(len(top))] if len(top) > 1 else top[0]
