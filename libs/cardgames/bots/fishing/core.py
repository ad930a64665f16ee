"""Bots for the fishing games at three levels, one player for all four games.

A bot sees ``view(state, seat)`` and the legal actions, nothing else. Each play is scored
one move ahead: what it takes now, then what the next opponent could take from the table
it leaves, by asking the game's own capture rules what a card of each value would take.

- easy: captures when its card can (any capture), else lays a random card; declares
  accusi. Legal and plausible, no reckoning.
- medium: the standard tactics: values cards as the count does (settebello, denari,
  sevens and sixes for the primiera, cards), takes a scopa when it can, and keeps the
  table out of a sweep, assuming any value may be in the next opponent's hand.
- hard: the same reckoning with memory: every card of this hand played so far is known
  (the table's plays are public), so it knows which values are still out and how likely
  the next opponent is to hold one; and it counts the denari and cards race, so a point
  already sewn up by any side stops driving its choices.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from math import comb

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import LEVELS, Bot, pick_best
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.fishing.captures import ASSO, CIRULLA, SCOPA, captures
from tavolo.cardgames.games.fishing.deck import DECKS, DENARI, PRIMIERA, Deck
from tavolo.cardgames.rng import SeededRandom

STYLE_OF = {"scopa": SCOPA, "scopone": SCOPA, "asso": ASSO, "cirulla": CIRULLA}
SCOPA_WORTH = 1.0
SETTEBELLO_WORTH = 1.0
CARD_WORTH = 0.06
DENARO_WORTH = 0.12
PRIMIERA_WORTH = {7: 0.3, 6: 0.15, 1: 0.08}
CARDS_TO_WIN = 21
DENARI_TO_WIN = 6
FLAT_CHANCE = 0.5  # medium: any value may be in the next opponent's hand


@dataclass(frozen=True, slots=True)
class Reading:
    """What the bot makes of the table before choosing."""

    deck: Deck
    style: str
    hand: tuple[str, ...]
    table: tuple[str, ...]
    last_play: bool  # this card is the last of the hand
    unseen: dict[int, int] | None  # hard: cards of each value not yet seen
    unseen_total: int
    opponent_hand: int
    weights: tuple[float, float]  # (cards, denari) still worth contesting


class FishingBot:
    """One seat's player at a given level; see the module docstring."""

    def __init__(self, level: str = "hard") -> None:
        if level not in LEVELS:
            raise ValueError(f"unknown bot level {level!r}; levels: {', '.join(LEVELS)}")
        self.level = level

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        if not legal:
            raise ValueError("no legal action to choose from")
        for action in legal:
            if action.kind is ActionKind.CALL:  # an accuso is points for nothing
                return action
        if self.level == "easy":
            takes = [a for a in legal if a.capture]
            pool = takes or list(legal)
            return pool[rng.randbelow(len(pool))]
        reading = self._read(view)
        return pick_best([(self._score(a, reading), a) for a in legal], rng)

    def _read(self, view: View) -> Reading:
        public = view.public
        assert view.seat is not None
        deck = DECKS[public["deck"]]
        seat = view.seat
        hand = tuple(view.hand) or tuple(public["shown"].get(str(seat), ()))
        seats = len(public["hand_sizes"])
        sizes = public["hand_sizes"]
        last_play = public["stock"] == 0 and sum(sizes) == 1
        unseen: dict[int, int] | None = None
        total = 0
        weights = (1.0, 1.0)
        if self.level == "hard":
            seen = set(hand) | set(public["table"])
            for play in public["plays"]:
                seen.add(play["card"])
                seen.update(play["capture"])
            for cards in public["shown"].values():
                seen.update(cards)
            unseen = {v: 0 for v in range(1, 11)}
            for card in deck.codes:
                if card not in seen:
                    unseen[deck.value[card]] += 1
                    total += 1
            side = seat % len(public["sides"])
            weights = _race_weights(public, side)
        return Reading(
            deck=deck,
            style=STYLE_OF[public["game"]],
            hand=hand,
            table=tuple(public["table"]),
            last_play=last_play,
            unseen=unseen,
            unseen_total=total,
            opponent_hand=sizes[(seat + 1) % seats],
            weights=weights,
        )

    def _score(self, action: Action, r: Reading) -> float:
        card = action.cards[0]
        taken = (card, *action.capture) if action.capture else ()
        gain = sum(_worth(r, c) for c in taken)
        if action.capture:
            left = tuple(c for c in r.table if c not in action.capture)
            if not left and not r.last_play and not _plain_ace_sweep(r, card):
                gain += SCOPA_WORTH
        else:
            left = (*r.table, card)
        if r.last_play or not left:
            return gain
        return gain - self._threat(left, r)

    def _threat(self, table: tuple[str, ...], r: Reading) -> float:
        """What the next opponent may take from ``table``: for each value, the chance
        they hold one times the best they could take with it."""
        deck = r.deck
        values = tuple(deck.value[c] for c in table)
        worst = 0.0
        for value in range(1, 11):
            chance = self._chance(value, r)
            if chance <= 0.0:
                continue
            best = 0.0
            for taken in captures(r.style, values, value, False):
                cards = [table[i] for i in taken]
                got = sum(_worth(r, c) for c in cards) + CARD_WORTH
                if (
                    len(taken) == len(table)
                    and not (r.style != CIRULLA and value == 1 and 1 not in values)
                ) or (len(taken) == len(table) and r.style == CIRULLA):
                    got += SCOPA_WORTH
                best = max(best, got)
            worst = max(worst, chance * best)
        return worst

    def _chance(self, value: int, r: Reading) -> float:
        if r.unseen is None:
            return FLAT_CHANCE
        out, pool, hand = r.unseen[value], r.unseen_total, r.opponent_hand
        if out == 0 or hand == 0:
            return 0.0
        if pool <= hand:
            return 1.0
        return 1.0 - comb(pool - out, hand) / comb(pool, hand)


def _plain_ace_sweep(r: Reading, card: str) -> bool:
    """An ace sweeping the table in Asso, which is no scopa by default."""
    values = [r.deck.value[c] for c in r.table]
    return r.style == ASSO and r.deck.value[card] == 1 and 1 not in values


def _worth(r: Reading, card: str) -> float:
    deck = r.deck
    value, denaro = deck.value[card], deck.suit[card] == DENARI
    worth = CARD_WORTH * r.weights[0] + PRIMIERA_WORTH.get(value, 0.0)
    if denaro:
        worth += DENARO_WORTH * r.weights[1]
        if value == 7:
            worth += SETTEBELLO_WORTH
    return worth + 0.001 * PRIMIERA[value]


def _race_weights(public: Mapping[str, object], side: int) -> tuple[float, float]:
    """Cards and denari stop counting once any side has the point sewn up."""
    captured = public["captured"]
    denari = public["denari"]
    assert isinstance(captured, list) and isinstance(denari, list)
    cards_w = 0.3 if max(captured) >= CARDS_TO_WIN else 1.0
    denari_w = 0.3 if max(denari) >= DENARI_TO_WIN else 1.5
    if captured[side] < max(captured) - 8:
        cards_w *= 0.5
    return cards_w, denari_w


def _factory(level: str) -> Callable[[], Bot]:
    return lambda: FishingBot(level)


BOTS: Mapping[str, Callable[[], Bot]] = {level: _factory(level) for level in LEVELS}
"""Level → a fresh bot for one seat; each fishing game's bot module re-exports it."""
