"""Burraco bots (GAMES.md 8): they see their seat's view and the legal moves, no more.

- **easy** takes the pile when its top card fits the hand or the pile is big, else draws
  from the stock, lays the first meld it sees, attaches when it can and discards a card
  at random (never a wild it could keep);
- **medium** knows the standard tactics: it takes the pile when the top card fits its
  hand or the pile is rich, lays long natural melds before spending a wild, feeds its
  burraci, and discards the card its hand needs least, a wild never;
- **hard** also remembers the pile: which cards the opponents picked up, and the cards
  gone into the pile, and never discards a card that joins an opponent's meld or sits
  next to what they took (:mod:`~tavolo.cardgames.bots.rummy.memory`); it keeps a loose
  card by the live cards that would complete it (:mod:`~tavolo.cardgames.bots.rummy.outs`)
  and takes the pile from three cards up.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import Bot, pick_best
from tavolo.cardgames.bots.rummy.memory import PileMemory, danger, usefulness
from tavolo.cardgames.bots.rummy.outs import keep_values, unseen
from tavolo.cardgames.contract import JSON, View
from tavolo.cardgames.games.rummy.burraco_scoring import card_points
from tavolo.cardgames.games.rummy.melds import BURRACO_MELDS, is_wild
from tavolo.cardgames.rng import SeededRandom

RULES = BURRACO_MELDS
DANGER = 2.0  # live cards a discard is worth giving up rather than feed a rival
BIG_PILE = 8  # easy grabs a pile this long, as a beginner does


class EasyBurraco:
    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        kinds = {a.kind for a in legal}
        if ActionKind.DRAW in kinds:
            pile: list[str] = list(view.public["discard"])
            take = next((a for a in legal if a.kind is ActionKind.TAKE_DISCARD), None)
            fits = bool(pile) and usefulness(pile[-1], list(view.hand)) >= 2
            if take is not None and (len(pile) >= BIG_PILE or fits):
                return take
            return next(a for a in legal if a.kind is ActionKind.DRAW)
        plays = [a for a in legal if a.kind in (ActionKind.MELD, ActionKind.ATTACH)]
        if plays:
            return plays[0]
        discards = [a for a in legal if not is_wild(a.cards[0], RULES)] or list(legal)
        return discards[rng.randbelow(len(discards))]


class MediumBurraco:
    """Standard tactics; ``hard`` adds the memory of the pile."""

    remembers = False
    rich_pile = 4  # a pile this long is worth taking whatever its top card

    def __init__(self) -> None:
        self.memory = PileMemory()

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        public = view.public
        if self.remembers:
            self.memory.update(view)
        kinds = {a.kind for a in legal}
        hand = list(view.hand)
        if ActionKind.DRAW in kinds:
            return self._draw_or_take(hand, public, legal)
        play = self._best_play(hand, legal)
        if play is not None:
            return play
        discards = [a for a in legal if a.kind is ActionKind.DISCARD]
        scored = [(self._discard_score(a.cards[0], hand, public, view), a) for a in discards]
        return pick_best(scored, rng)

    def _draw_or_take(
        self, hand: list[str], public: Mapping[str, JSON], legal: Sequence[Action]
    ) -> Action:
        pile: list[str] = list(public["discard"])
        take = next((a for a in legal if a.kind is ActionKind.TAKE_DISCARD), None)
        if take is not None and pile:
            top = pile[-1]
            # A lone wild is worth a pile only to a hand that can still use it: two
            # players down to their wilds would otherwise pass one back and forth.
            wanted = is_wild(top, RULES) and len(hand) > 3
            if len(pile) >= self.rich_pile or wanted or usefulness(top, hand) >= 2:
                return take
        return next(a for a in legal if a.kind is ActionKind.DRAW)

    def _best_play(self, hand: list[str], legal: Sequence[Action]) -> Action | None:
        best: tuple[float, Action] | None = None
        wilds = sum(1 for c in hand if is_wild(c, RULES))
        for action in legal:
            if action.kind is ActionKind.ATTACH:
                card = action.cards[0]
                score = 50.0 if not is_wild(card, RULES) else (5.0 if len(hand) > 6 else 20.0)
            elif action.kind is ActionKind.MELD:
                cards = action.cards
                natural = all(not is_wild(c, RULES) for c in cards)
                score = 10.0 * len(cards) + (25.0 if natural else -15.0 + 5 * (wilds > 1))
                if not natural and len(cards) < 4 and len(hand) > 8:
                    continue
            else:
                continue
            if best is None or score > best[0]:
                best = (score, action)
        return best[1] if best is not None else None

    def _discard_score(
        self, card: str, hand: list[str], public: Mapping[str, JSON], view: View
    ) -> float:
        if is_wild(card, RULES):
            return -1000.0
        score = card_points(card) / 10 - 3.0 * usefulness(card, hand)
        if self.remembers:
            score -= 2.0 * danger(card, view, self.memory, RULES)
        return score


class HardBurraco(MediumBurraco):
    """Medium's tactics, with the pile remembered and the live cards counted for every
    loose card it keeps (a run-gap whose card is gone is not worth its points)."""

    remembers = True
    rich_pile = 3  # its biggest gain over medium: more cards to meld, and burraci sooner

    def __init__(self) -> None:
        super().__init__()
        self._keep: dict[str, float] = {}

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        if any(a.kind is ActionKind.DISCARD for a in legal):
            self.memory.update(view)  # the same view twice changes nothing
            pile = list(view.public["discard"])
            live = unseen(view.hand, view.public, pile, self.memory.taken_by_rivals)
            self._keep = keep_values(view.hand, live, RULES)
        return super().choose(view, legal, rng)

    def _discard_score(
        self, card: str, hand: list[str], public: Mapping[str, JSON], view: View
    ) -> float:
        if is_wild(card, RULES):
            return -1000.0
        keep = self._keep.get(card, 0.0)
        return card_points(card) / 10 - keep - DANGER * danger(card, view, self.memory, RULES)


BOTS: Mapping[str, Callable[[], Bot]] = {
    "easy": EasyBurraco,
    "medium": MediumBurraco,
    "hard": HardBurraco,
}
