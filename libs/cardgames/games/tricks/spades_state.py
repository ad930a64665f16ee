"""The state of a Spades table and the deal of each round (RULES §3.1-3.2, §0.5).

Data only: the rules that move it live in :mod:`~tavolo.cardgames.games.tricks.spades`.
Seats 0+2 form team 0 and seats 1+3 team 1; play is clockwise, from seat s to s-1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Final

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games.french_deck import deal_hands, full_deck
from tavolo.cardgames.rng import SeededRandom
from tavolo.cardgames.slotted import SlottedState

SEATS: Final = 4
TEAMS: Final[tuple[tuple[int, int], tuple[int, int]]] = ((0, 2), (1, 3))
BLIND_NIL_DEFICIT: Final = 100
BLIND: Final = "blind_nil"
BID: Final = "bidding"
PLAY: Final = "playing"
OVER: Final = "over"


@dataclass(frozen=True, slots=True)
class SpadesOptions:
    """The table options, parsed once at the start."""

    target: int
    bag_points: int
    boston_bonus: int
    blind_nil: bool
    lose_at: int

    def __reduce__(self) -> tuple[type[SpadesOptions], tuple[object, ...]]:
        """Copied and pickled through the constructor: compiled, a frozen dataclass
        refuses the field-by-field restore ``copy.deepcopy`` and ``pickle`` do."""
        return SpadesOptions, (
            self.target,
            self.bag_points,
            self.boston_bonus,
            self.blind_nil,
            self.lose_at,
        )


_FIELDS: Final = (
    "options",
    "rng",
    "round",
    "first_bidder",
    "phase",
    "hands",
    "bids",
    "blind",
    "undecided",
    "turn",
    "trick",
    "tricks_done",
    "tricks_won",
    "taken",
    "last_trick",
    "spades_broken",
    "scores",
    "bags",
    "score_sheet",
    "last_round",
    "bostons",
    "tiebreak_rounds",
    "winner",
    "end_reason",
)


class SpadesState(SlottedState):
    """The whole table. Treat it as immutable: ``apply`` changes a :meth:`copy` (the
    generator is copied before every use, never advanced in place).

    - ``undecided``: seats still to decide on blind nil, in bidding order;
    - ``trick``: (seat, card) in the order played; ``taken``: the cards of this round's
      finished tricks;
    - ``score_sheet``: per finished round, each team's points and total;
      ``last_round``: the full summary of the last one;
    - ``tiebreak_rounds``: ``None`` unless the teams tied at the target;
    - ``winner``: the winning team once the game is over.
    """

    __slots__ = _FIELDS
    FIELDS = _FIELDS

    def __init__(
        self,
        options: SpadesOptions,
        rng: SeededRandom,
        round: int,
        first_bidder: int,
        phase: str,
        hands: tuple[tuple[str, ...], ...],
        bids: tuple[int | None, ...],
        blind: tuple[bool, ...],
        undecided: tuple[int, ...],
        turn: int,
        trick: tuple[tuple[int, str], ...],
        tricks_done: int,
        tricks_won: tuple[int, ...],
        taken: tuple[str, ...],
        last_trick: tuple[tuple[int, str], ...],
        spades_broken: bool,
        scores: tuple[int, int],
        bags: tuple[int, int],
        score_sheet: tuple[tuple[int, int, int, int], ...],
        last_round: Mapping[str, JSON] | None,
        bostons: tuple[int, int],
        tiebreak_rounds: int | None,
        winner: int | None,
        end_reason: str | None,
    ) -> None:
        self.options = options
        self.rng = rng
        self.round = round
        self.first_bidder = first_bidder
        self.phase = phase
        self.hands = hands
        self.bids = bids
        self.blind = blind
        self.undecided = undecided
        self.turn = turn
        self.trick = trick
        self.tricks_done = tricks_done
        self.tricks_won = tricks_won
        self.taken = taken
        self.last_trick = last_trick
        self.spades_broken = spades_broken
        self.scores = scores
        self.bags = bags
        self.score_sheet = score_sheet
        self.last_round = last_round
        self.bostons = bostons
        self.tiebreak_rounds = tiebreak_rounds
        self.winner = winner
        self.end_reason = end_reason

    def copy(self) -> SpadesState:
        """The base's copy written out: a direct constructor call, several times faster
        compiled than the generic one, on every action's path (``bench/``)."""
        return SpadesState(
            self.options,
            self.rng,
            self.round,
            self.first_bidder,
            self.phase,
            self.hands,
            self.bids,
            self.blind,
            self.undecided,
            self.turn,
            self.trick,
            self.tricks_done,
            self.tricks_won,
            self.taken,
            self.last_trick,
            self.spades_broken,
            self.scores,
            self.bags,
            self.score_sheet,
            self.last_round,
            self.bostons,
            self.tiebreak_rounds,
            self.winner,
            self.end_reason,
        )


def bidding_order(first_bidder: int) -> tuple[int, ...]:
    """The seats from the first bidder, clockwise (s, s-1, s-2, s-3)."""
    return tuple((first_bidder - i) % SEATS for i in range(SEATS))


def team_of(seat: int) -> int:
    return seat % 2


def deal(rng: SeededRandom, first_bidder: int) -> tuple[tuple[str, ...], ...]:
    deck = full_deck()
    rng.shuffle(deck)
    return deal_hands(deck, bidding_order(first_bidder))


def start_round(state: SpadesState, round_no: int, first_bidder: int) -> SpadesState:
    """Deal a round and open its blind-nil decisions or its bidding."""
    rng = state.rng.copy()
    hands = deal(rng, first_bidder)
    undecided: tuple[int, ...] = ()
    if state.options.blind_nil:
        trailing = [t for t in (0, 1) if state.scores[1 - t] - state.scores[t] >= BLIND_NIL_DEFICIT]
        undecided = tuple(s for s in bidding_order(first_bidder) if trailing == [team_of(s)])
    st = state.copy()
    st.rng, st.round, st.first_bidder, st.hands = rng, round_no, first_bidder, hands
    st.phase = BLIND if undecided else BID
    st.bids, st.blind, st.undecided = (None,) * SEATS, (False,) * SEATS, undecided
    st.turn = undecided[0] if undecided else first_bidder
    st.trick, st.tricks_done, st.tricks_won = (), 0, (0,) * SEATS
    st.taken, st.last_trick, st.spades_broken = (), (), False
    return st
