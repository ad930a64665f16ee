"""Briscola bots at three levels; they see only their seat's view and legal actions.

- easy: any legal card (:class:`~tavolo.cardgames.bots.base.RandomBot`);
- medium: the standard tactics with no memory: lead a *liscio* (a card worth nothing),
  take a trick worth taking with the cheapest card that wins it, save trumps for loads,
  load (*caricare*) an A or a 3 on a trick the partner is sure to win, otherwise give the
  cheapest card;
- hard: the same tactics judged by what is left: it remembers every card played
  (:class:`~tavolo.cardgames.bots.trick_memory.TrickMemory`), so it knows when a card is
  the master of its suit, whether a later player can still overtake, how many trumps are
  out, and it leads a load that nothing left can beat; once the stock is gone at two it
  knows the opponent's hand and plays the last tricks perfectly.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import Bot, RandomBot, pick_best
from tavolo.cardgames.bots.trick_endgame import best_endgame_card
from tavolo.cardgames.bots.trick_memory import TrickMemory
from tavolo.cardgames.contract import View
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.briscola_state import ORDER, POINTS, REMOVED_FOR_THREE
from tavolo.cardgames.games.tricks import beats, winning_play
from tavolo.cardgames.rng import SeededRandom

_PLAYS = {c: Action(ActionKind.PLAY, cards=(c,)) for c in italian_cards.DECK}


class BriscolaBot:
    """Medium or hard Briscola play (see the module docstring)."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.memory = TrickMemory() if level == "hard" else None

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        public = view.public
        if self.memory is not None:
            self.memory.observe(public)
        for action in legal:
            if action.kind is ActionKind.TAKE:  # the turned card is always worth more
                return action
        cards = [a.cards[0] for a in legal]
        situation = _Situation(view, self._unseen(view))
        other = situation.other_hand()
        if other is not None:
            return _PLAYS[
                best_endgame_card(
                    situation.seat,
                    situation.hand,
                    other,
                    situation.trick,
                    situation.trumps,
                    ORDER,
                    POINTS,
                    follow=False,
                )
            ]
        scored = [(situation.value(c), _PLAYS[c]) for c in cards]
        return pick_best(scored, rng)

    def _unseen(self, view: View) -> set[str] | None:
        """Cards neither played, nor in hand, nor face up: the hard bot's reckoning."""
        if self.memory is None:
            return None
        public = view.public
        removed = {REMOVED_FOR_THREE} if len(public["hand_sizes"]) == 3 else set()
        face_up = {public["turned"]} if public["turned"] else set()
        known = self.memory.played() | set(view.hand) | face_up | removed
        return set(italian_cards.DECK) - known


class _Situation:
    """One decision: the trick so far, who is still to play, what may be out."""

    def __init__(self, view: View, unseen: set[str] | None) -> None:
        public: Any = view.public
        self.seat = int(view.seat or 0)
        self.hand = tuple(view.hand)
        self.n = len(public["hand_sizes"])
        self.trumps: str = public["trumps"]
        self.trick = [(int(p["seat"]), str(p["card"])) for p in public["trick"]]
        self.unseen = unseen
        self.stock = int(public["stock_size"])
        self.hand_sizes = list(public["hand_sizes"])
        self.side = [s for side in public["sides"] if self.seat in side for s in side]
        self.after = self.n - len(self.trick) - 1  # players still to play after this seat

    def other_hand(self) -> tuple[str, ...] | None:
        """The opponent's hand, when the hard bot can know it: two players, no stock."""
        if self.unseen is None or self.n != 2 or self.stock:
            return None
        if len(self.unseen) != self.hand_sizes[1 - self.seat]:
            return None
        return tuple(sorted(self.unseen))

    # -- judging cards --------------------------------------------------------------

    def value(self, card: str) -> float:
        """Points this card is expected to bring the side, less what it costs to spend."""
        cost = self.spend_cost(card)
        if not self.trick:
            return self.lead_value(card) - cost
        points = sum(POINTS[c] for _, c in self.trick)
        winner_seat, best = winning_play(self.trick, ORDER, self.trumps)
        led = ORDER.suit[self.trick[0][1]]
        if beats(card, best, led, self.trumps, ORDER):
            return self.win_chance(card) * (points + 2 * POINTS[card]) - POINTS[card] - cost
        if winner_seat in self.side:
            hold = self.win_chance(best)
            return hold * POINTS[card] - (1 - hold) * POINTS[card] - cost
        return -POINTS[card] - cost

    def lead_value(self, card: str) -> float:
        """Leading: a liscio gives nothing away; a load is led only when it cannot lose."""
        if self.unseen is not None and self.masters(card):
            return POINTS[card] * 0.5
        return -POINTS[card] * (0.5 if ORDER.suit[card] == self.trumps else 1.0)

    def spend_cost(self, card: str) -> float:
        """What playing a trump throws away: a trump wins a later load. Cheaper when few
        tricks are left to use it in, or (hard) when many trumps are already gone."""
        if ORDER.suit[card] != self.trumps:
            return ORDER.strength[card] * 0.05
        base = 3.0 + ORDER.strength[card] * 0.6
        if self.unseen is not None:
            out = sum(1 for c in self.unseen if ORDER.suit[c] == self.trumps)
            base *= 0.5 + min(out, 6) / 12
        if self.stock == 0:
            base *= 0.5
        return base

    def win_chance(self, card: str) -> float:
        """How sure a card now winning is to keep the trick. The last to play is sure;
        medium guesses for the others, hard asks whether anything left can beat it."""
        if self.after == 0:
            return 1.0
        if self.unseen is None:
            return 0.6
        led = ORDER.suit[self.trick[0][1]] if self.trick else ORDER.suit[card]
        threats = sum(1 for c in self.unseen if beats(c, card, led, self.trumps, ORDER))
        return float((1.0 - self.share_of_rivals_after()) ** threats)

    def share_of_rivals_after(self) -> float:
        """The chance that a given unseen card sits with an opponent still to play."""
        assert self.unseen is not None
        if not self.unseen:
            return 0.0
        later = [(self.seat + i) % self.n for i in range(1, self.after + 1)]
        held = sum(int(self.hand_sizes[s]) for s in later if s not in self.side)
        return min(1.0, held / len(self.unseen))

    def masters(self, card: str) -> bool:
        """Whether nothing left unseen can beat ``card`` led now."""
        assert self.unseen is not None
        led = ORDER.suit[card]
        return not any(beats(c, card, led, self.trumps, ORDER) for c in self.unseen)


def _factory(level: str) -> Callable[[], Bot]:
    return lambda: BriscolaBot(level)


BOTS: dict[str, Callable[[], Bot]] = {
    "easy": RandomBot,
    "medium": _factory("medium"),
    "hard": _factory("hard"),
}
