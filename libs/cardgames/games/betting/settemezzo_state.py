"""The state of a Sette e mezzo table and its deal (RULES §15, §0 rule 15).

Frozen data only: the rules that move it live in :mod:`~tavolo.cardgames.games.betting.settemezzo`.
Chips are table chips and move only between the banker and the punters, so the seats'
chips always add up to the stacks dealt at the start.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.betting.settemezzo_hands import bet_range
from tavolo.cardgames.rng import SeededRandom

BETTING, PUNTERS, BANKER, OVER = "betting", "punters", "banker", "over"


@dataclass(frozen=True)
class SetteMezzoState:
    """The whole table. Immutable: ``apply`` builds a new one.

    Each hand's first card is face down; every card after it is face up. ``revealed``
    turns a seat's first card up: a punter who busts shows it, and so does the banker
    when its turn comes.
    """

    options: Mapping[str, JSON]
    rng: SeededRandom
    seats: int
    hand_no: int
    banker: int
    phase: str
    hands: tuple[tuple[str, ...], ...]  # in the order received: the first is face down
    revealed: tuple[bool, ...]
    stock: tuple[str, ...]  # top first
    chips: tuple[int, ...]
    bets: tuple[int | None, ...]  # per seat: the bet placed this hand, None if none
    sitting_out: tuple[bool, ...]  # dealt in, but no bet within the limits
    queue: tuple[int, ...]  # seats still to act in this phase, the first to act now
    last_hand: Mapping[str, JSON] | None
    end_reason: str | None

    @property
    def turn(self) -> int | None:
        return self.queue[0] if self.queue and self.phase != OVER else None

    def order(self) -> tuple[int, ...]:
        """Every seat from the banker's right, anticlockwise, the banker last."""
        return tuple((self.banker + 1 + i) % self.seats for i in range(self.seats))

    def placed(self) -> int:
        return sum(b for b in self.bets if b)

    def playing(self) -> tuple[int, ...]:
        """Punters with a bet on this hand, in turn order."""
        return tuple(s for s in self.order() if self.bets[s])

    def bet_limits(self, seat: int) -> tuple[int, int] | None:
        """What ``seat`` may bet now (SETTEMEZZO-4), ``None`` when it must sit out. With
        ``fixed_bet`` that amount is the only bet, when the limits allow it."""
        fixed = self.options["fixed_bet"]
        low, high = (
            (int(self.options["min_bet"]), int(self.options["max_bet"]))
            if fixed == "none"
            else (int(fixed), int(fixed))
        )
        return bet_range(self.chips[self.banker], self.placed(), self.chips[seat], low, high)


def deal(state: SetteMezzoState, hand_no: int, banker: int) -> SetteMezzoState:
    """All 40 cards shuffled (SETTEMEZZO-2); one face-down card to each punter with
    chips from the banker's right, then one to the banker (SETTEMEZZO-3)."""
    rng = state.rng.copy()
    cards = italian_cards.deck()
    rng.shuffle(cards)
    n = state.seats
    order = [(banker + 1 + i) % n for i in range(n)]
    dealt_to = [s for s in order if state.chips[s] > 0]
    hands: list[tuple[str, ...]] = [()] * n
    for i, seat in enumerate(dealt_to):
        hands[seat] = (cards[i],)
    punters = tuple(s for s in dealt_to if s != banker)
    return replace(
        state,
        rng=rng,
        hand_no=hand_no,
        banker=banker,
        phase=BETTING,
        hands=tuple(hands),
        revealed=(False,) * n,
        stock=tuple(cards[len(dealt_to) :]),
        bets=(None,) * n,
        sitting_out=(False,) * n,
        queue=punters,
    )
