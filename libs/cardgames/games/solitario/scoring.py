"""Klondike scoring (RULES 16.5, SOLITARIO-5): standard and Vegas, and the timed bonus.

Standard scoring never goes below 0; Vegas starts at -52 and may. Standard's recycle
cost and Vegas's card values are RULES **[decision]**s; the fixtures 28 and 29 pin them.
"""

from __future__ import annotations

from typing import Final

STANDARD: Final = "standard"
VEGAS: Final = "vegas"

WASTE_TO_COLUMN: Final = 5
TO_FOUNDATION: Final = 10
TURN_UP: Final = 5
FOUNDATION_TO_COLUMN: Final = -15
DRAW1_RECYCLE: Final = -100
DRAW3_FREE_RECYCLES: Final = 2
DRAW3_RECYCLE: Final = -20

VEGAS_START: Final = -52
VEGAS_PER_CARD: Final = 5

TICK_SECONDS: Final = 10
TICK_PENALTY: Final = -2
BONUS_AFTER_SECONDS: Final = 30
BONUS_NUMERATOR: Final = 700_000


def starting_score(scoring: str) -> int:
    return VEGAS_START if scoring == VEGAS else 0


def move_points(scoring: str, source: str, target: str, turned_up: int) -> int:
    """Points for one move between piles (``source``/``target`` as the piles are named:
    ``waste``, ``t1``…, ``fS``…) that turned up ``turned_up`` face-down cards."""
    to_foundation = target.startswith("f")
    from_foundation = source.startswith("f")
    if scoring == VEGAS:
        return VEGAS_PER_CARD * (int(to_foundation) - int(from_foundation))
    points = TURN_UP * turned_up
    if to_foundation:
        points += TO_FOUNDATION
    elif from_foundation:
        points += FOUNDATION_TO_COLUMN
    elif source == "waste":
        points += WASTE_TO_COLUMN
    return points


def recycle_points(scoring: str, draw: int, recycles_before: int) -> int:
    """The cost of turning the waste over, given how many recycles came before."""
    if scoring == VEGAS:
        return 0
    if draw == 1:
        return DRAW1_RECYCLE
    return 0 if recycles_before < DRAW3_FREE_RECYCLES else DRAW3_RECYCLE


def passes_allowed(scoring: str, draw: int) -> int | None:
    """Passes through the stock: Vegas allows one with draw-1 and three with draw-3;
    standard scoring allows any number (``None``)."""
    if scoring == VEGAS:
        return 1 if draw == 1 else 3
    return None


def add(scoring: str, score: int, points: int) -> int:
    """``score + points``, floored at 0 under standard scoring."""
    total = score + points
    return total if scoring == VEGAS else max(0, total)


def timed_bonus(seconds: int) -> int:
    """The bonus of a timed win: ⌊700000 ÷ seconds⌋ after more than 30 seconds."""
    return BONUS_NUMERATOR // seconds if seconds > BONUS_AFTER_SECONDS else 0
