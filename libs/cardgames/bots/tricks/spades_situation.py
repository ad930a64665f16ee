"""What a Spades bot knows when it must play a card, built from its view alone.

``unseen`` is every card that may still be in another hand. Without memory it is every
card except the bot's own hand and the cards on view (this trick and the last one); with
memory it also excludes every card seen earlier in the round, which is what lets the
hard bot know which cards are masters and who can still trump.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavolo.cardgames.games.french_deck import SUITS, full_deck, rank_of, suit_of
from tavolo.cardgames.games.tricks.spades_scoring import TRICKS_PER_ROUND as TRICKS
from tavolo.cardgames.games.tricks.spades_state import SEATS
from tavolo.cardgames.games.tricks.spades_tricks import SPADES, trick_winner

ALL_CARDS = frozenset(full_deck())


@dataclass(slots=True)
class Situation:
    seat: int
    hand: tuple[str, ...]
    legal: list[str]
    trick: list[tuple[int, str]]
    bids: list[int]
    tricks_won: list[int]
    trick_number: int
    scores: tuple[int, int]
    bags: tuple[int, int]
    target: int
    unseen: set[str]
    voids: list[set[str]] = field(default_factory=lambda: [set() for _ in range(SEATS)])

    @classmethod
    def from_view(
        cls,
        seat: int,
        hand: Sequence[str],
        public: Mapping[str, Any],
        legal: list[str],
        *,
        played: set[str] | None = None,
        voids: list[set[str]] | None = None,
    ) -> Situation:
        trick = [(int(p["seat"]), str(p["card"])) for p in public["trick"]]
        seen = set(hand) | {c for _, c in trick}
        last = public.get("last_trick")
        if last:
            seen |= {str(p["card"]) for p in last["plays"]}
        if played:
            seen |= played
        team = seat % 2
        return cls(
            seat=seat,
            hand=tuple(hand),
            legal=legal,
            trick=trick,
            bids=[int(b) for b in public["bids"]],
            tricks_won=list(public["tricks_won"]),
            trick_number=int(public["trick_number"]),
            scores=(public["scores"][team], public["scores"][1 - team]),
            bags=(public["bags"][team], public["bags"][1 - team]),
            target=int(public["target"]),
            unseen=set(ALL_CARDS - seen),
            voids=voids if voids is not None else [set() for _ in range(SEATS)],
        )

    # -- who is who -------------------------------------------------------------------

    @property
    def partner(self) -> int:
        return (self.seat + 2) % SEATS

    def is_opponent(self, seat: int) -> bool:
        return seat % 2 != self.seat % 2

    def later_seats(self) -> list[int]:
        """Seats still to play in this trick after this one, in order."""
        return [(self.seat - k) % SEATS for k in range(1, SEATS - len(self.trick))]

    def nil_alive(self, seat: int) -> bool:
        return self.bids[seat] == 0 and self.tricks_won[seat] == 0

    # -- the contract -----------------------------------------------------------------

    @property
    def tricks_left(self) -> int:
        """Tricks still to be won, the current one included."""
        return TRICKS - self.trick_number + 1

    def team_need(self) -> int:
        mine = self.bids[self.seat] + self.bids[self.partner]
        return mine - self.tricks_won[self.seat] - self.tricks_won[self.partner]

    def opponents_need(self) -> int:
        a, b = self.opponents
        return self.bids[a] + self.bids[b] - self.tricks_won[a] - self.tricks_won[b]

    # -- the trick in progress --------------------------------------------------------

    @property
    def led(self) -> str | None:
        return suit_of(self.trick[0][1]) if self.trick else None

    def winning(self) -> tuple[int, str] | None:
        """The seat and card winning the trick so far."""
        if not self.trick:
            return None
        seat = trick_winner(self.trick)
        return seat, dict(self.trick)[seat]

    @property
    def opponents(self) -> tuple[int, int]:
        return (self.seat + 1) % SEATS, (self.seat + 3) % SEATS

    def suit_lengths(self) -> dict[str, int]:
        """How many cards of each suit this hand holds."""
        lengths = dict.fromkeys(SUITS, 0)
        for card in self.hand:
            lengths[suit_of(card)] += 1
        return lengths

    # -- the cards still out ----------------------------------------------------------

    def unseen_higher(self, card: str) -> int:
        suit, rank = suit_of(card), rank_of(card)
        return sum(1 for c in self.unseen if suit_of(c) == suit and rank_of(c) > rank)

    def unseen_in(self, suit: str) -> int:
        return sum(1 for c in self.unseen if suit_of(c) == suit)

    def may_hold(self, seat: int, suit: str) -> bool:
        return suit not in self.voids[seat] and self.unseen_in(suit) > 0

    def can_ruff(self, seat: int, suit: str) -> bool:
        """Known void in ``suit`` and possibly holding a spade."""
        return suit in self.voids[seat] and self.may_hold(seat, SPADES)

    def may_be_void(self, seat: int, suit: str) -> bool:
        """Known void, or so few cards of the suit are out that a void is likely."""
        return suit in self.voids[seat] or self.unseen_in(suit) <= 2

    def holds_against(self, card: str, led: str, seats: Sequence[int]) -> bool:
        """Would ``card`` still win if ``seats`` (opponents to play after) did their best?"""
        suit = suit_of(card)
        higher = self.unseen_higher(card) > 0
        spades_out = self.unseen_in(SPADES) > 0
        for seat in seats:
            if not self.is_opponent(seat):
                continue
            if suit == SPADES and led != SPADES:
                # Only a seat out of the suit led can overtrump.
                if higher and self.may_hold(seat, SPADES) and self.may_be_void(seat, led):
                    return False
                continue
            if higher and self.may_hold(seat, suit):
                return False
            ruffable = spades_out and SPADES not in self.voids[seat]
            if suit != SPADES and ruffable and self.may_be_void(seat, suit):
                return False
        return True
