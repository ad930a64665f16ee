"""Pika bots at three levels, each choosing from the seat's view and legal actions only.

- **easy**: a novice (:mod:`~tavolo.cardgames.bots.shedding.novice`): a coloured card
  that fits before a wild, calls with its second-last card, and slips now and then.
- **medium**: calls Pika with the play, chains every stack it can (a +2 before a +4),
  keeps black cards while a coloured card will do, and names the colour it holds most.
- **hard**: medium's habits plus memory. From the public moves in its views it notes which
  colours each opponent has just failed to play (drew instead) or named with a black card;
  from the discard pile and its hand it counts the cards still unseen. It attacks a next
  player who is close to going out (skips, reverses, stacks, a colour they lack), heads-up
  plays a skip, reverse or +2 to play again, keeps a black card it has just drawn (medium
  plays it at once) while it holds more than two cards, since it fits anything later and
  a +4 answers a stack, and never keeps a +2/+4 as its last card, since going out on one
  can send the stack back (PIKA-9).
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import Bot, Novice, pick_best
from tavolo.cardgames.bots.shedding.novice import SheddingNovice
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.shedding.deck import COLOUR_NAMES, DECK
from tavolo.cardgames.rng import SeededRandom

_ATTACKS = frozenset({"skip", "rev", "+2", "W+4"})
_AGAIN = frozenset({"skip", "rev", "+2"})
"""Heads-up, these leave the turn with the player who laid them (a +2 taken ends the
taker's turn)."""


def _value(card: str) -> str:
    return card if card[0] == "W" else card[1:]


def _remaining(hand: Sequence[str], action: Action) -> list[str]:
    rest = list(hand)
    if action.cards and action.cards[0] in rest:
        rest.remove(action.cards[0])
    return rest


def _colour_counts(cards: Sequence[str]) -> Counter[str]:
    return Counter(COLOUR_NAMES[c[0]] for c in cards if c[0] != "W")


def _calling(legal: Sequence[Action]) -> list[Action]:
    """When a play may call Pika, only the calling plays (and non-plays): always call."""
    if any(a.call == "pika" for a in legal):
        return [a for a in legal if a.call == "pika" or a.kind is not ActionKind.PLAY]
    return list(legal)


class MediumBot:
    """Sensible habits, no memory."""

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        for action in legal:
            if action.kind is ActionKind.CALL:
                return action
        options = _calling(legal)
        plays = [a for a in options if a.kind is ActionKind.PLAY]
        if not plays:
            return options[0]
        return pick_best([(self.score(view, a), a) for a in plays], rng)

    def score(self, view: View, action: Action) -> float:
        card = action.cards[0]
        score = 0.0
        if view.public["stack"]:
            score += 1.0 if card != "W+4" else 0.0  # chain with the cheaper card first
        elif card[0] == "W":
            score -= 5.0  # keep black cards while a coloured card will do
        if action.colour is not None:
            score += _colour_counts(_remaining(view.hand, action))[action.colour] * 0.5
        return score


@dataclass(slots=True)
class Memory:
    """What the hard bot has learnt from public moves so far, per opponent."""

    seen: int = 0
    round: int = 0
    lacks: dict[int, set[str]] = field(default_factory=dict)
    named: dict[int, str] = field(default_factory=dict)

    def observe(self, view: View) -> None:
        public: Mapping[str, Any] = view.public
        if public["round"] != self.round:
            self.round, self.seen = public["round"], 0
            self.lacks.clear()
            self.named.clear()
        for move in public["recent"]:
            if move["no"] <= self.seen:
                continue
            self.seen = move["no"]
            seat, kind = move["seat"], move["move"]
            if seat == view.seat:
                continue
            lacks = self.lacks.setdefault(seat, set())
            if kind == "draw":
                lacks.add(move["colour"])  # drew instead of playing: no card of that colour
            elif kind == "play" and move["card"]:  # a reshuffled card is no longer named
                card = move["card"]
                if card[0] == "W":
                    self.named[seat] = move["colour"]
                    lacks.discard(move["colour"])
                else:
                    lacks.discard(COLOUR_NAMES[card[0]])
            elif kind in ("take", "penalty") and move["count"] >= 2:
                lacks.clear()  # a handful of new cards: anything goes again


class HardBot:
    """Medium's habits, plus card counting and a read on the next player."""

    def __init__(self) -> None:
        self.memory = Memory()

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        self.memory.observe(view)
        for action in legal:
            if action.kind is ActionKind.CALL:
                return action
        options = _calling(legal)
        plays = [a for a in options if a.kind is ActionKind.PLAY]
        if not plays:
            return options[0]
        keep = [a for a in options if a.kind is ActionKind.KEEP]
        if keep and len(view.hand) > 2 and all(a.cards[0][0] == "W" for a in plays):
            return keep[0]  # a drawn black card fits anything later and answers a stack
        public = view.public
        seats = len(public["hand_sizes"])
        step = -1 if public["direction"] == "clockwise" else 1
        target = ((view.seat or 0) + step) % seats
        threat = public["hand_sizes"][target]
        lacks = self.memory.lacks.get(target, set())
        unseen = Counter(DECK)
        unseen.subtract(public["discard"])
        unseen.subtract(view.hand)
        unseen_colours: Counter[str] = Counter()
        for card, n in unseen.items():
            if n > 0 and card[0] != "W":
                unseen_colours[COLOUR_NAMES[card[0]]] += n
        scored = [(self.score(view, a, threat, lacks, unseen_colours), a) for a in plays]
        return pick_best(scored, rng)

    def score(
        self, view: View, action: Action, threat: int, lacks: set[str], unseen: Counter[str]
    ) -> float:
        card = action.cards[0]
        value = _value(card)
        rest = _remaining(view.hand, action)
        score = 0.0
        if view.public["stack"]:
            score += 1.0 if card != "W+4" else 0.0
        elif card[0] == "W" and len(view.hand) > 2:
            score -= 5.0
        if len(rest) == 1 and _value(rest[0]) in ("+2", "W+4"):
            score -= 8.0  # never keep a +2/+4 as the last card (PIKA-9)
        if threat <= 2 and value in _ATTACKS:
            score += 6.0  # hold back a player close to going out
        if len(view.public["hand_sizes"]) == 2 and value in _AGAIN and len(rest) > 1:
            score += 2.0  # heads-up, a skip, reverse or +2 plays again: shed one more
        colour = action.colour or COLOUR_NAMES.get(card[0])
        if colour is not None:
            held = _colour_counts(rest)[colour]
            score += held * 0.5
            if colour in lacks:
                score += 3.0 if threat <= 3 else 1.0
            # A colour with few cards unseen is one the others are unlikely to hold.
            score -= unseen[colour] * 0.05
            if action.colour is not None and held == 0:
                score -= 2.0
        if value.isdigit():
            score += 0.1 * int(value) / 9  # shed the costlier numbers first (match points)
        return score


BOTS: Mapping[str, Callable[[], Bot]] = {
    "easy": lambda: Novice(SheddingNovice()),
    "medium": MediumBot,
    "hard": HardBot,
}
