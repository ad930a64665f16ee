"""A betting round of Poker all'italiana and the pots it leaves (RULES §14, POKER-6, 7,
10; §0 rule 15): pure arithmetic on frozen data, so the rules module reads as the rules.

Amounts: a ``BET(amount=n)`` puts ``n`` chips in; a ``RAISE(amount=n)`` calls, then adds
``n`` more (the increase). A bet is at least ``min_bet``; a raise increases by at least
``min_bet`` and the previous increase; pot limit: after calling, no bet exceeds the pot.
Nobody puts in more than they hold: a short stack calls or bets all it has (all-in), and
the side pots below sort out who can win what.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace


@dataclass(frozen=True)
class Round:
    """One betting round: who has yet to speak and what each seat has put in it."""

    bet: int  # the highest amount put in this round
    increase: int  # the last bet or raise's increase: the least the next raise adds
    put: tuple[int, ...]  # per seat, chips put in this round
    to_speak: tuple[int, ...]  # seats still to act, in speaking order


def open_round(seats: int, speakers: Sequence[int]) -> Round:
    return Round(bet=0, increase=0, put=(0,) * seats, to_speak=tuple(speakers))


def to_call(rnd: Round, seat: int) -> int:
    return rnd.bet - rnd.put[seat]


def bet_range(pot: int, chips: int, min_bet: int) -> tuple[int, int]:
    """The smallest and largest opening bet: ``min_bet`` up to the pot, or all-in when
    the seat holds less than ``min_bet``."""
    high = min(chips, max(min_bet, pot))
    return min(min_bet, chips), high


def raise_range(rnd: Round, seat: int, pot: int, chips: int, min_bet: int) -> tuple[int, int]:
    """The smallest and largest increase over the call (pot limit: the pot after the call);
    a stack too short for the smallest raises all-in. Empty (low > high) when the seat
    cannot raise at all."""
    call = to_call(rnd, seat)
    left = chips - call
    if left <= 0:
        return 1, 0
    least = max(min_bet, rnd.increase)
    most = min(left, max(least, pot + call))
    return min(least, left), most


def put_in(rnd: Round, seat: int, amount: int) -> Round:
    put = list(rnd.put)
    put[seat] += amount
    return replace(rnd, put=tuple(put))


def after_bet(
    rnd: Round, seat: int, amount: int, can_act: Callable[[int], bool], order: Sequence[int]
) -> Round:
    """``seat`` bets or raises to ``rnd.put[seat] + amount``: everyone else who can still
    act must speak again, in ``order`` after the bettor."""
    rnd = put_in(rnd, seat, amount)
    total = rnd.put[seat]
    increase = max(rnd.increase, total - rnd.bet)
    start = order.index(seat)
    again = [order[(start + i) % len(order)] for i in range(1, len(order))]
    return replace(
        rnd, bet=total, increase=increase, to_speak=tuple(s for s in again if can_act(s))
    )


def spoke(rnd: Round, seat: int) -> Round:
    """``seat`` checked, called or folded: it is done until someone raises."""
    return replace(rnd, to_speak=tuple(s for s in rnd.to_speak if s != seat))


@dataclass(frozen=True)
class Pot:
    """One pot of the showdown: its chips and the seats that may win it."""

    chips: int
    eligible: tuple[int, ...]


def side_pots(contributed: Sequence[int], folded: Sequence[bool], dead: int) -> list[Pot]:
    """The main pot and the side pots (POKER-7): each all-in level caps what its seat can
    win from every other seat. ``dead`` chips (pots carried from deals nobody opened, and
    what folded seats put in beyond every live seat) belong to the main pot and the top
    pot respectively, so every chip is won."""
    live = [s for s in range(len(contributed)) if not folded[s]]
    levels = sorted({contributed[s] for s in live})
    pots: list[Pot] = []
    below = 0
    for level in levels:
        chips = sum(min(c, level) - min(c, below) for c in contributed)
        eligible = tuple(s for s in live if contributed[s] >= level)
        pots.append(Pot(chips, eligible))
        below = level
    beyond = sum(max(0, c - below) for c in contributed)
    if pots:
        pots[0] = replace(pots[0], chips=pots[0].chips + dead)
        pots[-1] = replace(pots[-1], chips=pots[-1].chips + beyond)
    return [p for p in pots if p.chips > 0]
