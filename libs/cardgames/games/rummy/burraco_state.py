"""The state of a Burraco table and the deal of each hand (RULES §12.1, §0.5).

Frozen data only: the rules that move it live in :mod:`~tavolo.cardgames.games.rummy.burraco`.
Two players play each for a side; four play seats 0+2 against 1+3. Play is
anticlockwise, from seat s to s+1, and the player on the dealer's right (dealer + 1)
plays first.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games.rummy.deck import full_deck, sort_cards
from tavolo.cardgames.games.rummy.melds import Meld
from tavolo.cardgames.rng import SeededRandom
from tavolo.cardgames.slotted import SlottedState

HAND_SIZE = 11
POZZETTO_SIZE = 11
LAST_STOCK = 2  # a draw that leaves this many ends the hand after the discard (12.8)
DRAW, PLAY, OVER = "draw", "play", "over"
MAX_TIEBREAKS = 3


@dataclass(frozen=True)
class BurracoOptions:
    semipulito: bool
    hands_limit: int | None
    points_target: int | None
    match: str

    def __reduce__(self) -> tuple[type[BurracoOptions], tuple[object, ...]]:
        """Copied and pickled through the constructor: compiled, a frozen dataclass
        refuses the field-by-field restore ``copy.deepcopy`` and ``pickle`` do."""
        return BurracoOptions, (self.semipulito, self.hands_limit, self.points_target, self.match)


_FIELDS: Final = (
    "options",
    "rng",
    "seats",
    "hand_no",
    "dealer",
    "turn",
    "phase",
    "hands",
    "stock",  # index 0 is the top
    "discard",  # the last card is the top
    "pozzetti",  # per side; () once taken
    "took_pozzetto",
    "melds",  # per side, in the order laid
    "banned",  # the single discard just taken, which may not go back (12.2)
    "last_turn",  # the draw left 2 cards: the hand ends after this discard (12.8)
    "last_player",  # who made the last play, for the third tie-break hand (0.14)
    "totals",
    "score_sheet",  # per hand: both points, both totals
    "last_hand",
    "tiebreaks",  # tie-break hands played, once the match is tied at its end
    "winner",  # the winning side; -1 for a shared place
    "end_reason",
)


class BurracoState(SlottedState):
    """The whole table. Treat it as immutable: ``apply`` changes a
    :meth:`copy`."""

    __slots__ = _FIELDS
    FIELDS = _FIELDS

    def __init__(
        self,
        options: BurracoOptions,
        rng: SeededRandom,
        seats: int,
        hand_no: int,
        dealer: int,
        turn: int,
        phase: str,
        hands: tuple[tuple[str, ...], ...],
        stock: tuple[str, ...],
        discard: tuple[str, ...],
        pozzetti: tuple[tuple[str, ...], tuple[str, ...]],
        took_pozzetto: tuple[bool, bool],
        melds: tuple[tuple[Meld, ...], tuple[Meld, ...]],
        banned: str | None,
        last_turn: bool,
        last_player: int,
        totals: tuple[int, int],
        score_sheet: tuple[tuple[int, int, int, int], ...],
        last_hand: Mapping[str, JSON] | None,
        tiebreaks: int | None,
        winner: int | None,
        end_reason: str | None,
    ) -> None:
        self.options = options
        self.rng = rng
        self.seats = seats
        self.hand_no = hand_no
        self.dealer = dealer
        self.turn = turn
        self.phase = phase
        self.hands = hands
        self.stock = stock
        self.discard = discard
        self.pozzetti = pozzetti
        self.took_pozzetto = took_pozzetto
        self.melds = melds
        self.banned = banned
        self.last_turn = last_turn
        self.last_player = last_player
        self.totals = totals
        self.score_sheet = score_sheet
        self.last_hand = last_hand
        self.tiebreaks = tiebreaks
        self.winner = winner
        self.end_reason = end_reason


def side_of(state: BurracoState, seat: int) -> int:
    return seat % 2


def members(state: BurracoState, side: int) -> tuple[int, ...]:
    return tuple(s for s in range(state.seats) if s % 2 == side)


def parse_match_length(value: object) -> tuple[int | None, int | None]:
    """``"points:T"`` → (None, T); ``"hands:N"`` → (N, None) (PCG-6)."""
    if isinstance(value, str) and ":" in value:
        kind, _, number = value.partition(":")
        if number.isdigit() and 1 <= int(number) <= 100_000:
            if kind == "hands" and int(number) <= 100:
                return int(number), None
            if kind == "points":
                return None, int(number)
    raise ValueError(f"match_length must be 'points:T' or 'hands:N' (N up to 100), not {value!r}")


def deal(
    rng: SeededRandom, seats: int, dealer: int
) -> tuple[
    tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...], tuple[tuple[str, ...], ...]
]:
    """Hands off the top one card at a time from the dealer's right; the two pozzetti
    alternately off the bottom; one card face up; the rest is the stock (RULES 12.1)."""
    deck = full_deck()
    rng.shuffle(deck)
    first = (dealer + 1) % seats
    dealt = HAND_SIZE * seats
    hands = tuple(sort_cards(deck[(s - first) % seats : dealt : seats]) for s in range(seats))
    bottom = deck[::-1][: 2 * POZZETTO_SIZE]
    pozzetti = (tuple(bottom[0::2]), tuple(bottom[1::2]))
    up = deck[dealt]
    stock = tuple(deck[dealt + 1 : len(deck) - 2 * POZZETTO_SIZE])
    return hands, stock, (up,), pozzetti


def start_hand(state: BurracoState, hand_no: int, dealer: int) -> BurracoState:
    rng = state.rng.copy()
    hands, stock, discard, pozzetti = deal(rng, state.seats, dealer)
    return state.replace(
        rng=rng,
        hand_no=hand_no,
        dealer=dealer,
        turn=(dealer + 1) % state.seats,
        phase=DRAW,
        hands=hands,
        stock=stock,
        discard=discard,
        pozzetti=(pozzetti[0], pozzetti[1]),
        took_pozzetto=(False, False),
        melds=((), ()),
        banned=None,
        last_turn=False,
    )
