"""Hearts bots at three levels, each choosing from the seat's view and legal actions only.

- **easy**: a novice (:mod:`~tavolo.cardgames.bots.tricks.novice`): passes its highest
  cards, ducks under the winning card, throws its costliest card when void, leads low.
- **medium**: passes the most dangerous cards (the Q♠, the A♠ and K♠ that catch it, high
  hearts); following, ducks under the card winning the trick (the highest card that does
  not win), or wins with its highest when it cannot duck; last to a trick with no points
  on it, takes it with its highest card (not the Q♠), shedding a card that would win a
  dearer trick later; void, it dumps the Q♠, then the A♠ or K♠ while the queen is out
  (they catch her), then its highest heart, then its highest card; leading, it leads its
  lowest card.
- **hard**: passes with purpose (voids a short suit, keeps the Q♠ behind five or more
  spades), remembers every card played and who showed out of a suit, leads low in suits
  where the Q♠ cannot fall on it, drops the Q♠ on whoever leads spades high, and shoots
  the moon with a hand strong enough, giving up as soon as someone else takes a point.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import Bot, Novice
from tavolo.cardgames.bots.tricks.novice import TrickNovice, TrickTaste, no_trumps
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.french_deck import full_deck, rank_of, suit_of
from tavolo.cardgames.games.tricks.core import CardOrder
from tavolo.cardgames.games.tricks.hearts import danger
from tavolo.cardgames.games.tricks.hearts_state import QUEEN_OF_SPADES, card_points
from tavolo.cardgames.rng import SeededRandom

_SPADE_CATCHERS = frozenset({"AS", "KS"})


def _card(action: Action) -> str:
    return action.cards[0]


def _winning(trick: Sequence[Mapping[str, Any]]) -> str:
    led = suit_of(trick[0]["card"])
    cards: list[str] = [c["card"] for c in trick if suit_of(c["card"]) == led]
    return max(cards, key=rank_of)


def pass_danger(card: str, hand: Sequence[str]) -> float:
    """How much medium wants rid of a card in the pass."""
    score = float(danger(card)[0] * 10 + rank_of(card))
    if card in _SPADE_CATCHERS:
        score += 20
    return score


def discard_order(card: str, hand: Sequence[str]) -> tuple[bool, bool, bool, int]:
    """What a void player throws first (the highest): the Q♠, then the A♠ or K♠ while
    someone else holds the queen they would catch, then hearts, then its highest card."""
    catcher = card in _SPADE_CATCHERS and QUEEN_OF_SPADES not in hand
    return (card == QUEEN_OF_SPADES, catcher, card_points(card) > 0, rank_of(card))


ORDER = CardOrder(
    suit={c: suit_of(c) for c in full_deck()}, strength={c: rank_of(c) for c in full_deck()}
)
POINTS = {c: card_points(c) for c in full_deck()}


class EasyBot(TrickNovice):
    """A beginner: passes its highest cards and plays the trick in front of it."""

    def __init__(self) -> None:
        super().__init__(TrickTaste(ORDER, POINTS, no_trumps, avoid=True))

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        if legal[0].kind is ActionKind.PASS_CARDS:
            return max(legal, key=lambda a: rank_of(_card(a)))
        return super().choose(view, legal, rng)


class MediumBot:
    """The standard defensive habits, no memory."""

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        if legal[0].kind is ActionKind.PASS_CARDS:
            return max(legal, key=lambda a: self.pass_score(_card(a), view.hand))
        return self.play(view, legal)

    def pass_score(self, card: str, hand: Sequence[str]) -> float:
        return pass_danger(card, hand)

    def play(self, view: View, legal: Sequence[Action]) -> Action:
        trick = view.public["trick"]
        cards = [_card(a) for a in legal]
        if not trick:
            choice = self.lead(view, cards)
        elif suit_of(cards[0]) == suit_of(trick[0]["card"]):
            choice = self.follow(view, cards, _winning(trick))
        else:
            choice = max(cards, key=lambda c: discard_order(c, view.hand))
        return next(a for a in legal if _card(a) == choice)

    def lead(self, view: View, cards: list[str]) -> str:
        return min(cards, key=lambda c: (rank_of(c), card_points(c)))

    def follow(self, view: View, cards: list[str], winning: str) -> str:
        trick = view.public["trick"]
        if len(trick) == 3 and not any(card_points(p["card"]) for p in trick):
            shed = [c for c in cards if c != QUEEN_OF_SPADES]
            if shed:  # a clean trick is ours for the taking: rid the hand of its highest
                return max(shed, key=rank_of)
        under = [c for c in cards if rank_of(c) < rank_of(winning)]
        if under:
            return max(under, key=rank_of)
        last = len(view.public["trick"]) == 3
        if last:
            return max(cards, key=rank_of)  # the trick is ours anyway: shed the highest
        safe = [c for c in cards if c != QUEEN_OF_SPADES]
        return min(safe or cards, key=rank_of)


class HardBot(MediumBot):
    """Medium's habits, plus memory of the hand and the moon."""

    def __init__(self) -> None:
        self.hand_no = 0
        self.played: set[str] = set()
        self.void: dict[int, set[str]] = {}
        self.shooting = False

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        self.observe(view)
        return super().choose(view, legal, rng)

    def observe(self, view: View) -> None:
        public = view.public
        if public["hand"] != self.hand_no:
            self.hand_no = public["hand"]
            self.played.clear()
            self.void.clear()
            self.shooting = False
        for trick in (public["last_trick"], public["trick"]):
            if not trick:
                continue
            led = suit_of(trick[0]["card"])
            for play in trick:
                self.played.add(play["card"])
                if suit_of(play["card"]) != led:
                    self.void.setdefault(play["seat"], set()).add(led)
        if public["phase"] == "play" and sum(public["tricks_won"]) == 0 and not public["trick"]:
            self.shooting = self.moon_worthy(view.hand)
        taken = public["points_taken"]
        if self.shooting and any(p for s, p in enumerate(taken) if s != view.seat):
            self.shooting = False  # someone else has a point: the moon is gone

    @staticmethod
    def moon_worthy(hand: Sequence[str]) -> bool:
        """Enough top cards to take every trick that carries points."""
        high = sum(1 for c in hand if rank_of(c) >= 12)
        hearts = [c for c in hand if suit_of(c) == "H"]
        return high >= 7 and len(hearts) >= 4 and all(rank_of(c) >= 10 for c in hearts[:3])

    def pass_score(self, card: str, hand: Sequence[str]) -> float:
        suit = suit_of(card)
        spades = sum(1 for c in hand if suit_of(c) == "S")
        score = pass_danger(card, hand)
        if card == QUEEN_OF_SPADES and spades >= 5:
            score -= 40  # five spades guard the queen: keep her to drop her later
        short = sum(1 for c in hand if suit_of(c) == suit)
        if suit in ("C", "D") and short <= 3:
            score += 15  # voiding a short suit lets us discard on it
        return score

    def lead(self, view: View, cards: list[str]) -> str:
        if self.shooting:
            return max(cards, key=rank_of)
        queen_out = QUEEN_OF_SPADES not in self.played and QUEEN_OF_SPADES not in view.hand

        def risk(card: str) -> tuple[int, int]:
            suit = suit_of(card)
            higher_unseen = sum(
                1
                for c in full_deck()
                if suit_of(c) == suit
                and rank_of(c) > rank_of(card)
                and c not in self.played
                and c not in view.hand
            )
            # A low spade draws the queen out onto someone else's higher spade.
            spade_bonus = -2 if suit == "S" and queen_out and rank_of(card) < 12 else 0
            return (card_points(card) * 5 - higher_unseen + spade_bonus, rank_of(card))

        return min(cards, key=risk)

    def follow(self, view: View, cards: list[str], winning: str) -> str:
        if self.shooting:
            return max(cards, key=rank_of)
        if QUEEN_OF_SPADES in cards and rank_of(winning) > 12:
            return QUEEN_OF_SPADES  # the A♠ or K♠ leads: drop the queen on it
        return super().follow(view, cards, winning)

    def play(self, view: View, legal: Sequence[Action]) -> Action:
        trick = view.public["trick"]
        cards = [_card(a) for a in legal]
        if self.shooting and trick and suit_of(cards[0]) != suit_of(trick[0]["card"]):
            choice = min(cards, key=lambda c: (card_points(c), rank_of(c)))
            return next(a for a in legal if _card(a) == choice)
        return super().play(view, legal)


BOTS: Mapping[str, Callable[[], Bot]] = {
    "easy": lambda: Novice(EasyBot()),
    "medium": MediumBot,
    "hard": HardBot,
}
