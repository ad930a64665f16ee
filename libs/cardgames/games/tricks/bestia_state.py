"""The state of a Bestia table, the deal and the pot's arithmetic (RULES §7, §0 rule 15).

Data only: the rules that move it live in :mod:`~tavolo.cardgames.games.tricks.bestia`.
Chips are table chips: each seat starts with ``starting_stack`` and the pot holds the
rest, so seats' chips plus the pot always make the stacks dealt at the start.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Final

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.chips import pay
from tavolo.cardgames.games.tricks.briscola_state import ORDER
from tavolo.cardgames.games.tricks.core import Play
from tavolo.cardgames.rng import SeededRandom
from tavolo.cardgames.slotted import SlottedState

HAND_SIZE = 3
TRICKS = 3
DECLARE, BUIO, PLAY, OVER = "declaring", "al_buio", "playing", "over"


_FIELDS: Final = (
    "options",
    "rng",
    "seats",
    "hand_no",
    "dealer",
    "phase",
    "hands",
    "stock",  # top first
    "turned",  # face up beside the stock, never drawn: its suit is trumps
    "set_aside",  # face down: passed hands and hands given up al buio
    "chips",
    "pot",
    "declared",  # per seat: plays (True), passes (False), undecided
    "buio",  # per seat: went al buio this hand
    "to_decide",  # seats still to decide (declaring or al buio), in order
    "turn",
    "trick",
    "tricks_done",
    "tricks_won",
    "taken",  # the cards of this hand's finished tricks
    "last_trick",
    "last_hand",
    "end_reason",
)


class BestiaState(SlottedState):
    """The whole table. Treat it as immutable: ``apply`` changes a :meth:`copy`."""

    __slots__ = _FIELDS
    FIELDS = _FIELDS

    def __init__(
        self,
        options: Mapping[str, JSON],
        rng: SeededRandom,
        seats: int,
        hand_no: int,
        dealer: int,
        phase: str,
        hands: tuple[tuple[str, ...], ...],
        stock: tuple[str, ...],
        turned: str,
        set_aside: tuple[str, ...],
        chips: tuple[int, ...],
        pot: int,
        declared: tuple[bool | None, ...],
        buio: tuple[bool, ...],
        to_decide: tuple[int, ...],
        turn: int,
        trick: tuple[Play, ...],
        tricks_done: int,
        tricks_won: tuple[int, ...],
        taken: tuple[str, ...],
        last_trick: tuple[Play, ...],
        last_hand: Mapping[str, JSON] | None,
        end_reason: str | None,
    ) -> None:
        self.options = options
        self.rng = rng
        self.seats = seats
        self.hand_no = hand_no
        self.dealer = dealer
        self.phase = phase
        self.hands = hands
        self.stock = stock
        self.turned = turned
        self.set_aside = set_aside
        self.chips = chips
        self.pot = pot
        self.declared = declared
        self.buio = buio
        self.to_decide = to_decide
        self.turn = turn
        self.trick = trick
        self.tricks_done = tricks_done
        self.tricks_won = tricks_won
        self.taken = taken
        self.last_trick = last_trick
        self.last_hand = last_hand
        self.end_reason = end_reason

    @property
    def trumps(self) -> str:
        return self.turned[-1]

    def active(self) -> tuple[int, ...]:
        """Seats that declared to play, from the dealer's right."""
        return tuple(s for s in self.order() if self.declared[s])

    def order(self) -> tuple[int, ...]:
        """Every seat from the dealer's right, anticlockwise."""
        return tuple((self.dealer + 1 + i) % self.seats for i in range(self.seats))


def trick_share(pot: int) -> int:
    """Each trick wins ⌊pot ÷ 3⌋ (BESTIA-6); the remainder stays in the pot."""
    return pot // TRICKS


def next_active(active: Sequence[int], seat: int) -> int:
    return active[(active.index(seat) + 1) % len(active)]


def deal(state: BestiaState, hand_no: int, dealer: int) -> BestiaState:
    """The dealer antes; a fresh shuffle; 3 each from the dealer's right, then the
    turned card (BESTIA-1, 2)."""
    rng = state.rng.copy()
    n = state.seats
    cards = italian_cards.deck()
    rng.shuffle(cards)
    chips = list(state.chips)
    ante = pay(chips[dealer], int(state.options["ante"]))
    chips[dealer] -= ante
    order = [(dealer + 1 + i) % n for i in range(n)]
    dealt = HAND_SIZE * n
    hands = tuple(
        italian_cards.sort_hand(cards[order.index(s) : dealt : n], ORDER.strength) for s in range(n)
    )
    return state.replace(
        rng=rng,
        hand_no=hand_no,
        dealer=dealer,
        phase=DECLARE,
        hands=hands,
        stock=tuple(cards[dealt + 1 :]),
        turned=cards[dealt],
        set_aside=(),
        chips=tuple(chips),
        pot=state.pot + ante,
        declared=(None,) * n,
        buio=(False,) * n,
        to_decide=tuple(order),
        turn=order[0],
        trick=(),
        tricks_done=0,
        tricks_won=(0,) * n,
        taken=(),
        last_trick=(),
    )
