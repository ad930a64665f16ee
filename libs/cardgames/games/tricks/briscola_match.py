"""Who wins a Briscola hand and when the match is over (RULES §5.5-5.6, §0 rules 11-14).

Pure functions over per-side figures, so the rule tests can state them directly.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavolo.cardgames.games.tricks.briscola_state import WINNING_POINTS


def hand_winner(points: Sequence[int]) -> int | None:
    """The side that wins a hand on its card points, or ``None`` for a drawn hand.

    Two sides: 61 of 120 wins, 60-60 is a draw (BRISCOLA-5). Three players: the most
    points wins; a shared top wins nobody the hand **[decision]**, as a draw does.
    """
    if len(points) == 2:
        winners = [side for side, p in enumerate(points) if p >= WINNING_POINTS]
        return winners[0] if winners else None
    best = max(points)
    top = [side for side, p in enumerate(points) if p == best]
    return top[0] if len(top) == 1 else None


def match_measure(hands: int, points: Sequence[int], hands_won: Sequence[int]) -> list[int]:
    """What ranks the sides: a single hand's card points (so three players sharing the
    most points share first place), else the hands won (BRISCOLA-6)."""
    return list(points) if hands == 1 else list(hands_won)


def decided(hands: int, played: int, measure: Sequence[int], hands_won: Sequence[int]) -> bool:
    """Whether the match is over after ``played`` hands: all are played, or the leader can
    no longer be caught in the hands left (BRISCOLA-6 **[decision]**)."""
    if played >= hands:
        return True
    if hands == 1:
        return True
    left = hands - played
    ordered = sorted(hands_won, reverse=True)
    return ordered[0] > ordered[1] + left


def tied_at_top(measure: Sequence[int]) -> tuple[int, ...]:
    """The sides sharing the best measure (one side: nobody is tied)."""
    best = max(measure)
    top = tuple(side for side, m in enumerate(measure) if m == best)
    return top if len(top) > 1 else ()
