"""Briscola bots at three levels; they see only their seat's view and legal actions.

- easy: a novice (:mod:`~tavolo.cardgames.bots.tricks.novice`): takes a trick with points
  on it with its cheapest winning card, else throws or leads its cheapest card;
- medium: the standard tactics with no memory: lead a *liscio* (a card worth nothing),
  take a trick worth taking with the cheapest card that wins it, save trumps for loads,
  load (*caricare*) an A or a 3 on a trick the partner is sure to win, otherwise give the
  cheapest card;
- hard: searches. It remembers every card played
  (:class:`~tavolo.cardgames.bots.tricks.memory.TrickMemory`) and who holds the turned
  card once it is drawn, deals the cards it has not seen into many possible hands and
  stocks, and plays each of its cards through every one of them
  (:mod:`~tavolo.cardgames.bots.tricks.determinized`), keeping the card that wins the hand most
  often: so it plays loads and trumps by what is left. Once the stock is gone at two it
  knows the opponent's hand and plays the last tricks perfectly. Should its memory not
  account for every card (a bot seated in the middle of a hand), it plays the medium
  tactics judged by the cards it did see.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import Bot, Novice, pick_best
from tavolo.cardgames.bots.tricks.determinized import best_move
from tavolo.cardgames.bots.tricks.endgame import best_endgame_card
from tavolo.cardgames.bots.tricks.memory import TrickMemory
from tavolo.cardgames.bots.tricks.novice import TrickNovice, TrickTaste, trumps_in_view
from tavolo.cardgames.bots.tricks.world import (
    STOCK,
    TrickRules,
    TrickWorld,
    deal_unseen,
    finished_piles,
)
from tavolo.cardgames.contract import View
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.tricks.briscola_state import (
    ORDER,
    POINTS,
    REMOVED_FOR_THREE,
    WINNING_POINTS,
)
from tavolo.cardgames.games.tricks.core import beats, card_points, winning_play
from tavolo.cardgames.rng import SeededRandom

_PLAYS = {c: Action(ActionKind.PLAY, cards=(c,)) for c in italian_cards.DECK}


class BriscolaBot:
    """Medium or hard Briscola play (see the module docstring)."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.memory = TrickMemory() if level == "hard" else None
        self.turned: tuple[int, str] | None = None  # (hand, card) last seen turned
        self.holder: int | None = None  # who drew the turned card, once drawn

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        public = view.public
        if self.memory is not None:
            self.memory.observe(public)
            self._follow_turned(public)
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
        if self.memory is not None and len(cards) > 1:
            sample = self._sampler(view)
            if sample is not None:
                return _PLAYS[best_move(cards, sample, rng)]
        scored = [(situation.value(c), _PLAYS[c]) for c in cards]
        return pick_best(scored, rng)

    def _follow_turned(self, public: Any) -> None:
        """Remember the turned card and, once the stock is gone, who drew it: the last
        of the final draw, which the trick's winner began."""
        hand = int(public["hand_no"])
        if public["turned"]:
            self.turned, self.holder = (hand, str(public["turned"])), None
            return
        last = public["last_trick"]
        if self.turned is None or self.turned[0] != hand:
            self.turned = None
        elif self.holder is None and public["stock_size"] == 0 and last:
            n = len(public["hand_sizes"])
            self.holder = (int(last["winner"]) + n - 1) % n

    def _sampler(self, view: View) -> Callable[[SeededRandom], TrickWorld] | None:
        """Deals of the unseen cards consistent with the view and memory (``None`` when
        memory does not account for every card)."""
        assert self.memory is not None
        public: Any = view.public
        seat, n = int(view.seat or 0), len(public["hand_sizes"])
        trumps: str = public["trumps"]
        played = self.memory.played()
        fixed: dict[int, list[str]] = {}
        turned = public["turned"]
        holder = self.holder
        if not turned and self.turned is not None and holder is not None and holder != seat:
            card = self.turned[1]
            if card not in played and card not in view.hand:
                fixed[holder] = [card]
        known = played | set(view.hand) | {c for held in fixed.values() for c in held}
        known |= {REMOVED_FOR_THREE} if n == 3 else set()
        known |= {turned} if turned else set()
        unseen = [c for c in italian_cards.DECK if c not in known]
        places = {
            s: int(public["hand_sizes"][s]) - len(fixed.get(s, ())) for s in range(n) if s != seat
        }
        places[STOCK] = int(public["stock_size"]) - (1 if turned else 0)
        if sum(places.values()) != len(unseen) or min(places.values()) < 0:
            return None
        rules = TrickRules(
            order=ORDER,
            trumps=trumps,
            follow=False,
            worth=POINTS,
            side=[s % 2 if n == 4 else s for s in range(n)],
            score=_hand_score(seat, n),
            trump_cost=3.0,
        )
        trick = [(int(p["seat"]), str(p["card"])) for p in public["trick"]]
        piles = finished_piles(self.memory.tricks(), n, ORDER, trumps)

        def sample(rng: SeededRandom) -> TrickWorld:
            dealt = deal_unseen(unseen, places, {}, ORDER.suit, rng)
            hands = [
                list(view.hand) if s == seat else [*fixed.get(s, ()), *dealt[s]] for s in range(n)
            ]
            stock = [turned, *dealt[STOCK]] if turned else dealt[STOCK]
            piles_now = [list(p) for p in piles]
            return TrickWorld(rules, hands, stock, list(trick), seat, piles_now, seat)

        return sample

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


def _hand_score(seat: int, n: int) -> Callable[[list[list[str]], int], float]:
    """A finished hand's worth to ``seat``: winning it (61 of 120 at two sides, the most
    points at three) counts most; the margin breaks ties between cards."""
    side = [s % 2 if n == 4 else s for s in range(n)]

    def score(piles: list[list[str]], last_winner: int) -> float:
        points = [0] * (2 if n == 4 else n)
        for s, pile in enumerate(piles):
            points[side[s]] += card_points(pile, POINTS)
        mine = points[side[seat]]
        rival = max(p for i, p in enumerate(points) if i != side[seat])
        if len(points) == 2:
            won = 1.0 if mine >= WINNING_POINTS else 0.5 if mine == rival else 0.0
        else:
            won = 1.0 if mine > rival else 0.5 if mine == rival else 0.0
        return won + 0.25 * (mine - rival) / 120

    return score


def _factory(level: str) -> Callable[[], Bot]:
    return lambda: BriscolaBot(level)


BOTS: dict[str, Callable[[], Bot]] = {
    "easy": lambda: Novice(TrickNovice(TrickTaste(ORDER, POINTS, trumps_in_view))),
    "medium": _factory("medium"),
    "hard": _factory("hard"),
}
