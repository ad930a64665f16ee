"""Scala 40 bots (GAMES.md 8): they see their seat's view and the legal moves, no more.

- **easy** draws from the stock, opens with the first melds it finds once they reach
  40, lays and attaches what it can, and discards at random (a joker never);
- **medium** plans its opening (the richest melds first), takes the pozzo card when it
  opens with it or, once open, when it fits, and discards the costliest card its hand
  needs least;
- **hard** also remembers the pozzo: the cards the next players took, and never
  discards a card that fits a meld on the table or what they picked up
  (:mod:`~tavolo.cardgames.bots.rummy.memory`); it keeps a loose card by the live cards
  that would complete it (:mod:`~tavolo.cardgames.bots.rummy.outs`), high cards before it
  opens and low ones after, and takes the pozzo card whenever it joins a meld on the
  table (a card played for nothing).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import Bot, pick_best
from tavolo.cardgames.bots.rummy.memory import PileMemory, danger, usefulness
from tavolo.cardgames.bots.rummy.outs import keep_values, unseen
from tavolo.cardgames.contract import JSON, View
from tavolo.cardgames.games.rummy.deck import JOKER, pretty
from tavolo.cardgames.games.rummy.meld_search import melds_in_hand
from tavolo.cardgames.games.rummy.melds import SCALA40_MELDS, Meld, attach, read_meld
from tavolo.cardgames.games.rummy.scala40_scoring import OPENING, card_penalty, meld_value
from tavolo.cardgames.rng import SeededRandom

RULES = SCALA40_MELDS
DANGER = 2.0  # live cards a discard is worth giving up rather than feed a rival


def opening_plan(hand: Sequence[str], must: str | None = None) -> list[tuple[str, ...]]:
    """Melds for an opening, richest first and greedily disjoint (with ``must`` in the
    first one when given); the caller checks whether they reach 40."""
    left = Counter(hand)
    plan: list[tuple[str, ...]] = []
    while True:
        options = []
        for cards, _ in melds_in_hand(left.elements(), RULES):
            if must is not None and not plan and must not in cards:
                continue
            meld = read_meld(cards, RULES)
            if isinstance(meld, Meld):
                jokers = cards.count(JOKER)
                options.append((meld_value(meld) - 8 * jokers, cards, meld_value(meld)))
        if not options:
            return plan
        _, best, _ = max(options)
        plan.append(best)
        left.subtract(best)
        left = +left


def plan_value(plan: Sequence[tuple[str, ...]]) -> int:
    total = 0
    for cards in plan:
        meld = read_meld(cards, RULES)
        if isinstance(meld, Meld):
            total += meld_value(meld)
    return total


class EasyScala40:
    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        kinds = {a.kind for a in legal}
        if ActionKind.DRAW in kinds:
            return next(a for a in legal if a.kind is ActionKind.DRAW)
        public = view.public
        seat = view.seat if view.seat is not None else 0
        if not public["opened"][seat]:
            chosen = _opening_step(view, legal)
            if chosen is not None:
                return chosen
        else:
            plays = [a for a in legal if a.kind in (ActionKind.MELD, ActionKind.ATTACH)]
            if plays:
                return plays[0]
        if ActionKind.PASS in kinds and ActionKind.DISCARD not in kinds:
            return next(a for a in legal if a.kind is ActionKind.PASS)
        discards = [a for a in legal if a.kind is ActionKind.DISCARD and a.cards[0] != JOKER]
        if not discards:
            discards = [a for a in legal if a.kind in (ActionKind.DISCARD, ActionKind.PASS)]
        return discards[rng.randbelow(len(discards))]


def _opening_step(view: View, legal: Sequence[Action]) -> Action | None:
    """The next meld of an opening worth 40 (pending melds count); ``PASS`` when an
    opening under way cannot reach it; ``None`` to play on without opening."""
    public = view.public
    taken = public.get("pozzo_card_taken")
    so_far = int(public.get("opening_so_far", 0))
    hand = list(view.hand)
    must = _code_of(taken, hand) if taken else None
    if must is not None and so_far and any(must in m["cards"] for m in _pending(public)):
        must = None
    plan = opening_plan(hand, must)
    total = so_far + plan_value(plan)
    melds = {a.cards: a for a in legal if a.kind is ActionKind.MELD}
    whole = len(hand) - sum(len(p) for p in plan) <= 1
    if plan and (total >= OPENING or whole) and plan[0] in melds:
        return melds[plan[0]]
    if so_far >= OPENING and must is None:
        return None  # a discard opens
    if (so_far or must is not None) and any(a.kind is ActionKind.PASS for a in legal):
        return next(a for a in legal if a.kind is ActionKind.PASS)
    return None


def _pending(public: Mapping[str, JSON]) -> list[Mapping[str, JSON]]:
    return [m for m in public.get("melds", []) if m.get("pending")]


def _code_of(shown: object, hand: Sequence[str]) -> str | None:
    """The code of the pozzo card the view names for people (``"7♥"``)."""
    return next((c for c in hand if pretty(c) == shown), None)


class MediumScala40:
    remembers = False

    def __init__(self) -> None:
        self.memory = PileMemory()

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        public = view.public
        if self.remembers:
            self.memory.update(_as_pile(view))
        seat = view.seat if view.seat is not None else 0
        opened = bool(public["opened"][seat])
        hand = list(view.hand)
        kinds = {a.kind for a in legal}
        if ActionKind.DRAW in kinds:
            return self._draw_or_take(view, hand, opened, legal)
        if not opened:
            step = _opening_step(view, legal)
            if step is not None:
                return step
        else:
            play = self._best_play(legal)
            if play is not None:
                return play
        discards = [a for a in legal if a.kind is ActionKind.DISCARD]
        if not discards:
            return next(a for a in legal if a.kind is ActionKind.PASS)
        scored = [(self._discard_score(a.cards[0], hand, view), a) for a in discards]
        return pick_best(scored, rng)

    def _draw_or_take(
        self, view: View, hand: list[str], opened: bool, legal: Sequence[Action]
    ) -> Action:
        pozzo = list(view.public["pozzo"])
        take = next((a for a in legal if a.kind is ActionKind.TAKE_DISCARD), None)
        if take is not None and pozzo:
            top = pozzo[-1]
            if opened:
                with_top = [c for c in melds_in_hand([*hand, top], RULES) if top in c[0]]
                if with_top or top == JOKER:
                    return take
            else:
                plan = opening_plan([*hand, top], must=top)
                if plan and plan_value(plan) >= OPENING and top in plan[0]:
                    return take
        return next(a for a in legal if a.kind is ActionKind.DRAW)

    def _best_play(self, legal: Sequence[Action]) -> Action | None:
        best: tuple[float, Action] | None = None
        for action in legal:
            if action.kind is ActionKind.MELD:
                score = 10.0 * len(action.cards) - 12.0 * action.cards.count(JOKER)
            elif action.kind is ActionKind.ATTACH:
                score = 40.0 if action.cards[0] != JOKER else 5.0
            else:
                continue
            if best is None or score > best[0]:
                best = (score, action)
        return best[1] if best is not None else None

    def _discard_score(self, card: str, hand: list[str], view: View) -> float:
        if card == JOKER:
            return -1000.0
        score = card_penalty(card, alone=False) / 3 - 4.0 * usefulness(card, hand)
        if self.remembers:
            score -= 2.0 * danger(card, _as_pile(view), self.memory, RULES)
        return score


def _joins_table(card: str, view: View) -> bool:
    """Whether ``card`` can be added at once to a meld on the table."""
    for shown in view.public.get("melds", []):
        if shown.get("pending"):
            continue
        meld = read_meld(tuple(shown["cards"]), RULES)
        if isinstance(meld, Meld) and not isinstance(attach(meld, card, None, RULES), str):
            return True
    return False


def _as_pile(view: View) -> View:
    """The view with the pozzo under the name the shared pile memory reads, and every
    meld on the table counted as a rival's (anyone may add to it in Scala 40)."""
    public = dict(view.public)
    public["discard"] = public.get("pozzo", [])
    public["melds"] = [[m for m in public.get("melds", []) if not m.get("pending")]]
    public["sides"] = [[]]
    return View(seat=view.seat, hand=view.hand, public=public)


class HardScala40(MediumScala40):
    """Medium's plan, with the pozzo remembered, the live cards counted for every loose
    card it keeps, and the pozzo card taken whenever it goes straight onto the table."""

    remembers = True

    def __init__(self) -> None:
        super().__init__()
        self._keep: dict[str, float] = {}

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        if any(a.kind is ActionKind.DISCARD for a in legal):
            self.memory.update(_as_pile(view))  # the same view twice changes nothing
            pozzo = list(view.public.get("pozzo", []))
            live = unseen(view.hand, view.public, pozzo, self.memory.taken_by_rivals)
            self._keep = keep_values(view.hand, live, RULES)
        return super().choose(view, legal, rng)

    def _draw_or_take(
        self, view: View, hand: list[str], opened: bool, legal: Sequence[Action]
    ) -> Action:
        pozzo = list(view.public["pozzo"])
        take = next((a for a in legal if a.kind is ActionKind.TAKE_DISCARD), None)
        if take is not None and pozzo and opened and _joins_table(pozzo[-1], view):
            return take
        return super()._draw_or_take(view, hand, opened, legal)

    def _discard_score(self, card: str, hand: list[str], view: View) -> float:
        if card == JOKER:
            return -1000.0
        seat = view.seat if view.seat is not None else 0
        opened = bool(view.public["opened"][seat])
        keep = self._keep.get(card, 0.0)
        # Once open, what is left in hand is the penalty; before, high cards open sooner.
        worth = card_penalty(card, alone=False) / 10
        score = (worth if opened else -worth) - keep
        return score - DANGER * danger(card, _as_pile(view), self.memory, RULES)


BOTS: Mapping[str, Callable[[], Bot]] = {
    "easy": EasyScala40,
    "medium": MediumScala40,
    "hard": HardScala40,
}
