"""The easy level of the trick games: a beginner who follows sensibly (GAMES.md 8).

A novice looks at the trick in front of it and nothing else: no memory, no partner, no
count of what is still out. In a game where tricks are worth taking (Briscola, Tresette,
Bestia) it takes a trick that holds points, or that it plays last to, with the cheapest
card that wins it, and otherwise throws its cheapest card; it leads its cheapest card.
In a game where points are to be avoided (Hearts, Ciapanò) it ducks under the winning
card with the highest card that still loses, throws its costliest card when it cannot
follow, and leads low. The easy bots wrap this in :class:`~tavolo.cardgames.bots.base.Novice`,
which adds the odd random card, so a new player can beat it.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.tricks.core import CardOrder, beats, winning_play
from tavolo.cardgames.rng import SeededRandom


@dataclass(frozen=True, slots=True)
class TrickTaste:
    """What a novice knows of one game: how cards compare, what they are worth, the
    trump suit in play (read from the public view) and whether points are to be won."""

    order: CardOrder
    points: Mapping[str, int]
    trumps: Callable[[Mapping[str, Any]], str | None]
    avoid: bool = False


def no_trumps(public: Mapping[str, Any]) -> None:
    return None


def trumps_in_view(public: Mapping[str, Any]) -> str | None:
    trumps = public.get("trumps")
    return str(trumps) if trumps else None


class TrickNovice:
    """Plays a card by the trick in front of it (see the module docstring); any other
    decision (a declaration, taking the turned card) it takes when offered."""

    def __init__(self, taste: TrickTaste) -> None:
        self.taste = taste

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        plays = {a.cards[0]: a for a in legal if a.kind is ActionKind.PLAY and a.cards}
        if not plays:
            return legal[0]
        if len(plays) < len(legal):
            taking = [a for a in legal if a.kind in (ActionKind.CALL, ActionKind.TAKE)]
            if taking:
                return taking[0]
        return plays[self.card(view.public, sorted(plays))]

    def card(self, public: Mapping[str, Any], cards: Sequence[str]) -> str:
        taste = self.taste
        order, trumps = taste.order, taste.trumps(public)
        trick = [(int(p["seat"]), str(p["card"])) for p in public["trick"]]

        def cost(card: str) -> tuple[int, int, int]:
            """Cheapest first: fewest points, then not a trump, then the lowest."""
            return (taste.points[card], int(order.suit[card] == trumps), order.strength[card])

        if not trick:
            return min(cards, key=cost)
        led = order.suit[trick[0][1]]
        _, best = winning_play(trick, order, trumps)
        winners = [c for c in cards if beats(c, best, led, trumps, order)]
        losers = [c for c in cards if c not in winners]
        if taste.avoid:
            if all(order.suit[c] != led for c in cards):  # void: away with the worst
                return max(cards, key=lambda c: (taste.points[c], order.strength[c]))
            if losers:
                return max(losers, key=lambda c: (order.strength[c], taste.points[c]))
            return min(cards, key=lambda c: (taste.points[c], order.strength[c]))
        on_table = sum(taste.points[c] for _, c in trick)
        last = len(trick) == _players_in_hand(public) - 1
        if winners and (on_table > 0 or last):
            return min(winners, key=cost)
        return min(cards, key=cost)


def _players_in_hand(public: Mapping[str, Any]) -> int:
    """Seats playing this hand: in Bestia only those who declared."""
    declared = public.get("declared")
    if isinstance(declared, list):
        return sum(1 for d in declared if d)
    return len(public["hand_sizes"])
