"""Tresette a vincere bots at three levels; they see only their seat's view.

- easy: a novice (:mod:`~tavolo.cardgames.bots.tricks.novice`): declares what it holds,
  takes a trick with points on it with its cheapest winning card, else plays its cheapest;
- medium: the novice's sense of the trick with the standard tactics it lacks, no memory:
  load the points on a trick the partner holds for sure (with a 3, or playing last),
  never overtake the partner otherwise, and let a trick go rather than spend more
  points on it than it holds (:func:`medium_card`);
- hard: searches. It remembers every card played and which suits each player has shown
  it lacks, deals the cards it has not seen into many possible hands (and stocks) that
  agree with all of that, and plays each of its cards through every one of them
  (:mod:`~tavolo.cardgames.bots.tricks.determinized`), keeping the card that scores best on
  average; at two players with no stock it knows the other hand and plays the end
  perfectly. Should its memory not account for every card (a bot seated in the middle
  of a hand), it plays the medium tactics judged by the cards it did see.

The same judging, turned round to *avoid* points, drives the Ciapanò bots
(:mod:`~tavolo.cardgames.bots.tricks.ciapano`).
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import Bot, Novice, pick_best
from tavolo.cardgames.bots.tricks.determinized import best_move
from tavolo.cardgames.bots.tricks.endgame import best_endgame_card
from tavolo.cardgames.bots.tricks.memory import TrickMemory
from tavolo.cardgames.bots.tricks.novice import TrickNovice, TrickTaste, no_trumps
from tavolo.cardgames.bots.tricks.world import (
    STOCK,
    Score,
    TrickRules,
    TrickWorld,
    deal_unseen,
    finished_piles,
    voids,
)
from tavolo.cardgames.contract import View
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.tricks.core import winning_play
from tavolo.cardgames.games.tricks.tresette_cards import ORDER, THIRDS, pile_points
from tavolo.cardgames.rng import SeededRandom

_PLAYS = {c: Action(ActionKind.PLAY, cards=(c,)) for c in italian_cards.DECK}
LAST_TRICK = 3  # thirds: the last trick is worth a whole point
ENDGAME_CARDS = 4  # searched to the end from this many cards each (a few ms)


class TrickSight:
    """One decision in a no-trump, follow-suit trick game: the trick so far, who is still
    to play, and (for a bot with memory) which cards are still out."""

    def __init__(self, view: View, unseen: set[str] | None) -> None:
        public: Any = view.public
        self.seat = int(view.seat or 0)
        self.hand = tuple(view.hand)
        self.n = len(public["hand_sizes"])
        self.trick = [(int(p["seat"]), str(p["card"])) for p in public["trick"]]
        self.unseen = unseen
        self.stock = int(public["stock_size"])
        self.hand_sizes = list(public["hand_sizes"])
        self.side = {s for side in public["sides"] if self.seat in side for s in side}
        self.after = self.n - len(self.trick) - 1
        self.last = len(self.hand) == 1 and self.stock == 0
        self.shown: list[list[str]] = [list(held) for held in public["shown"]]
        self.later = [(self.seat + i) % self.n for i in range(1, self.after + 1)]

    def trick_thirds(self) -> int:
        return sum(THIRDS[c] for _, c in self.trick) + (LAST_TRICK if self.last else 0)

    def wins_now(self, card: str) -> bool:
        if not self.trick:
            return True
        _, best = winning_play(self.trick, ORDER, None)
        suit = ORDER.suit
        return suit[card] == suit[best] and ORDER.strength[card] > ORDER.strength[best]

    def hold_chance(self, card: str) -> float:
        """How likely ``card``, now winning, keeps the trick: sure when nobody is left to
        play; hard counts the higher cards of the suit still out, medium guesses."""
        if self.after == 0:
            return 1.0
        if self.shown_higher(card):
            return 0.0
        higher = self.higher_out(card)
        if higher is None:
            return 1.0 if card[:-1] == "3" else 0.5
        return (1.0 - self.share_after()) ** higher

    def share_after(self) -> float:
        """The chance that a given unseen card is held by a player still to play."""
        assert self.unseen is not None
        if not self.unseen:
            return 0.0
        held = sum(int(self.hand_sizes[s]) - len(self.shown[s]) for s in self.later)
        return min(1.0, held / len(self.unseen))

    def shown_higher(self, card: str) -> bool:
        """Whether a player still to play is known to hold a card that beats ``card``
        (two players show each other what they draw)."""
        suit, strength = ORDER.suit[card], ORDER.strength[card]
        return any(
            ORDER.suit[c] == suit and ORDER.strength[c] > strength
            for s in self.later
            for c in self.shown[s]
        )

    def higher_out(self, card: str) -> int | None:
        """Unseen cards of the suit that beat ``card`` (``None``: no memory)."""
        if self.unseen is None:
            return None
        suit, strength = ORDER.suit[card], ORDER.strength[card]
        return sum(1 for c in self.unseen if ORDER.suit[c] == suit and ORDER.strength[c] > strength)

    def other_hand(self) -> tuple[str, ...] | None:
        """The other hand at two players with no stock, which memory then pins down."""
        if self.unseen is None or self.n != 2 or self.stock:
            return None
        other = self.unseen | set(self.shown[1 - self.seat])
        if len(other) != self.hand_sizes[1 - self.seat]:
            return None
        return tuple(sorted(other))


def tresette_sampler(
    memory: TrickMemory, view: View, removed: set[str], score: Score, *, avoid: bool
) -> Callable[[SeededRandom], TrickWorld] | None:
    """Deals of the unseen cards into the others' hands and the stock that agree with the
    view (cards shown stay with their holder) and memory (no seat gets a suit it has
    shown it lacks); ``None`` when memory does not account for every card."""
    public: Any = view.public
    seat, n = int(view.seat or 0), len(public["hand_sizes"])
    shown: list[list[str]] = [list(held) for held in public["shown"]]
    known = memory.played() | set(view.hand) | {c for held in shown for c in held} | removed
    unseen = [c for c in italian_cards.DECK if c not in known]
    places = {s: int(public["hand_sizes"][s]) - len(shown[s]) for s in range(n) if s != seat}
    places[STOCK] = int(public["stock_size"])
    if sum(places.values()) != len(unseen) or min(places.values()) < 0:
        return None
    side = [next(i for i, seats in enumerate(public["sides"]) if s in seats) for s in range(n)]
    rules = TrickRules(ORDER, None, True, THIRDS, side, score, avoid=avoid)
    tricks = memory.tricks()
    lacking = voids(tricks, ORDER.suit)
    lacking.pop(seat, None)
    trick = [(int(p["seat"]), str(p["card"])) for p in public["trick"]]
    piles = finished_piles(tricks, n, ORDER, None)

    def sample(rng: SeededRandom) -> TrickWorld:
        dealt = deal_unseen(unseen, places, lacking, ORDER.suit, rng)
        hands = [list(view.hand) if s == seat else [*shown[s], *dealt[s]] for s in range(n)]
        return TrickWorld(
            rules, hands, dealt[STOCK], list(trick), seat, [list(p) for p in piles], seat
        )

    return sample


def side_score(seat: int, sides: list[list[int]]) -> Score:
    """Tresette a vincere: the side's points less the other's, a hand's 11 as one."""
    mine = next(i for i, side in enumerate(sides) if seat in side)

    def score(piles: list[list[str]], last_winner: int) -> float:
        points = [
            pile_points(c for s in side for c in piles[s]) + (1 if last_winner in side else 0)
            for side in sides
        ]
        return (2 * points[mine] - sum(points)) / 11

    return score


def unseen_cards(memory: TrickMemory | None, view: View, removed: set[str]) -> set[str] | None:
    """Cards neither played, nor held, nor shown, nor out of the deck."""
    if memory is None:
        return None
    shown = {c for held in view.public["shown"] for c in held}
    known = memory.played() | set(view.hand) | shown | removed
    return set(italian_cards.DECK) - known


class TresetteBot:
    """Medium or hard Tresette a vincere (see the module docstring)."""

    def __init__(self, level: str) -> None:
        self.memory = TrickMemory() if level == "hard" else None

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        if self.memory is not None:
            self.memory.observe(view.public)
        for action in legal:
            if action.kind is ActionKind.CALL:
                return action
        sight = TrickSight(view, unseen_cards(self.memory, view, set()))
        cards = [a.cards[0] for a in legal]
        other = sight.other_hand()
        if other is not None and len(sight.hand) <= ENDGAME_CARDS:
            best = best_endgame_card(
                sight.seat,
                sight.hand,
                other,
                sight.trick,
                None,
                ORDER,
                THIRDS,
                follow=True,
                last_trick=LAST_TRICK,
            )
            return _PLAYS[best]
        if self.memory is None:
            return _PLAYS[medium_card(view, sight, cards)]
        if len(cards) > 1:
            score = side_score(sight.seat, view.public["sides"])
            sample = tresette_sampler(self.memory, view, set(), score, avoid=False)
            if sample is not None:
                return _PLAYS[best_move(cards, sample, rng)]
        return pick_best([(self.value(sight, c), _PLAYS[c]) for c in cards], rng)

    def value(self, sight: TrickSight, card: str) -> float:
        thirds, keep = THIRDS[card], ORDER.strength[card] * 0.05
        if not sight.trick:
            hold = sight.hold_chance(card)
            return (2 * hold - 1) * (thirds + 1.5) - keep
        if sight.wins_now(card):
            hold = sight.hold_chance(card)
            return (2 * hold - 1) * (sight.trick_thirds() + thirds) - keep
        winner, best = winning_play(sight.trick, ORDER, None)
        if winner in sight.side:
            hold = sight.hold_chance(best)
            return (2 * hold - 1) * thirds - keep
        return -thirds - keep


NOVICE = TrickNovice(TrickTaste(ORDER, THIRDS, no_trumps))


def medium_card(view: View, sight: TrickSight, cards: Sequence[str]) -> str:
    """The novice's sense of the trick in front of it, and the standard plays it lacks:
    load the points on a trick the partner holds for sure (with a 3, or as the last to
    play), never overtake the partner otherwise, and never pay more for a trick than it
    is worth. It leads as the novice does, its cheapest card: leading a 3 to cash it, the
    textbook lead, measured worse in the league (0.33 of the deals against the novice)."""
    if not sight.trick:
        return NOVICE.card(view.public, cards)
    winner, best = winning_play(sight.trick, ORDER, None)
    if winner in sight.side:
        losers = [c for c in cards if not sight.wins_now(c)] or list(cards)
        if best[:-1] == "3" or sight.after == 0:
            return max(losers, key=lambda c: (THIRDS[c], -ORDER.strength[c]))
        return min(losers, key=lambda c: (THIRDS[c], ORDER.strength[c]))
    winners = [c for c in cards if sight.wins_now(c)]
    cheapest = min(winners, key=lambda c: (THIRDS[c], ORDER.strength[c]), default=None)
    if cheapest is not None and THIRDS[cheapest] > sight.trick_thirds():
        return min(cards, key=lambda c: (THIRDS[c], ORDER.strength[c]))  # not worth it
    return NOVICE.card(view.public, cards)


def _factory(level: str) -> Callable[[], Bot]:
    return lambda: TresetteBot(level)


BOTS: dict[str, Callable[[], Bot]] = {
    "easy": lambda: Novice(NOVICE),
    "medium": _factory("medium"),
    "hard": _factory("hard"),
}
