"""Bestia bots at three levels; they see only their seat's view and legal actions.

- easy: a novice: plays a hand holding a trump or an ace, never goes al buio, takes a
  trick with its cheapest winning card, else throws its cheapest
  (:mod:`~tavolo.cardgames.bots.tricks.novice`);
- medium: the standard tactics: plays a hand when the trick money it expects beats the
  bestia it risks (this hand's pot, times the chance of taking nothing), its share of the
  tricks judged against the players who have declared and half of those still to, and
  any hand as the last to decide with nobody playing, for a lone player takes the whole
  pot unplayed; it goes al buio with a hand that holds nothing, takes a trick with the
  cheapest card that wins it, otherwise throws the weakest card, and leads the strongest;
- hard: weighs the chips as medium does, but counts every player still to decide as a
  rival (the cautious reading, which keeps it out of more bestie); in play
  it remembers every card seen, so it knows which cards are masters and how likely a
  later player is to overtake.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import Bot, Novice, pick_best
from tavolo.cardgames.bots.tricks.memory import TrickMemory
from tavolo.cardgames.bots.tricks.novice import TrickNovice, TrickTaste, trumps_in_view
from tavolo.cardgames.contract import View
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.tricks.bestia_state import TRICKS
from tavolo.cardgames.games.tricks.briscola_state import ORDER
from tavolo.cardgames.games.tricks.core import beats, winning_play
from tavolo.cardgames.rng import SeededRandom

_PLAYS = {c: Action(ActionKind.PLAY, cards=(c,)) for c in italian_cards.DECK}
PLAYS, PASSES = Action(ActionKind.PLAY), Action(ActionKind.PASS)
GOES_BLIND, KEEPS = Action(ActionKind.DRAW), Action(ActionKind.KEEP)


def trick_chance(card: str, trumps: str) -> float:
    """A rough chance that ``card`` takes a trick, before anything is played."""
    rank, trump = card[:-1], card[-1] == trumps
    if trump:
        return {"A": 0.95, "3": 0.9, "R": 0.7, "C": 0.6, "F": 0.5}.get(rank, 0.35)
    return {"A": 0.55, "3": 0.35, "R": 0.15}.get(rank, 0.03)


def hand_chances(hand: Sequence[str], trumps: str) -> list[float]:
    return [trick_chance(c, trumps) for c in hand]


AVERAGE_HAND = 3 * sum(trick_chance(c, "C") for c in italian_cards.DECK) / len(italian_cards.DECK)
"""What an unknown hand is worth in trick chances, for weighing the rivals."""


class BestiaBot:
    """Medium or hard Bestia (see the module docstring)."""

    def __init__(self, level: str) -> None:
        self.hard = level == "hard"
        self.memory = TrickMemory() if self.hard else None

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        public: Any = view.public
        if self.memory is not None:
            self.memory.observe(public)
        if PLAYS in legal:
            return PLAYS if self.wants_to_play(view) else PASSES
        if KEEPS in legal:
            chances = hand_chances(view.hand, public["trumps"])
            return GOES_BLIND if GOES_BLIND in legal and max(chances) < 0.3 else KEEPS
        cards = [a.cards[0] for a in legal]
        return pick_best([(self.value(view, c), _PLAYS[c]) for c in cards], rng)

    def wants_to_play(self, view: View) -> bool:
        public: Any = view.public
        chances = hand_chances(view.hand, public["trumps"])
        seat = int(view.seat or 0)
        declared = public["declared"]
        rivals = sum(1 for s, d in enumerate(declared) if d and s != seat)
        undecided = sum(1 for s, d in enumerate(declared) if d is None and s != seat)
        if rivals == 0 and undecided == 0:
            return True  # alone, the whole pot is taken unplayed
        # medium guesses half of those still to decide will play; hard counts them all,
        # the cautious reading that keeps it out of more bestie
        expected_rivals = rivals + (1.0 if self.hard else 0.5) * undecided
        mine = sum(chances)
        share_of_tricks = mine / (mine + expected_rivals * AVERAGE_HAND)
        pot = int(public["pot"])
        chips = int(public["chips"][seat])
        gain = TRICKS * share_of_tricks * (pot // TRICKS)
        risk = (1.0 - share_of_tricks) ** TRICKS * min(pot, chips)
        return gain > risk

    def value(self, view: View, card: str) -> float:
        public: Any = view.public
        trumps: str = public["trumps"]
        trick = [(int(p["seat"]), str(p["card"])) for p in public["trick"]]
        keep = ORDER.strength[card] * 0.02 + (0.5 if card[-1] == trumps else 0.0)
        if not trick:
            return self.hold_chance(view, card, trick) * 2 + ORDER.strength[card] * 0.01
        _, best = winning_play(trick, ORDER, trumps)
        led = ORDER.suit[trick[0][1]]
        if beats(card, best, led, trumps, ORDER):
            return 1.0 + self.hold_chance(view, card, trick) - keep
        return -keep

    def hold_chance(self, view: View, card: str, trick: list[tuple[int, str]]) -> float:
        """How likely ``card``, winning now, keeps the trick: sure when last to play;
        hard counts the unseen cards that beat it, medium guesses by its rank."""
        public: Any = view.public
        trumps: str = public["trumps"]
        active = [s for s, d in enumerate(public["declared"]) if d]
        after = len(active) - len(trick) - 1
        if after <= 0:
            return 1.0
        led = ORDER.suit[trick[0][1]] if trick else ORDER.suit[card]
        if self.memory is None:
            return trick_chance(card, trumps)
        seen = self.memory.played() | set(view.hand) | {public["turned"]}
        unseen = [c for c in italian_cards.DECK if c not in seen]
        threats = sum(1 for c in unseen if beats(c, card, led, trumps, ORDER))
        held_after = after * len(view.hand)
        share = min(1.0, held_after / max(1, len(unseen)))
        return float((1.0 - share) ** threats)


BESTIA_TRICKS = {c: 1 for c in italian_cards.DECK}
"""Every Bestia trick pays alike, whatever its cards."""


class EasyBestia(TrickNovice):
    """A beginner: plays any hand with a trump or an ace in it, keeps it, and takes
    what tricks it can with its cheapest winning card."""

    def __init__(self) -> None:
        super().__init__(TrickTaste(ORDER, BESTIA_TRICKS, trumps_in_view))

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        if PLAYS in legal:
            trumps = view.public["trumps"]
            good = any(c[-1] == trumps or c[:-1] == "A" for c in view.hand)
            return PLAYS if good else PASSES
        if KEEPS in legal:
            return KEEPS
        return super().choose(view, legal, rng)


def _factory(level: str) -> Callable[[], Bot]:
    return lambda: BestiaBot(level)


BOTS: dict[str, Callable[[], Bot]] = {
    "easy": lambda: Novice(EasyBestia()),
    "medium": _factory("medium"),
    "hard": _factory("hard"),
}
