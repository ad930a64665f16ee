"""Spades bots at three levels (SPADES-9, SPADES-10): easy, medium and hard.

A bot sees exactly what a human in its seat sees, ``view(state, seat)``, and the legal
actions; never the state. The hard bot keeps a memory of the round inside the bot
object, fed by those views only, so one bot object plays one seat of one game.

- easy: the seed's beginner bid, and simple play (:func:`spades_play.easy_card`);
- medium: an estimated bid that reads the other bids, positional play, no memory;
- hard: the medium estimate with the seed's nil tips, card memory, void inference,
  covering and busting nils, and setting the opponents.

Blind nil (an option that is off by default) is declined by every level except the
hard bot in a desperate spot: trailing by 200 or more while the opponents are within
one good round of the target.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import LEVELS, Bot
from tavolo.cardgames.bots.tricks.spades_bidding import BidContext, easy_bid, hard_bid, medium_bid
from tavolo.cardgames.bots.tricks.spades_memory import CardMemory
from tavolo.cardgames.bots.tricks.spades_play import HARD, MEDIUM, choose_card, easy_card
from tavolo.cardgames.bots.tricks.spades_situation import Situation
from tavolo.cardgames.contract import View
from tavolo.cardgames.rng import SeededRandom


class SpadesBot:
    """One seat's player at a given level; see the module docstring."""

    def __init__(self, level: str = "hard") -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown Spades bot level {level!r}; levels: {', '.join(LEVELS)}")
        self.level = level
        self.memory = CardMemory() if level == "hard" else None

    def choose(
        self, view: View, legal: Sequence[Action], rng: SeededRandom | None = None
    ) -> Action:
        """The bot's action among ``legal``. ``rng`` is unused: every level decides from
        the view alone, so its choices are fixed by what it has seen."""
        if not legal:
            raise ValueError("no legal action to choose from")
        public = view.public
        if self.memory is not None:
            self.memory.observe(public)
        kinds = {a.kind for a in legal}
        if ActionKind.BLIND_NIL in kinds:
            return self._blind_nil(view, legal)
        if ActionKind.BID in kinds:
            amount = self.bid(view)
            for action in legal:
                if action.kind is ActionKind.BID and action.amount == amount:
                    return action
            return legal[0]
        return self._play(view, legal)

    def bid(self, view: View) -> int:
        """This level's bid for the hand in ``view``."""
        if view.seat is None:
            raise ValueError("a spectator does not bid")
        if self.level == "easy":
            return easy_bid(view.hand)
        public = view.public
        team = view.seat % 2
        ctx = BidContext(
            seat=view.seat,
            bids=tuple(public["bids"]),
            scores=(public["scores"][team], public["scores"][1 - team]),
            bags=(public["bags"][team], public["bags"][1 - team]),
            target=public["target"],
        )
        return hard_bid(view.hand, ctx) if self.level == "hard" else medium_bid(view.hand, ctx)

    def _blind_nil(self, view: View, legal: Sequence[Action]) -> Action:
        public, desperate = view.public, False
        if self.level == "hard" and view.seat is not None:
            seat_team = view.seat % 2
            ours, theirs = public["scores"][seat_team], public["scores"][1 - seat_team]
            desperate = theirs - ours >= 200 and theirs >= public["target"] - 100
        wanted = ActionKind.BLIND_NIL if desperate else ActionKind.PASS
        return next((a for a in legal if a.kind is wanted), legal[0])

    def _play(self, view: View, legal: Sequence[Action]) -> Action:
        assert view.seat is not None
        by_card = {a.cards[0]: a for a in legal if a.kind is ActionKind.PLAY}
        memory = self.memory
        sit = Situation.from_view(
            view.seat,
            view.hand,
            view.public,
            list(by_card),
            played=memory.played() if memory else None,
            voids=memory.voids() if memory else None,
        )
        if self.level == "easy":
            card = easy_card(sit)
        else:
            card = choose_card(sit, HARD if self.level == "hard" else MEDIUM)
        return by_card[card]


def _factory(level: str) -> Callable[[], Bot]:
    return lambda: SpadesBot(level)


BOTS: Mapping[str, Callable[[], Bot]] = {level: _factory(level) for level in LEVELS}
"""Level → a fresh bot for one seat (see :mod:`tavolo.cardgames.bots.registry`)."""
