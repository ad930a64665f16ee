"""The state of a Scala 40 table and the deal of each hand (RULES §13.1, §0.5).

Frozen data only: the rules that move it live in :mod:`~tavolo.cardgames.games.rummy.scala40`.
Every player plays for themselves; play is anticlockwise (seat s to s+1) and the player
on the dealer's right starts. Eliminated players sit out the later hands.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games.rummy.deck import JOKER, full_deck, sort_cards
from tavolo.cardgames.games.rummy.melds import Meld
from tavolo.cardgames.rng import SeededRandom
from tavolo.cardgames.slotted import SlottedState

HAND_SIZE = 13
DRY_REBUILDS = 2
"""Stocks rebuilt from the pozzo in a row with no card laid before a hand ends as a stall."""
DRAW, PLAY, OVER = "draw", "play", "over"


@dataclass(frozen=True)
class Scala40Options:
    elimination: int
    hands_limit: int | None
    no_attachable_discard: bool
    match: str

    def __reduce__(self) -> tuple[type[Scala40Options], tuple[object, ...]]:
        """Copied and pickled through the constructor: compiled, a frozen dataclass
        refuses the field-by-field restore ``copy.deepcopy`` and ``pickle`` do."""
        return Scala40Options, (
            self.elimination,
            self.hands_limit,
            self.no_attachable_discard,
            self.match,
        )


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
    "pozzo",  # the discards, the last on top
    "melds",  # (who laid it, meld), in the order laid
    "pending",  # the last melds, laid this turn by a player still opening
    "opened",
    "taken",  # the pozzo card taken this turn, which must be used
    "turns_done",  # turns completed this hand (no closing in the first round)
    "dry_rebuilds",  # stocks rebuilt from the pozzo since a card was last laid (the stall)
    "laid_mark",  # laid_measure(melds) when the stock last ran out
    "alive",
    "totals",
    "hands_won",
    "out_order",  # the players eliminated, hand by hand
    "score_sheet",
    "last_hand",
    "places",
    "end_reason",
)


class Scala40State(SlottedState):
    """The whole table. Treat it as immutable: ``apply`` changes a
    :meth:`copy`."""

    __slots__ = _FIELDS
    FIELDS = _FIELDS

    def __init__(
        self,
        options: Scala40Options,
        rng: SeededRandom,
        seats: int,
        hand_no: int,
        dealer: int,
        turn: int,
        phase: str,
        hands: tuple[tuple[str, ...], ...],
        stock: tuple[str, ...],
        pozzo: tuple[str, ...],
        melds: tuple[tuple[int, Meld], ...],
        pending: int,
        opened: tuple[bool, ...],
        taken: str | None,
        turns_done: int,
        dry_rebuilds: int,
        laid_mark: int,
        alive: tuple[bool, ...],
        totals: tuple[int, ...],
        hands_won: tuple[int, ...],
        out_order: tuple[tuple[int, ...], ...],
        score_sheet: tuple[tuple[int, ...], ...],
        last_hand: Mapping[str, JSON] | None,
        places: tuple[int, ...] | None,
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
        self.pozzo = pozzo
        self.melds = melds
        self.pending = pending
        self.opened = opened
        self.taken = taken
        self.turns_done = turns_done
        self.dry_rebuilds = dry_rebuilds
        self.laid_mark = laid_mark
        self.alive = alive
        self.totals = totals
        self.hands_won = hands_won
        self.out_order = out_order
        self.score_sheet = score_sheet
        self.last_hand = last_hand
        self.places = places
        self.end_reason = end_reason


def laid_measure(melds: tuple[tuple[int, Meld], ...]) -> int:
    """Grows with every card laid for good: a meld or an attachment adds cards to the
    table, and a joker swapped back leaves the table with one more natural card. Nothing
    ever leaves the table, so the measure never falls and each rise is progress."""
    return sum(len(m.cards) + sum(c != JOKER for c in m.cards) for _, m in melds)


def parse_match_length(value: object) -> int | None:
    """``"elimination"`` → None; ``"hands:N"`` → N (PCG-6)."""
    if value == "elimination":
        return None
    if isinstance(value, str) and value.startswith("hands:"):
        number = value.partition(":")[2]
        if number.isdigit() and 1 <= int(number) <= 99:
            return int(number)
    raise ValueError(f"match_length must be 'elimination' or 'hands:N' (N up to 99), not {value!r}")


def players_in(state: Scala40State) -> tuple[int, ...]:
    return tuple(s for s in range(state.seats) if state.alive[s])


def next_player(state: Scala40State, seat: int) -> int:
    """The next player still in the match, anticlockwise."""
    for step in range(1, state.seats + 1):
        other = (seat + step) % state.seats
        if state.alive[other]:
            return other
    return seat


def deal(
    rng: SeededRandom, order: tuple[int, ...], seats: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...]]:
    """13 each off the top from the dealer's right, then one card up to start the pozzo;
    a joker turned up goes to the bottom of the stock and the next card is turned."""
    deck = full_deck()
    rng.shuffle(deck)
    hands: list[tuple[str, ...]] = [()] * seats
    dealt = HAND_SIZE * len(order)
    for i, seat in enumerate(order):
        hands[seat] = sort_cards(deck[i : dealt : len(order)])
    rest = deck[dealt:]
    while rest[0] == JOKER:
        rest = [*rest[1:], JOKER]
    return tuple(hands), tuple(rest[1:]), (rest[0],)


def start_hand(state: Scala40State, hand_no: int, dealer: int) -> Scala40State:
    rng = state.rng.copy()
    first = next_player(state, dealer)
    order = [first]
    while len(order) < len(players_in(state)):
        order.append(next_player(state, order[-1]))
    hands, stock, pozzo = deal(rng, tuple(order), state.seats)
    return state.replace(
        rng=rng,
        hand_no=hand_no,
        dealer=dealer,
        turn=first,
        phase=DRAW,
        hands=hands,
        stock=stock,
        pozzo=pozzo,
        melds=(),
        pending=0,
        opened=(False,) * state.seats,
        taken=None,
        turns_done=0,
        dry_rebuilds=0,
        laid_mark=0,
    )
