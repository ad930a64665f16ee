"""Poker all'italiana bots at three levels; they see only their seat's view and legal
actions.

- easy: plays its hand by category alone: opens with the minimum whenever it may, calls
  holding the minimum or better, never raises, keeps its pairs at the change;
- medium: values its hand as a percentile of final hands (after the change, for the
  first round), wins with about ``p ** k`` against ``k`` opponents, and weighs that
  against the pot odds: calls when the chance beats the price, bets and raises for
  value in proportion to the pot, draws to flushes and straights;
- hard: also reads the others: an opening promises the minimum, a bet or raise
  promises more the larger it is against the pot, and the number of cards changed
  says what was kept (none: a made hand; three: a pair). Each opponent's percentile is
  taken to be at least what its actions promise, and the chance is counted against that.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import Bot
from tavolo.cardgames.bots.betting import poker_odds
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.betting import poker_hands
from tavolo.cardgames.rng import SeededRandom

CHECK, CALL, FOLD = Action(ActionKind.CHECK), Action(ActionKind.CALL_BET), Action(ActionKind.FOLD)
CHANGE_PROMISES = {0: 0.7, 1: 0.45, 2: 0.6, 3: 0.3, 4: 0.0}
"""Hard's reading of a change: the least percentile a player keeping this many cards
out holds (standing pat: a made hand; one: two pair or a draw; two: three of a kind)."""


def amounts(legal: Sequence[Action], kind: ActionKind) -> list[int]:
    return [a.amount for a in legal if a.kind is kind and a.amount is not None]


def sized(legal: Sequence[Action], kind: ActionKind, target: float) -> Action | None:
    """The legal ``kind`` whose amount is nearest ``target``."""
    offered = amounts(legal, kind)
    if not offered:
        return None
    return Action(kind, amount=min(offered, key=lambda a: (abs(a - target), a)))


def discard(hand: Sequence[str], low: int, draws: bool) -> Action:
    out = set(poker_odds.best_change(hand, low, draws))
    return Action(ActionKind.DISCARD, cards=tuple(c for c in hand if c in out))


class EasyPokerBot:
    """Plays its hand by category alone (see the module docstring)."""

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        public: Any = view.public
        low = int(public["lowest_rank"])
        if legal[0].kind is ActionKind.DISCARD:
            return discard(view.hand, low, draws=False)
        if CHECK in legal and not view.hand:
            return CHECK  # the blind: never
        good = poker_hands.opens(view.hand, low, poker_hands.ACE - 3)
        if CHECK in legal:
            opening = sized(legal, ActionKind.BET, 0)
            return opening if opening is not None and good else CHECK
        return CALL if good else FOLD


def warm_odds() -> None:
    """Build the odds tables of every table size now, once a process, so no decision
    pays for them (about 0.1 s each, which the first decision used to take)."""
    for players in range(2, 7):
        poker_odds.final_hands(poker_hands.lowest_rank(players))


class PokerBot:
    """Medium or hard (see the module docstring)."""

    def __init__(self, level: str) -> None:
        self.hard = level == "hard"
        warm_odds()

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        public: Any = view.public
        low = int(public["lowest_rank"])
        if legal[0].kind is ActionKind.DISCARD:
            return discard(view.hand, low, draws=True)
        if not view.hand:
            return CHECK  # the blind: a bet on nothing
        win = self.win_chance(view, rng)
        pot = int(public["pot"])
        owed = int(public["to_call"])
        if CHECK in legal:
            live = sum(1 for f in public["folded"] if not f)
            wanted = 0.8 / live if public["phase"] == "first_round" else 0.5
            if win > wanted:
                opening = sized(legal, ActionKind.BET, pot * (0.4 + win * 0.5))
                if opening is not None:
                    return opening
            return CHECK
        price = owed / (pot + owed)
        if win > 0.75:
            raising = sized(legal, ActionKind.RAISE, (pot + owed) * win * 0.6)
            if raising is not None:
                return raising
        return CALL if win >= price else FOLD

    def win_chance(self, view: View, rng: SeededRandom) -> float:
        public: Any = view.public
        low = int(public["lowest_rank"])
        seat = int(view.seat or 0)
        first = public["phase"] == "first_round"
        mine = (
            poker_odds.expected_percentile(view.hand, low, rng)
            if first
            else poker_odds.hand_percentile(view.hand, low)
        )
        chance = 1.0
        for s, folded in enumerate(public["folded"]):
            if s == seat or folded:
                continue
            floor = self.promised(view, s) if self.hard else 0.0
            if mine <= floor:
                chance *= 0.15 * mine
            else:
                chance *= (mine - floor) / (1.0 - floor)
        return chance

    def promised(self, view: View, seat: int) -> float:
        """The least percentile ``seat``'s actions so far promise (hard)."""
        public: Any = view.public
        low = int(public["lowest_rank"])
        floor = 0.0
        if public["opener"] == seat and not public["blind"]:
            floor = 0.7 * poker_odds.pair_percentile(int(public["minimum"]), low)
        changed = public["changed"][seat]
        if changed is not None:
            floor = max(floor, CHANGE_PROMISES[int(changed)])
        put = int(public["round_bets"][seat])
        before = int(public["pot"]) - sum(int(b) for b in public["round_bets"])
        if put > 0:
            ratio = min(1.5, put / max(1, before))
            floor = max(floor, min(0.85, 0.15 + 0.5 * ratio))
        return floor


def _factory(level: str) -> Callable[[], Bot]:
    return lambda: PokerBot(level)


BOTS: dict[str, Callable[[], Bot]] = {
    "easy": EasyPokerBot,
    "medium": _factory("medium"),
    "hard": _factory("hard"),
}
