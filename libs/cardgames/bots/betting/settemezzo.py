"""Sette e mezzo bots at three levels; they see only their seat's view and legal actions.

Totals are in half points, as in :mod:`~tavolo.cardgames.games.betting.settemezzo_hands`.

- easy: bets any amount it may, and stands on 5 or more, banker or punter;
- medium: the standard tactics: draws while the chance that one more card busts it,
  counted over the cards it has not seen in its own hand, is under a half; bets the most
  on a 7, a figure or the matta (the cards that make a reale) and the least otherwise;
  as banker it also draws while it would surely lose to a punter's face-up cards;
- hard: counts every card on view (its own, the others' face-up cards, busted hands) and
  weighs chips: as a punter it compares the chips it expects standing with those it
  expects drawing, against a banker who draws below 5, and bets the most only on a first
  card worth more than nothing; as banker it weighs each standing punter's possible
  hidden card and bet, reale included, before drawing.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from functools import cache
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import Bot
from tavolo.cardgames.contract import View
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.betting.settemezzo_hands import (
    MATTA,
    SETTE_E_MEZZO,
    bust_chance,
    half_points,
    is_reale,
    total,
)
from tavolo.cardgames.rng import SeededRandom

HITS, STANDS = Action(ActionKind.HIT), Action(ActionKind.STAND)
FIVE = 10  # half points: where a plain player stops drawing
REALE_CARDS = frozenset(c for c in italian_cards.DECK if c[:-1] in ("7", "F", "C", "R"))


def _bets(legal: Sequence[Action]) -> list[int]:
    return [int(a.amount or 0) for a in legal if a.kind is ActionKind.BET]


def draw_or_stand(legal: Sequence[Action], draw: bool) -> Action:
    return HITS if draw and HITS in legal else STANDS


class EasyBot:
    """Any bet; stands on 5 or more."""

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        amounts = _bets(legal)
        if amounts:
            return legal[rng.randbelow(len(legal))]
        return draw_or_stand(legal, total(view.hand) < FIVE)


class MediumBot:
    """Draws by the chance of busting over the cards unseen in its own hand."""

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        amounts = _bets(legal)
        hand = view.hand
        if amounts:
            strong = hand[0] == MATTA or hand[0] in REALE_CARDS
            return Action(ActionKind.BET, amount=max(amounts) if strong else min(amounts))
        unseen = [c for c in italian_cards.DECK if c not in hand]
        draw = bust_chance(hand, unseen) < 0.5
        public: Any = view.public
        if view.seat == public["banker"]:
            draw = draw or any(
                total(hand) <= public["shown_totals"][s] for s in standing(public, view.seat)
            )
        return draw_or_stand(legal, draw)


def standing(public: Any, banker: int | None) -> list[int]:
    """Punters with a bet who have not busted."""
    return [
        s for s, bet in enumerate(public["bets"]) if bet and s != banker and not public["busted"][s]
    ]


def unseen_cards(view: View) -> list[str]:
    """Cards neither in the seat's hand nor face up on the table."""
    public: Any = view.public
    seen = set(view.hand) | {c for cards in public["cards"] for c in cards if c}
    return [c for c in italian_cards.DECK if c not in seen]


def value(rest: int, matta: bool, cards: int) -> int:
    """A hand's total from the half points of its cards but the matta: the matta counts
    the best of ½, 1 … 7 not over 7½, and ½ on its own (RULES §15)."""
    if not matta:
        return rest
    if cards == 1:
        return 1
    best = rest + 1
    for v in (1, *range(2, 15, 2)):
        if rest + v <= SETTE_E_MEZZO:
            best = max(best, rest + v)
    return best


Draws = tuple[tuple[int, float], ...]
"""A card drawn from the unseen ones: (half points, -1 for the matta; its chance)."""


def draws(unseen: Sequence[str]) -> Draws:
    counts: dict[int, int] = {}
    for card in unseen:
        key = -1 if card == MATTA else half_points(card)
        counts[key] = counts.get(key, 0) + 1
    return tuple((k, n / len(unseen)) for k, n in sorted(counts.items()))


def _after(rest: int, matta: bool, cards: int, drawn: int) -> tuple[int, bool, int]:
    """The hand after one more card; the deck is taken as unchanged by a draw, so a
    second matta, which cannot come, is counted as a figure."""
    if drawn < 0 and not matta:
        return rest, True, cards + 1
    return rest + max(drawn, 1), matta, cards + 1


def banker_finals(deck: Draws) -> list[float]:
    """The chances of a plain banker's final totals (index: half points; index 0: a
    bust), when it starts from one unseen card and draws below 5."""

    @cache
    def finals(rest: int, matta: bool, cards: int) -> tuple[float, ...]:
        now = value(rest, matta, cards)
        chances = [0.0] * (SETTE_E_MEZZO + 1)
        if now > SETTE_E_MEZZO:
            chances[0] = 1.0
        elif cards and now >= FIVE:
            chances[now] = 1.0
        else:
            for drawn, p in deck:
                for t, q in enumerate(finals(*_after(rest, matta, min(cards, 3), drawn))):
                    chances[t] += p * q
        return tuple(chances)

    return list(finals(0, False, 0))


class HardBot:
    """Weighs the chips it expects from each choice (see the module docstring)."""

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        public: Any = view.public
        deck = draws(unseen_cards(view) or list(italian_cards.DECK))
        hand = view.hand
        rest = sum(half_points(c) for c in hand if c != MATTA)
        matta = MATTA in hand
        amounts = _bets(legal)
        if view.seat == public["banker"]:
            gains = banker_gains(view)
            stand, hit = banker_choice(gains, deck)(rest, matta, len(hand))
            return draw_or_stand(legal, hit > stand)
        stand, hit = punter_choice(deck)(rest, matta, len(hand))
        if amounts:
            return Action(
                ActionKind.BET, amount=max(amounts) if max(stand, hit) > 0 else min(amounts)
            )
        return draw_or_stand(legal, hit > stand)


def punter_choice(deck: Draws) -> Callable[[int, bool, int], tuple[float, float]]:
    """Chips per chip bet from a punter's hand: (standing, drawing, then playing on
    well), against a banker who draws below 5."""
    finals = banker_finals(deck)
    beaten = [sum(finals[:t]) for t in range(SETTE_E_MEZZO + 1)]  # busts and totals < t

    @cache
    def choice(rest: int, matta: bool, cards: int) -> tuple[float, float]:
        now = value(rest, matta, cards)
        win = beaten[now]
        paid = 2.0 if cards == 2 and now == SETTE_E_MEZZO else 1.0
        stand = win * paid - (1.0 - win)
        hit = 0.0
        for drawn, p in deck:
            after = _after(rest, matta, min(cards, 3), drawn)
            if value(*after) > SETTE_E_MEZZO:
                hit -= p
            else:
                hit += p * max(choice(*after))
        return stand, hit

    return choice


def banker_gains(view: View) -> list[float]:
    """The chips a banker standing on each total (index: half points; index 0: a bust)
    expects from the punters still standing, each one's hidden card any unseen card
    that leaves it standing."""
    public: Any = view.public
    unseen = unseen_cards(view) or list(italian_cards.DECK)
    gains = [0.0] * (SETTE_E_MEZZO + 1)
    for seat in standing(public, view.seat):
        shown = [c for c in public["cards"][seat] if c]
        bet = float(public["bets"][seat])
        hands = [[c, *shown] for c in unseen if total([c, *shown]) <= SETTE_E_MEZZO]
        if not hands:
            continue
        share = bet / len(hands)
        for hand in hands:
            theirs, owed = total(hand), (2.0 if is_reale(hand) else 1.0)
            gains[0] -= share * owed
            for mine in range(1, SETTE_E_MEZZO + 1):
                gains[mine] += share if mine >= theirs else -share * owed
    return gains


def banker_choice(
    gains: list[float], deck: Draws
) -> Callable[[int, bool, int], tuple[float, float]]:
    """Chips the banker expects: (standing, drawing, then playing on well)."""

    @cache
    def choice(rest: int, matta: bool, cards: int) -> tuple[float, float]:
        stand = gains[value(rest, matta, cards)]
        hit = 0.0
        for drawn, p in deck:
            after = _after(rest, matta, min(cards, 3), drawn)
            hit += p * (gains[0] if value(*after) > SETTE_E_MEZZO else max(choice(*after)))
        return stand, hit

    return choice


BOTS: dict[str, Callable[[], Bot]] = {
    "easy": EasyBot,
    "medium": MediumBot,
    "hard": HardBot,
}
