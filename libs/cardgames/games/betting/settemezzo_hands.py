"""Sette e mezzo hands (RULES §15): card values, the matta, the reale, busting, who wins
a punter's bet and what it pays, and the bet limits (SETTEMEZZO-4, 7, 8).

Pure functions on card codes of the Italian deck, written as the other Italian games
write them: rank ``A 2 … 7 F C R`` then suit ``C`` coppe, ``D`` denari, ``B`` bastoni,
``S`` spade. ``"RD"``, the Re di denari, is the *matta*.

Totals are counted in half points, so 7½ is 15 and nothing needs a fraction.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Final

MATTA: Final = "RD"
SETTE_E_MEZZO: Final = 15  # in half points
FIGURES: Final = frozenset("FCR")


def half_points(card: str) -> int:
    """A card's value in half points: A-7 at face value, F, C and R ½ (the matta alone)."""
    rank = card[:-1]
    if rank in FIGURES:
        return 1
    return 2 * (1 if rank == "A" else int(rank))


def total(cards: Sequence[str]) -> int:
    """The hand's total in half points. With other cards the matta counts whichever of
    ½, 1 … 7 gives the best total not over 7½ (RULES 15 **[decision]**: the engine
    picks); when none does, ½."""
    if MATTA not in cards:
        return sum(half_points(c) for c in cards)
    rest = sum(half_points(c) for c in cards if c != MATTA)
    if len(cards) == 1:
        return 1
    best = rest + 1
    for value in (1, *range(2, 15, 2)):
        if rest + value <= SETTE_E_MEZZO:
            best = max(best, rest + value)
    return best


def busted(cards: Sequence[str]) -> bool:
    return total(cards) > SETTE_E_MEZZO


def is_reale(cards: Sequence[str]) -> bool:
    """Exactly two cards making 7½: 7 + figure, matta + 7, matta + figure (SETTEMEZZO-8)."""
    return len(cards) == 2 and total(cards) == SETTE_E_MEZZO


@dataclass(frozen=True, slots=True)
class Settlement:
    """What one punter's bet comes to: chips from the banker to the punter (negative:
    to the banker), and whether the punter's reale takes the bank."""

    punter_gain: int
    takes_bank: bool


def settle(punter: Sequence[str], banker: Sequence[str], bet: int) -> Settlement:
    """SETTEMEZZO-5…8. A punter over 7½ has lost, whatever the banker does; a banker
    over 7½ pays every punter still standing; otherwise the higher total wins and equal
    totals go to the banker. A winning reale is paid double and takes the bank."""
    if busted(punter):
        return Settlement(-bet, False)
    mine = total(punter)
    if not busted(banker) and total(banker) >= mine:
        return Settlement(-bet, False)
    if is_reale(punter):
        return Settlement(2 * bet, True)
    return Settlement(bet, False)


def bet_range(
    banker_chips: int, placed: int, chips: int, min_bet: int, max_bet: int
) -> tuple[int, int] | None:
    """The bets a punter may place (SETTEMEZZO-4), or ``None`` to sit the hand out: from
    ``min_bet`` to ``max_bet``, never more than ⌊(banker's chips - 2 x bets already
    placed) ÷ 2⌋ nor more than the punter holds."""
    high = min(max_bet, (banker_chips - 2 * placed) // 2, chips)
    return (min_bet, high) if high >= min_bet else None


def bust_chance(cards: Sequence[str], unseen: Sequence[str]) -> float:
    """The chance that one more card, drawn from ``unseen``, takes the hand over 7½:
    what a punter weighs before asking for another card."""
    if not unseen:
        return 1.0
    return sum(1 for c in unseen if busted([*cards, c])) / len(unseen)
