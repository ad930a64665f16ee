"""Uno bots at three levels, each choosing from the seat's view and legal actions only.

- **easy**: a novice (:mod:`~tavolo.cardgames.bots.shedding.novice`): a coloured card
  that fits before a wild, calls with its second-last card, and slips now and then.
- **medium**: calls UNO with the play, plays rather than draws, keeps wilds while a
  coloured card will do, turns the play to the colour it holds most, of two numbers
  plays the higher (a single round ranks the others by the points they hold), plays a
  honest wild +4 only, names the colour it holds most, plays a drawn card that fits, and
  accepts every wild +4.
- **hard**: medium's habits plus memory. From the public moves it learns which colours
  each opponent failed to follow (drew on them) and counts the cards still unseen; it
  attacks a next player who is close to going out (skip, reverse, +2, a colour they lack),
  sheds its costly cards first (a skip, reverse or +2 scores 20: before any number),
  heads-up plays a skip, reverse or +2 to play again, and
  challenges a wild +4 only when the odds that its player held the colour then in play
  are near-certain (above 95%): most players lay a +4 honestly, and a challenged honest
  +4 costs 2 more cards than accepting (a lower bar, 1 in 5, lost cards to medium).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from itertools import pairwise
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import Bot, Novice, pick_best
from tavolo.cardgames.bots.shedding.novice import SheddingNovice
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.shedding.deck import COLOUR_LETTERS, COLOUR_NAMES, DECK, POINTS
from tavolo.cardgames.rng import SeededRandom

_ATTACKS = frozenset({"skip", "rev", "+2", "W+4"})
_AGAIN = frozenset({"skip", "rev", "+2"})
"""Heads-up, these leave the turn with the player who laid them."""
ACTION_POINTS = 20
"""What a skip, reverse or +2 scores against its holder (a number scores its face)."""
CHALLENGE_ABOVE = 0.95
"""P(held the colour), counted from the unseen cards as if the +4 were laid at random, is
no chance of a bluff against a player who lays it honestly: challenge only near-sure."""


def _value(card: str) -> str:
    return card if card[0] == "W" else card[1:]


def _remaining(hand: Sequence[str], action: Action) -> list[str]:
    rest = list(hand)
    if action.cards and action.cards[0] in rest:
        rest.remove(action.cards[0])
    return rest


def _colour_counts(cards: Sequence[str]) -> Counter[str]:
    return Counter(COLOUR_NAMES[c[0]] for c in cards if c[0] != "W")


def _by_kind(legal: Sequence[Action], kind: ActionKind) -> list[Action]:
    return [a for a in legal if a.kind is kind]


def _calling(plays: Sequence[Action]) -> list[Action]:
    """Where a play may call UNO, only the calling plays: always call."""
    calling = [a for a in plays if a.call == "uno"]
    return calling or list(plays)


def _holds_colour_in_play(view: View) -> bool:
    colour = view.public["colour"]
    return colour is not None and any(c[0] == COLOUR_LETTERS[colour] for c in view.hand)


def _name_colour(view: View, legal: Sequence[Action]) -> Action:
    counts = _colour_counts(view.hand)
    return max(legal, key=lambda a: counts[str(a.colour)])


class MediumBot:
    """Sensible habits, no memory."""

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        return self.habits(view, legal, rng, self.score)

    def habits(
        self,
        view: View,
        legal: Sequence[Action],
        rng: SeededRandom,
        score: Callable[[View, Action], float],
    ) -> Action:
        """What both thinking levels do alike; ``score`` ranks the plays."""
        for action in legal:
            if action.kind is ActionKind.CALL and action.call == "uno":
                return action
        names = [a for a in legal if a.kind is ActionKind.CALL]
        if names:
            return _name_colour(view, names)
        if _by_kind(legal, ActionKind.ACCEPT):
            return self.answer_plus4(view, legal)
        plays = _calling(_by_kind(legal, ActionKind.PLAY))
        honest = not _holds_colour_in_play(view)
        plays = [a for a in plays if a.cards[0] != "W+4" or honest] or plays
        if not plays:
            rest = [a for a in legal if a.kind is not ActionKind.REORDER]
            return rest[0]
        return pick_best([(score(view, a), a) for a in plays], rng)

    def answer_plus4(self, view: View, legal: Sequence[Action]) -> Action:
        return _by_kind(legal, ActionKind.ACCEPT)[0]

    def score(self, view: View, action: Action) -> float:
        card = action.cards[0]
        score = 0.0
        if card[0] == "W":
            score -= 5.0  # keep wilds while a coloured card will do
        elif POINTS[card] < ACTION_POINTS:  # the higher number first: it scores against us
            score += POINTS[card] / 10
        colour = action.colour or COLOUR_NAMES.get(card[0])
        if colour is not None:  # stay in the colour it holds most: more plays to come
            score += _colour_counts(_remaining(view.hand, action))[colour] * 0.5
        return score


class HardBot(MediumBot):
    """Medium's habits, plus what the table has shown."""

    def __init__(self) -> None:
        self.lacks: dict[int, set[str]] = {}
        self.round = 0

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        self.observe(view)
        public = view.public
        seats = len(public["hand_sizes"])
        step = -1 if public["direction"] == "clockwise" else 1
        target = ((view.seat or 0) + step) % seats
        threat = public["hand_sizes"][target]
        lacks = self.lacks.get(target, set())
        unseen = self.unseen_colours(view)

        def score(v: View, action: Action) -> float:
            return self.score_hard(v, action, threat, lacks, unseen)

        return self.habits(view, legal, rng, score)

    def observe(self, view: View) -> None:
        public: Mapping[str, Any] = view.public
        if public["round"] != self.round:
            self.round = public["round"]
            self.lacks.clear()
        recent = public["recent"]
        for before, move in pairwise(recent):
            seat = move["seat"]
            if seat == view.seat or move["move"] != "draw" or before["colour"] is None:
                continue
            self.lacks.setdefault(seat, set()).add(before["colour"])
        for move in recent:
            if move["move"] == "play" and move["card"]:
                card = move["card"]
                colour = move["colour"] if card[0] == "W" else COLOUR_NAMES[card[0]]
                self.lacks.get(move["seat"], set()).discard(colour)

    @staticmethod
    def unseen_colours(view: View) -> Counter[str]:
        unseen = Counter(DECK)
        unseen.subtract(view.public["discard"])
        unseen.subtract(view.hand)
        colours: Counter[str] = Counter()
        for card, n in unseen.items():
            if n > 0 and card[0] != "W":
                colours[COLOUR_NAMES[card[0]]] += n
        return colours

    def answer_plus4(self, view: View, legal: Sequence[Action]) -> Action:
        """Challenge when the +4 player probably held the colour in play before it."""
        public = view.public
        recent = public["recent"]
        by = public.get("plus4_by")
        if by is None or len(recent) < 2:
            return super().answer_plus4(view, legal)
        before = recent[-2]["colour"]
        if before is None or before in self.lacks.get(by, set()):
            return super().answer_plus4(view, legal)
        unseen = self.unseen_colours(view)
        total = sum(unseen.values()) + 8  # wilds unseen, roughly
        share = unseen[before] / total if total else 0.0
        held = public["hand_sizes"][by]
        p_bluff = 1.0 - (1.0 - share) ** held
        if p_bluff > CHALLENGE_ABOVE:
            return _by_kind(legal, ActionKind.CHALLENGE)[0]
        return super().answer_plus4(view, legal)

    def score_hard(
        self, view: View, action: Action, threat: int, lacks: set[str], unseen: Counter[str]
    ) -> float:
        card = action.cards[0]
        value = _value(card)
        rest = _remaining(view.hand, action)
        score = 0.0
        if card[0] == "W":
            score -= 5.0  # a wild fits anything: keep it while a coloured card will do
            if len(view.hand) > 2 and threat > 2:
                score -= 5.0
        else:  # shed costly cards first, the action cards (20 points) before the numbers
            score += POINTS[card] / 10
        if len(view.public["hand_sizes"]) == 2 and value in _AGAIN and len(rest) > 1:
            score += 2.0  # heads-up, a skip, reverse or +2 plays again: shed one more
        if threat <= 2 and value in _ATTACKS:
            score += 6.0  # hold back a player close to going out
        colour = action.colour or COLOUR_NAMES.get(card[0])
        if colour is not None:
            held = _colour_counts(rest)[colour]
            score += held * 0.5
            if colour in lacks:
                score += 3.0 if threat <= 3 else 1.0
            score -= unseen[colour] * 0.05
            if action.colour is not None and held == 0:
                score -= 2.0
        return score


BOTS: Mapping[str, Callable[[], Bot]] = {
    "easy": lambda: Novice(SheddingNovice()),
    "medium": MediumBot,
    "hard": HardBot,
}
