"""The state of a Briscola table and the deal of each hand (RULES §5.1, §0.5).

Data only: the rules that move it live in :mod:`~tavolo.cardgames.games.tricks.briscola`.
With 4 players seats 0+2 play against 1+3; otherwise every seat is its own side.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.tricks.core import CardOrder, Play, sides_of
from tavolo.cardgames.rng import SeededRandom
from tavolo.cardgames.slotted import SlottedState

HAND_SIZE = 3
REMOVED_FOR_THREE = "2B"  # RULES §5: the 2 of bastoni leaves the deck for 3 players
ORDER = CardOrder.from_ranks(
    italian_cards.DECK, italian_cards.SUIT_OF, ("A", "3", "R", "C", "F", "7", "6", "5", "4", "2")
)
"""Trick order for Briscola: A 3 R C F 7 6 5 4 2 (RULES §0 rule 8)."""
POINTS = {c: {"A": 11, "3": 10, "R": 4, "C": 3, "F": 2}.get(c[:-1], 0) for c in italian_cards.DECK}
"""Card points: A 11, 3 10, R 4, C 3, F 2; 120 in the deck."""
WINNING_POINTS = 61
PLAY, OVER = "playing", "over"


@dataclass(frozen=True, slots=True)
class BriscolaOptions:
    match_length: str
    exchange_two: bool
    ko: bool

    def __reduce__(self) -> tuple[type[BriscolaOptions], tuple[object, ...]]:
        """Copied and pickled through the constructor: compiled, a frozen dataclass
        refuses the field-by-field restore ``copy.deepcopy`` and ``pickle`` do."""
        return BriscolaOptions, (self.match_length, self.exchange_two, self.ko)

    @property
    def hands(self) -> int:
        """``hands:N`` → N; ``single`` → 1."""
        return 1 if self.match_length == "single" else int(self.match_length.split(":")[1])


_FIELDS: Final = (
    "options",
    "rng",
    "seats",
    "hand_no",
    "dealer",
    "phase",
    "hands",
    "stock",  # top first; the turned card lies face up at the bottom
    "turned",  # the card turned at the deal: its suit is trumps
    "turn",
    "trick",
    "tricks_done",
    "taken",  # per seat, the cards of the tricks it won
    "last_trick",
    "hands_won",  # per side, hands won in the match (tie-breaks excluded)
    "points",  # per side, card points over the match's hands
    "score_sheet",  # per hand, each side's card points
    "tiebreaks",  # tie-break hands played (KO, RULES §0 rule 13)
    "tied",  # the sides a tie-break hand is deciding between
    "ranking",  # per side, the order tie-breaks gave (higher ranks higher)
    "last_hand",  # the summary of the last hand scored
    "end_reason",
)


class BriscolaState(SlottedState):
    """The whole table. Treat it as immutable: ``apply`` changes a :meth:`copy` (the
    generator is copied before every use, never advanced in place)."""

    __slots__ = _FIELDS
    FIELDS = _FIELDS

    def __init__(
        self,
        options: BriscolaOptions,
        rng: SeededRandom,
        seats: int,
        hand_no: int,
        dealer: int,
        phase: str,
        hands: tuple[tuple[str, ...], ...],
        stock: tuple[str, ...],
        turned: str,
        turn: int,
        trick: tuple[Play, ...],
        tricks_done: int,
        taken: tuple[tuple[str, ...], ...],
        last_trick: tuple[Play, ...],
        hands_won: tuple[int, ...],
        points: tuple[int, ...],
        score_sheet: tuple[tuple[int, ...], ...],
        tiebreaks: int,
        tied: tuple[int, ...],
        ranking: tuple[int, ...],
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
        self.turn = turn
        self.trick = trick
        self.tricks_done = tricks_done
        self.taken = taken
        self.last_trick = last_trick
        self.hands_won = hands_won
        self.points = points
        self.score_sheet = score_sheet
        self.tiebreaks = tiebreaks
        self.tied = tied
        self.ranking = ranking
        self.last_hand = last_hand
        self.end_reason = end_reason

    @property
    def trumps(self) -> str:
        return italian_cards.SUIT_OF[self.turned]

    @property
    def sides(self) -> tuple[tuple[int, ...], ...]:
        return sides_of(self.seats, self.seats == 4)

    def turned_on_view(self) -> bool:
        """Whether the turned card still lies face up under the stock."""
        return bool(self.stock) and self.stock[-1] == self.turned


def side_of(seats: int, seat: int) -> int:
    return seat % 2 if seats == 4 else seat


def deal(state: BriscolaState, hand_no: int, dealer: int) -> BriscolaState:
    """Shuffle and deal a hand: 3 each one at a time from the dealer's right, then the
    turned card, which goes under the stock (BRISCOLA-1)."""
    rng = state.rng.copy()
    n = state.seats
    cards = italian_cards.deck((REMOVED_FOR_THREE,) if n == 3 else ())
    rng.shuffle(cards)
    order = [(dealer + 1 + i) % n for i in range(n)]
    dealt = HAND_SIZE * n
    hands = tuple(
        italian_cards.sort_hand(cards[order.index(s) : dealt : n], ORDER.strength) for s in range(n)
    )
    turned = cards[dealt]
    return state.replace(
        rng=rng,
        hand_no=hand_no,
        dealer=dealer,
        phase=PLAY,
        hands=hands,
        stock=(*cards[dealt + 1 :], turned),
        turned=turned,
        turn=order[0],
        trick=(),
        tricks_done=0,
        taken=((),) * n,
        last_trick=(),
    )
