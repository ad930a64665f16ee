"""A trick game's hand as the determinized search plays it: one guess at every hand and at
the stock, played out fast by a simple policy (:mod:`~tavolo.cardgames.bots.tricks.determinized`).

The rules are the trick core's (:mod:`~tavolo.cardgames.games.tricks.core`): following suit
when the game asks it, the winner by the game's order and trumps, the winner drawing
first from the stock and leading. Each game says what its cards are worth and how a
finished hand scores (:class:`TrickRules`); the guess itself comes from
:func:`deal_unseen`, which never gives a seat a suit it has shown it lacks.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass

from tavolo.cardgames.games.tricks.core import CardOrder, Play, beats, following_cards, winning_play
from tavolo.cardgames.rng import SeededRandom

STOCK = -1
"""The key of the stock among the places :func:`deal_unseen` fills."""
RETRIES = 12
"""Fresh tries at a deal that respects every void before the voids are let go."""

Score = Callable[[list[list[str]], int], float]
"""Finished piles per seat and the last trick's winner → value for the searching seat."""


@dataclass(frozen=True, slots=True)
class TrickRules:
    """What a game's playouts need: its order and trumps, whether suit must be followed,
    what a card is worth to the playout policy, who plays with whom, whether the aim is
    to take points or to avoid them, and the searching seat's score of a finished hand."""

    order: CardOrder
    trumps: str | None
    follow: bool
    worth: Mapping[str, int]
    side: Sequence[int]  # per seat, its side
    score: Score
    avoid: bool = False
    trump_cost: float = 0.0  # what the policy charges for spending a trump


class TrickWorld:
    """Every hand and the stock known: the rest of a hand, played forward in place."""

    __slots__ = ("hands", "last_winner", "left", "n", "piles", "rules", "stock", "trick", "turn")

    def __init__(
        self,
        rules: TrickRules,
        hands: list[list[str]],
        stock: list[str],
        trick: list[Play],
        turn: int,
        piles: list[list[str]],
        last_winner: int,
    ) -> None:
        self.rules = rules
        self.hands = hands
        self.stock = stock  # bottom first: the next card drawn is the last
        self.trick = trick
        self.turn = turn
        self.piles = piles
        self.last_winner = last_winner
        self.n = len(hands)
        self.left = sum(len(h) for h in hands) + len(stock)

    def copy(self) -> TrickWorld:
        return TrickWorld(
            self.rules,
            [list(h) for h in self.hands],
            list(self.stock),
            list(self.trick),
            self.turn,
            [list(p) for p in self.piles],
            self.last_winner,
        )

    def plays_left(self) -> int:
        return self.left

    def play(self, move: str) -> None:
        seat = self.turn
        self.hands[seat].remove(move)
        self.trick.append((seat, move))
        self.left -= 1
        if len(self.trick) < self.n:
            self.turn = (seat + 1) % self.n
            return
        rules = self.rules
        winner = winning_play(self.trick, rules.order, rules.trumps)[0]
        self.piles[winner].extend(c for _, c in self.trick)
        self.trick = []
        if self.stock:
            for i in range(self.n):
                self.hands[(winner + i) % self.n].append(self.stock.pop())
        self.turn = self.last_winner = winner

    def play_out(self) -> None:
        while self.left:
            self.play(self.policy())

    def value(self) -> float:
        return self.rules.score(self.piles, self.last_winner)

    # -- the playout policy -----------------------------------------------------------

    def policy(self) -> str:
        """A fast, sensible card for the seat to move (no look-ahead)."""
        rules = self.rules
        hand = self.hands[self.turn]
        choices = following_cards(hand, self.trick, rules.order) if rules.follow else hand
        if len(choices) == 1:
            return choices[0]
        if rules.avoid:
            return self._avoiding(choices)
        return self._taking(choices)

    def _taking(self, choices: Sequence[str]) -> str:
        """Take a trick worth taking with the cheapest winner, load a partner's trick when
        last, otherwise give the least; lead the cheapest card."""
        rules, worth, strength = self.rules, self.rules.worth, self.rules.order.strength
        suit, trumps = rules.order.suit, rules.trumps
        if not self.trick:
            return min(choices, key=lambda c: (worth[c] + self._cost(c), strength[c]))
        best_seat, best = winning_play(self.trick, rules.order, trumps)
        led = suit[self.trick[0][1]]
        on_table = sum(worth[c] for _, c in self.trick)
        last = len(self.trick) == self.n - 1
        ours = rules.side[best_seat] == rules.side[self.turn]
        chosen, top = choices[0], -1e9
        for card in choices:
            if beats(card, best, led, trumps, rules.order) and not (ours and last):
                gain = (on_table + worth[card]) * (1.0 if last else 0.6) - self._cost(card)
            elif ours:
                gain = worth[card] * (1.0 if last else 0.3) - self._cost(card)
            else:
                gain = -worth[card] - self._cost(card)
            gain -= strength[card] * 0.01
            if gain > top:
                chosen, top = card, gain
        return chosen

    def _cost(self, card: str) -> float:
        rules = self.rules
        if rules.trumps is not None and rules.order.suit[card] == rules.trumps:
            return rules.trump_cost + rules.order.strength[card] * 0.3
        return 0.0

    def _avoiding(self, choices: Sequence[str]) -> str:
        """Duck under the winning card with the highest card that still loses, shed the
        most dangerous card when void, take with the highest when forced; lead low."""
        rules, worth, strength = self.rules, self.rules.worth, self.rules.order.strength
        if not self.trick:
            return min(choices, key=lambda c: (strength[c], worth[c]))
        _, best = winning_play(self.trick, rules.order, rules.trumps)
        led = rules.order.suit[self.trick[0][1]]
        if rules.order.suit[choices[0]] != led:  # void: shed the worst card
            return max(choices, key=lambda c: (worth[c], strength[c]))
        under = [c for c in choices if not beats(c, best, led, rules.trumps, rules.order)]
        return max(under or choices, key=lambda c: strength[c])


def voids(tricks: Iterable[Sequence[Play]], suit: Mapping[str, str]) -> dict[int, set[str]]:
    """The suits each seat has shown it lacks by not following them."""
    lacking: dict[int, set[str]] = {}
    for trick in tricks:
        if not trick:
            continue
        led = suit[trick[0][1]]
        for seat, card in trick[1:]:
            if suit[card] != led:
                lacking.setdefault(seat, set()).add(led)
    return lacking


def deal_unseen(
    unseen: Sequence[str],
    places: Mapping[int, int],
    lacking: Mapping[int, set[str]],
    suit: Mapping[str, str],
    rng: SeededRandom,
) -> dict[int, list[str]]:
    """The ``unseen`` cards dealt at random into ``places`` (seat → how many it holds
    unseen; :data:`STOCK` → the stock's hidden cards), no seat getting a suit it lacks.

    The cards are shuffled, then the place with the least room to spare (the fewest
    cards it may hold beyond what it needs) takes the first cards it may hold, and so
    on; a dead end starts over with a new shuffle, and after :data:`RETRIES` the voids
    are let go (a guess that breaks one is still better than none)."""
    if sum(places.values()) != len(unseen):
        raise ValueError("the unseen cards do not fill the places")
    for attempt in range(RETRIES + 1):
        cards = list(unseen)
        rng.shuffle(cards)
        dealt = _deal(cards, places, lacking if attempt < RETRIES else {}, suit)
        if dealt is not None:
            return dealt
    raise AssertionError("a deal without voids cannot fail")


def _deal(
    cards: list[str],
    places: Mapping[int, int],
    lacking: Mapping[int, set[str]],
    suit: Mapping[str, str],
) -> dict[int, list[str]] | None:
    dealt: dict[int, list[str]] = {}
    free = [p for p in places if not lacking.get(p)]
    bound = [p for p in places if lacking.get(p)]
    while bound:
        spare = {p: sum(1 for c in cards if suit[c] not in lacking[p]) - places[p] for p in bound}
        place = min(bound, key=spare.__getitem__)
        if spare[place] < 0:
            return None
        lacks = lacking[place]
        taken = [c for c in cards if suit[c] not in lacks][: places[place]]
        dealt[place] = taken
        chosen = set(taken)
        cards = [c for c in cards if c not in chosen]
        bound.remove(place)
    start = 0
    for place in free:
        dealt[place] = cards[start : start + places[place]]
        start += places[place]
    return dealt


def finished_piles(
    tricks: Iterable[Sequence[Play]], n: int, order: CardOrder, trumps: str | None
) -> list[list[str]]:
    """Per seat, the cards of the finished tricks it won (a trick in progress is left)."""
    piles: list[list[str]] = [[] for _ in range(n)]
    for trick in tricks:
        if len(trick) == n:
            piles[winning_play(trick, order, trumps)[0]].extend(c for _, c in trick)
    return piles
