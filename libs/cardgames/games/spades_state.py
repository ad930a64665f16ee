"""The state of a Spades table and the deal of each round (RULES §3.1-3.2, §0.5).

Frozen data only: the rules that move it live in :mod:`~tavolo.cardgames.games.spades`.
Seats 0+2 form team 0 and seats 1+3 team 1; play is clockwise, from seat s to s-1.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass, replace

from tavolo.cardgames.contract import JSON
from tavolo.cardgames.games.french_deck import full_deck, sort_hand
from tavolo.cardgames.rng import SeededRandom

SEATS = 4
TEAMS: tuple[tuple[int, int], tuple[int, int]] = ((0, 2), (1, 3))
BLIND_NIL_DEFICIT = 100
BLIND, BID, PLAY, OVER = "blind_nil", "bidding", "playing", "over"


# Not slotted: pickling (snapshots in tests, copies between processes) is much faster
# through an instance dict than through a dataclass's slot-by-slot state.
@dataclass(frozen=True)
class SpadesOptions:
    target: int
    bag_points: int
    boston_bonus: int
    blind_nil: bool
    lose_at: int


@dataclass(frozen=True)
class SpadesState:
    """The whole table. Immutable: ``apply`` builds a new one (the generator is copied
    before every use, never advanced in place)."""

    options: SpadesOptions
    rng: SeededRandom
    round: int
    first_bidder: int
    phase: str
    hands: tuple[tuple[str, ...], ...]
    bids: tuple[int | None, ...]
    blind: tuple[bool, ...]
    undecided: tuple[int, ...]  # seats still to decide on blind nil, in bidding order
    turn: int
    trick: tuple[tuple[int, str], ...]  # (seat, card) in the order played
    tricks_done: int
    tricks_won: tuple[int, ...]
    taken: tuple[str, ...]  # the cards of this round's finished tricks
    last_trick: tuple[tuple[int, str], ...]
    spades_broken: bool
    scores: tuple[int, int]
    bags: tuple[int, int]
    # Per finished round: each team's points and total. The full summary of the last one.
    score_sheet: tuple[tuple[int, int, int, int], ...]
    last_round: Mapping[str, JSON] | None
    bostons: tuple[int, int]
    tiebreak_rounds: int | None  # None unless the teams tied at the target
    winner: int | None  # the winning team once the game is over
    end_reason: str | None


def bidding_order(first_bidder: int) -> tuple[int, ...]:
    """The seats from the first bidder, clockwise (s, s-1, s-2, s-3)."""
    return tuple((first_bidder - i) % SEATS for i in range(SEATS))


def team_of(seat: int) -> int:
    return seat % 2


def deal(rng: SeededRandom, first_bidder: int) -> tuple[tuple[str, ...], ...]:
    deck = full_deck()
    rng.shuffle(deck)
    order = bidding_order(first_bidder)
    return tuple(sort_hand(deck[order.index(s) :: SEATS]) for s in range(SEATS))


def start_round(state: SpadesState, round_no: int, first_bidder: int) -> SpadesState:
    """Deal a round and open its blind-nil decisions or its bidding."""
    rng = state.rng.copy()
    hands = deal(rng, first_bidder)
    undecided: tuple[int, ...] = ()
    if state.options.blind_nil:
        trailing = [t for t in (0, 1) if state.scores[1 - t] - state.scores[t] >= BLIND_NIL_DEFICIT]
        undecided = tuple(s for s in bidding_order(first_bidder) if trailing == [team_of(s)])
    return replace(
        state,
        rng=rng,
        round=round_no,
        first_bidder=first_bidder,
        phase=BLIND if undecided else BID,
        hands=hands,
        bids=(None,) * SEATS,
        blind=(False,) * SEATS,
        undecided=undecided,
        turn=undecided[0] if undecided else first_bidder,
        trick=(),
        tricks_done=0,
        tricks_won=(0,) * SEATS,
        taken=(),
        last_trick=(),
        spades_broken=False,
    )
