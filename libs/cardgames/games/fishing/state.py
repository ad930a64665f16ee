"""The state of a fishing table and the mechanics every fishing game shares: the rules a
table plays by, sides, and the deal (RULES §0.1-0.5, SCOPA-1/2).

The state is a slotted class of immutable fields. ``apply`` copies it
(:meth:`FishingState.copy`) and changes only the copy, so a state handed out never
changes afterwards.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import Any, Final

from tavolo.cardgames.actions import Action
from tavolo.cardgames.games.fishing.deck import DECKS, Deck
from tavolo.cardgames.games.fishing.scoring import Extras, SideCount
from tavolo.cardgames.rng import SeededRandom
from tavolo.cardgames.slotted import SlottedState

LATER_DEAL: Final = 3
"""Every later deal from the stock is 3 cards each (SCOPA-2, ASSO-1, CIRULLA-1)."""
NOBODY: Final = -1

Play = tuple[int, str, tuple[str, ...], bool]
"""A play of this hand, public: (seat, card, the table cards it took, was it a scopa)."""


@dataclass(frozen=True)
class FishingRules:
    """What a table plays by, fixed by its game and options when the match starts."""

    style: str  # capture style, see fishing_captures: scopa, asso or cirulla
    deck_name: str
    hand_size: int
    table_size: int
    redeal_kings: bool  # three or more Re among the opening table cards: redeal
    redeal_aces: bool  # two or more aces among them: redeal (Cirulla)
    fewest: bool  # fewest_cards_sum
    ace_sweep_scopa: bool
    extras: Extras
    accusi: bool  # Cirulla's cirulla and decino
    dealer_bonus: bool  # Cirulla's opening 15/30
    cappotto: bool  # all 10 denari end the match (Cirulla)
    match_kind: str  # "points" or "hands"
    match_number: int

    @property
    def deck(self) -> Deck:
        return DECKS[self.deck_name]

    def __reduce__(self) -> tuple[type[FishingRules], tuple[Any, ...]]:
        """Pickled through the constructor: every snapshot of a state pickles its rules."""
        return FishingRules, (
            self.style,
            self.deck_name,
            self.hand_size,
            self.table_size,
            self.redeal_kings,
            self.redeal_aces,
            self.fewest,
            self.ace_sweep_scopa,
            self.extras,
            self.accusi,
            self.dealer_bonus,
            self.cappotto,
            self.match_kind,
            self.match_number,
        )


_FIELDS: Final = (
    "rules",
    "seats",
    "sides",
    "dealer",
    "turn",
    "hand_no",
    "hands",
    "table",
    "opening",
    "stock",
    "piles",
    "scope",
    "accusi",
    "last_capturer",
    "plays",
    "may_declare",
    "declared",
    "bonus",
    "totals",
    "sheet",
    "last_count",
    "tied",
    "tiebreaks",
    "ko_loser",
    "cappotto_side",
    "over",
    "step",
    "rng",
)


class FishingState(SlottedState):
    """One moment of a fishing match. Treat it as immutable: ``apply`` returns a new one.

    - ``sides[k]``: the seats of side k (one seat, or partners opposite each other);
    - ``hands[s]``: seat s's cards; ``table``: face up, in the order laid (``opening``:
      as this hand's deal left it);
      ``stock``: face down, index 0 on top;
    - ``piles[k]``, ``scope[k]``, ``accusi[k]``: side k's captures, scope and accusi
      points this hand; ``last_capturer``: the side that captured last (or ``NOBODY``);
    - ``plays``: this hand's plays, public; ``bonus``: Cirulla's opening (side, scope);
    - ``may_declare[s]``/``declared[s]``: Cirulla's accuso this deal (``declared`` is
      ``""``, ``"cirulla"`` or ``"decino"``; a declared hand is shown to all);
    - ``totals[k]``: match points; ``sheet``: each hand's points by side;
      ``last_count``: the last hand's count, line by line;
    - ``tied``: the sides playing tie-break hands (empty otherwise), ``tiebreaks``: their
      points in each; ``ko_loser``, ``cappotto_side``: how a match was decided;
    - ``step``: actions applied, which makes every timer key unique.

    Besides the fields, a state keeps the legal moves of the seat to play once they are
    listed (``listed``, for the hand, table and ``may_declare`` in ``listed_hand``,
    ``listed_table`` and ``listed_may``): the legality check of the move then looks it up
    instead of listing again. It is not a field: copies, equality and pickles leave it
    out, and it is read only while those three are the very tuples it was listed for.
    """

    __slots__ = (*_FIELDS, "listed", "listed_hand", "listed_table", "listed_may")
    FIELDS = _FIELDS

    def __init__(
        self,
        rules: FishingRules,
        seats: int,
        sides: tuple[tuple[int, ...], ...],
        dealer: int,
        turn: int,
        hand_no: int,
        hands: tuple[tuple[str, ...], ...],
        table: tuple[str, ...],
        opening: tuple[str, ...],
        stock: tuple[str, ...],
        piles: tuple[tuple[str, ...], ...],
        scope: tuple[int, ...],
        accusi: tuple[int, ...],
        last_capturer: int,
        plays: tuple[Play, ...],
        may_declare: tuple[bool, ...],
        declared: tuple[str, ...],
        bonus: tuple[int, ...],
        totals: tuple[int, ...],
        sheet: tuple[tuple[int, ...], ...],
        last_count: tuple[SideCount, ...] | None,
        tied: tuple[int, ...],
        tiebreaks: tuple[tuple[int, ...], ...],
        ko_loser: int,
        cappotto_side: int,
        over: bool,
        step: int,
        rng: SeededRandom,
    ) -> None:
        self.rules = rules
        self.seats = seats
        self.sides = sides
        self.dealer = dealer
        self.turn = turn
        self.hand_no = hand_no
        self.hands = hands
        self.table = table
        self.opening = opening
        self.stock = stock
        self.piles = piles
        self.scope = scope
        self.accusi = accusi
        self.last_capturer = last_capturer
        self.plays = plays
        self.may_declare = may_declare
        self.declared = declared
        self.bonus = bonus
        self.totals = totals
        self.sheet = sheet
        self.last_count = last_count
        self.tied = tied
        self.tiebreaks = tiebreaks
        self.ko_loser = ko_loser
        self.cappotto_side = cappotto_side
        self.over = over
        self.step = step
        self.rng = rng
        self.listed: tuple[Action, ...] = ()
        self.listed_hand: tuple[str, ...] | None = None
        self.listed_table: tuple[str, ...] | None = None
        self.listed_may: tuple[bool, ...] | None = None

    def copy(self) -> FishingState:
        """A new state with the same fields, named one by one: it is on every action's path."""
        return FishingState(
            self.rules,
            self.seats,
            self.sides,
            self.dealer,
            self.turn,
            self.hand_no,
            self.hands,
            self.table,
            self.opening,
            self.stock,
            self.piles,
            self.scope,
            self.accusi,
            self.last_capturer,
            self.plays,
            self.may_declare,
            self.declared,
            self.bonus,
            self.totals,
            self.sheet,
            self.last_count,
            self.tied,
            self.tiebreaks,
            self.ko_loser,
            self.cappotto_side,
            self.over,
            self.step,
            self.rng,
        )

    # -- small helpers every rule uses ----------------------------------------------

    @property
    def deck(self) -> Deck:
        return DECKS[self.rules.deck_name]

    def side_of(self, seat: int) -> int:
        return seat % len(self.sides)

    def first_player(self) -> int:
        """The player on the dealer's right, first to play (RULES §0.2)."""
        return (self.dealer + 1) % self.seats

    def set_hand(self, seat: int, hand: tuple[str, ...]) -> None:
        hands = list(self.hands)
        hands[seat] = hand
        self.hands = tuple(hands)

    def hand_over(self) -> bool:
        return not self.stock and not any(self.hands)


def sides_for(seats: int) -> tuple[tuple[int, ...], ...]:
    """Two or three players play alone; four play in partnerships 0+2 against 1+3."""
    if seats == 4:
        return ((0, 2), (1, 3))
    return tuple((s,) for s in range(seats))


def deal_order(first: int, seats: int) -> tuple[int, ...]:
    """The seats in the direction of play (anticlockwise, s to s+1) from ``first``."""
    return tuple((first + i) % seats for i in range(seats))


def deal_hands(
    cards: tuple[str, ...], first: int, seats: int, size: int
) -> tuple[tuple[str, ...], ...]:
    """Cards come off the top one at a time, from ``first`` round the table (RULES §0.5):
    the k-th seat from ``first`` gets every ``seats``-th card from the k-th on."""
    hands: list[tuple[str, ...]] = [()] * seats
    dealt = size * seats
    for k in range(seats):
        hands[(first + k) % seats] = cards[k:dealt:seats]
    return tuple(hands)


def needs_redeal(rules: FishingRules, table: tuple[str, ...]) -> bool:
    """SCOPA-1, ASSO-1, SCOPONE-1: three or more Re; CIRULLA-1: two or more aces."""
    value = DECKS[rules.deck_name].value
    values = [value[c] for c in table]
    if rules.redeal_kings and values.count(10) >= 3:
        return True
    return rules.redeal_aces and values.count(1) >= 2


def fresh_deal(
    rules: FishingRules, shuffle: Callable[[list[str]], None], dealer: int, seats: int
) -> tuple[tuple[tuple[str, ...], ...], tuple[str, ...], tuple[str, ...], int]:
    """Shuffle (with the table generator's ``shuffle``) and deal until the table needs no
    redeal: the hands, the table, the stock and how many redeals it took. The same dealer
    redeals, from a fresh shuffle."""
    redeals = 0
    first = (dealer + 1) % seats
    codes = DECKS[rules.deck_name].codes
    while True:
        deck = list(codes)
        shuffle(deck)
        cards = tuple(deck)
        dealt = rules.hand_size * seats
        hands = deal_hands(cards, first, seats, rules.hand_size)
        table = cards[dealt : dealt + rules.table_size]
        if not needs_redeal(rules, table):
            return hands, table, cards[dealt + rules.table_size :], redeals
        redeals += 1
