"""The easy level of Uno and Pika: a beginner who plays a card that fits (GAMES.md 8).

A novice plays a coloured card that fits before a wild (any of them: it does not plan
which), calls the game's word with its second-last card, names the colour it holds most,
plays a wild only when nothing else fits, and takes a +4 without a challenge. The easy
bots wrap it in :class:`~tavolo.cardgames.bots.base.Novice`, which adds the odd random
move, so a new player can beat it.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.shedding.deck import COLOUR_NAMES
from tavolo.cardgames.rng import SeededRandom

_ANSWERS = (
    ActionKind.ACCEPT,
    ActionKind.DRAW,
    ActionKind.TAKE,
    ActionKind.KEEP,
    ActionKind.PASS,
)
"""What a novice does when it has no card to play, in order of preference."""


def is_wild(card: str) -> bool:
    return card[0] == "W"


class SheddingNovice:
    """A fitting coloured card first, then a wild, else draw or pass."""

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        held = Counter(COLOUR_NAMES[c[0]] for c in view.hand if not is_wild(c))
        for action in legal:
            if action.kind is ActionKind.CALL and action.colour is None:
                return action  # the word: "Uno!", "Pika!"
        names = [a for a in legal if a.kind is ActionKind.CALL]
        if names:
            return max(names, key=lambda a: held[str(a.colour)])
        plays = [a for a in legal if a.kind is ActionKind.PLAY and a.cards]
        if any(a.call for a in plays):
            plays = [a for a in plays if a.call]
        if plays:
            coloured = [a for a in plays if not is_wild(a.cards[0])]
            if coloured:
                return coloured[rng.randbelow(len(coloured))]
            return max(plays, key=lambda a: held[str(a.colour)] if a.colour else 0)
        for kind in _ANSWERS:
            for action in legal:
                if action.kind is kind:
                    return action
        return next((a for a in legal if a.kind is not ActionKind.REORDER), legal[0])
