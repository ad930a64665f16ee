"""Ciapanò bots at three levels: the Tresette judging turned round to avoid points.

- easy: a novice (:mod:`~tavolo.cardgames.bots.tricks.novice`): ducks under the winning
  card, throws its costliest card when void, leads low;
- medium: lead low, duck under the card winning the trick with the highest card that
  still loses, and when void throw away the aces and figures; with no memory it guesses
  whether a lead can be beaten;
- hard: searches, as the Tresette hard bot does
  (:func:`~tavolo.cardgames.bots.tricks.tresette.tresette_sampler`): it deals the cards it has
  not seen into many possible hands that agree with every card played and every suit a
  player has shown it lacks, plays each of its cards through them, and keeps the one
  that leaves it the fewest penalty points on average (a cappotto counted as the rules
  count it). Should its memory not account for every card, it falls back on what it
  remembers: which leads are sure to be beaten and which cards have become masters.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import Bot, Novice, pick_best
from tavolo.cardgames.bots.tricks.determinized import best_move
from tavolo.cardgames.bots.tricks.memory import TrickMemory
from tavolo.cardgames.bots.tricks.novice import TrickNovice, TrickTaste, no_trumps
from tavolo.cardgames.bots.tricks.tresette import TrickSight, tresette_sampler, unseen_cards
from tavolo.cardgames.bots.tricks.world import Score
from tavolo.cardgames.contract import View
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.tricks.ciapano import REMOVED_FOR_THREE, penalty_points
from tavolo.cardgames.games.tricks.tresette_cards import ORDER, THIRDS
from tavolo.cardgames.rng import SeededRandom

_PLAYS = {c: Action(ActionKind.PLAY, cards=(c,)) for c in italian_cards.DECK}


class CiapanoBot:
    """Medium or hard Ciapanò (see the module docstring)."""

    def __init__(self, level: str) -> None:
        self.memory = TrickMemory() if level == "hard" else None

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        if self.memory is not None:
            self.memory.observe(view.public)
        removed = {REMOVED_FOR_THREE} if len(view.public["hand_sizes"]) == 3 else set()
        sight = TrickSight(view, unseen_cards(self.memory, view, removed))
        cards = [a.cards[0] for a in legal]
        if self.memory is not None and len(cards) > 1:
            sample = tresette_sampler(
                self.memory, view, removed, _penalty_score(sight.seat), avoid=True
            )
            if sample is not None:
                return _PLAYS[best_move(cards, sample, rng)]
        return pick_best([(self.value(sight, c), _PLAYS[c]) for c in cards], rng)

    def value(self, sight: TrickSight, card: str) -> float:
        """Minus the thirds this card is expected to take, plus the relief of shedding a
        dangerous card (an ace, a figure, a high card) while it is safe to."""
        thirds, strength = THIRDS[card], ORDER.strength[card]
        shed = thirds * 0.6 + strength * 0.1
        expected_rest = 1.5 * sight.after  # thirds the players after may still add
        if not sight.trick:
            lose = 1.0 - self.lead_wins(sight, card)
            return -(1 - lose) * (thirds + expected_rest) + lose * shed
        if sight.wins_now(card):
            hold = self.keeps(sight, card)
            return -hold * (sight.trick_thirds() + thirds + expected_rest) + (1 - hold) * shed
        return shed

    def lead_wins(self, sight: TrickSight, card: str) -> float:
        """How likely a lead takes its trick. Nobody overtakes willingly, so what counts
        is whether the others can duck: hard weighs the lower cards of the suit still out
        against the higher ones (none out at all: the others discard on it); medium goes
        by the card's rank."""
        lower, higher = self.out_around(sight, card)
        if lower is None or higher is None:
            return ORDER.strength[card] / 10
        if lower + higher == 0:
            return 1.0
        return lower / (lower + higher)

    def keeps(self, sight: TrickSight, card: str) -> float:
        """How likely a card now winning keeps the trick (the same ducking reckoning)."""
        if sight.after == 0:
            return 1.0
        return self.lead_wins(sight, card)

    def out_around(self, sight: TrickSight, card: str) -> tuple[int | None, int | None]:
        """Unseen cards of the suit below and above ``card`` (``None``: no memory)."""
        if sight.unseen is None:
            return None, None
        suit, strength = ORDER.suit[card], ORDER.strength[card]
        same = [ORDER.strength[c] for c in sight.unseen if ORDER.suit[c] == suit]
        return sum(1 for s in same if s < strength), sum(1 for s in same if s > strength)


def _penalty_score(seat: int) -> Score:
    """Minus the penalty points ``seat`` takes from the hand (TRESETTE-9, 10)."""

    def score(piles: list[list[str]], last_winner: int) -> float:
        points, _ = penalty_points([tuple(p) for p in piles], last_winner)
        return -points[seat] / 11

    return score


def _factory(level: str) -> Callable[[], Bot]:
    return lambda: CiapanoBot(level)


BOTS: dict[str, Callable[[], Bot]] = {
    "easy": lambda: Novice(TrickNovice(TrickTaste(ORDER, THIRDS, no_trumps, avoid=True))),
    "medium": _factory("medium"),
    "hard": _factory("hard"),
}
