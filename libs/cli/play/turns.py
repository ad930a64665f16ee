"""Whose turn it is, and who comes after, in words every renderer shares.

Seat numbers say nothing about direction to a player: "clockwise" at Tavolo's tables
passes the turn from seat s to s-1 (RULES §0.3), which reads as 2, 1, 0, 3. So a turn
line names the seats in the order they will play instead of trusting a direction word.
"""

from __future__ import annotations

from collections.abc import Sequence

CLOCKWISE = -1
"""The seat step of clockwise play: s, s-1, s-2 ..."""
ANTICLOCKWISE = 1

DIRECTION_WORDS = {CLOCKWISE: "clockwise", ANTICLOCKWISE: "anticlockwise"}


def seats_from(start: int, seats: int, step: int) -> list[int]:
    """Every seat once, in playing order from ``start``."""
    return [(start + step * i) % seats for i in range(seats)]


def turn_line(turn: int, me: int | None, names: Sequence[str], step: int, doing: str) -> str:
    """``Waiting for Bot 2 to play; then Bot 1, You, Bot 3 (clockwise).``"""
    order = seats_from(turn, len(names), step)
    head = f"Your turn to {doing}" if turn == me else f"Waiting for {names[turn]} to {doing}"
    then = ", ".join(names[s] for s in order[1:])
    return f"{head}; then {then} ({DIRECTION_WORDS[step]})."
