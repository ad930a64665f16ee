"""The state of a Poker all'italiana table and its deal (RULES §14, POKER-1, 2, 8; §0
rule 15).

Frozen data only: the rules that move it live in :mod:`~tavolo.cardgames.games.betting.poker`.
Chips are table chips: the seats' chips, what they put in this deal (``contributed``)
and the pot carried from deals nobody opened always add up to the stacks dealt at the
start. Play is clockwise: the turn passes from seat s to s - 1, so the seat on the
dealer's left, the *buiante*, is ``dealer - 1``.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games import french_deck
from tavolo.cardgames.games.betting import poker_hands
from tavolo.cardgames.games.betting.poker_betting import Round, open_round
from tavolo.cardgames.rng import SeededRandom

BLIND, FIRST, CHANGE, SECOND, OVER = "blind", "first_round", "change", "second_round", "over"
JACKS, ACES = 11, 14
MAX_CHANGE = 4


@dataclass(frozen=True)
class PokerState:
    """The whole table. Immutable: ``apply`` builds a new one."""

    options: Mapping[str, JSON]
    rng: SeededRandom
    seats: int
    hand_no: int  # the pot being played: deals nobody opened do not count
    deal_no: int  # every deal, redeals included
    step: int  # actions so far, to key each turn timer
    dealer: int
    phase: str
    low: int  # the deck's lowest rank (POKER-1)
    minimum: int  # the pair needed to open: jacks (11) … aces (14) (POKER-5, 8)
    hands: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]  # top first
    discards: tuple[str, ...]  # face down: changed cards and folded hands
    chips: tuple[int, ...]
    in_match: tuple[bool, ...]  # False once a seat has gone broke
    broke_at: tuple[int, ...]  # the hand a seat went broke in (0: still playing)
    carried: int  # the pot of deals nobody opened (POKER-8)
    contributed: tuple[int, ...]  # per seat, chips put in this deal (antes included)
    folded: tuple[bool, ...]  # out of this deal (seats out of the match too)
    opener: int | None
    blind: bool  # the buiante opened blind (POKER-5)
    rnd: Round
    to_change: tuple[int, ...]
    changed: tuple[int | None, ...]  # per seat, how many cards it changed (public)
    turn: int
    last_hand: Mapping[str, JSON] | None
    end_reason: str | None

    @property
    def pot(self) -> int:
        return self.carried + sum(self.contributed)

    def clockwise(self, start: int) -> tuple[int, ...]:
        """Every seat from ``start``, clockwise (s, s - 1, …)."""
        return tuple((start - i) % self.seats for i in range(self.seats))

    def live(self) -> tuple[int, ...]:
        """Seats still in this deal, from the dealer's left."""
        return tuple(s for s in self.clockwise(self.dealer - 1) if not self.folded[s])

    def can_act(self, seat: int) -> bool:
        """In the deal with chips left to bet (not all-in)."""
        return not self.folded[seat] and self.chips[seat] > 0

    def buiante(self) -> int:
        """The first seat in the match on the dealer's left."""
        return next(s for s in self.clockwise(self.dealer - 1) if self.in_match[s])

    def next_dealer(self) -> int:
        return next(s for s in self.clockwise(self.dealer - 1) if self.in_match[s])


def next_minimum(minimum: int) -> int:
    """POKER-8: jacks → queens → kings → aces → jacks."""
    return JACKS if minimum >= ACES else minimum + 1


def deal(state: PokerState, dealer: int) -> PokerState:
    """Everyone in the match antes (all it has, if short), a fresh shuffle of the deck
    for the players left, and 5 each, one at a time, from the dealer's left (POKER-1, 2)."""
    n = state.seats
    playing = [s for s in range(n) if state.in_match[s]]
    cards = poker_hands.deck(n)  # set by the table, so broke seats change nothing
    rng = state.rng.copy()
    rng.shuffle(cards)
    ante = int(state.options["ante"])
    chips = list(state.chips)
    contributed = [0] * n
    for s in playing:
        contributed[s] = min(ante, chips[s])
        chips[s] -= contributed[s]
    order = [s for s in ((dealer - 1 - i) % n for i in range(n)) if state.in_match[s]]
    dealt = poker_hands.HAND_SIZE * len(order)
    hands: list[tuple[str, ...]] = [()] * n
    for i, s in enumerate(order):
        hands[s] = french_deck.sort_hand(cards[i : dealt : len(order)])
    return replace(
        state,
        rng=rng,
        deal_no=state.deal_no + 1,
        dealer=dealer,
        hands=tuple(hands),
        stock=tuple(cards[dealt:]),
        discards=(),
        chips=tuple(chips),
        carried=state.pot,
        contributed=tuple(contributed),
        folded=tuple(not m for m in state.in_match),
        opener=None,
        blind=False,
        rnd=open_round(n, ()),
        to_change=(),
        changed=(None,) * n,
    )


def blank(options: Mapping[str, JSON], seats: int, rng: SeededRandom) -> PokerState:
    """The table before the first deal: stacks handed out, nothing dealt."""
    return PokerState(
        options=options,
        rng=rng,
        seats=seats,
        hand_no=1,
        deal_no=0,
        step=0,
        dealer=0,
        phase=OVER,
        low=poker_hands.lowest_rank(seats),
        minimum=JACKS,
        hands=((),) * seats,
        stock=(),
        discards=(),
        chips=(int(options["starting_stack"]),) * seats,
        in_match=(True,) * seats,
        broke_at=(0,) * seats,
        carried=0,
        contributed=(0,) * seats,
        folded=(False,) * seats,
        opener=None,
        blind=False,
        rnd=open_round(seats, ()),
        to_change=(),
        changed=(None,) * seats,
        turn=0,
        last_hand=None,
        end_reason=None,
    )
