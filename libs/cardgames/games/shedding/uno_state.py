"""Uno's state and the mechanics its rules share: dealing, drawing, passing the turn, scoring.

The state is a slotted class of immutable fields; ``apply`` works on a :meth:`copy` (the
generator is copied before it is used), so a state handed out never changes afterwards.
Matching a card is the same rule as Pika's (RULES §1.1 and §2.2), so it comes from
:func:`~tavolo.cardgames.games.shedding.pika_state.playable`; everything else here is Uno's own.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tavolo.cardgames.contract import Event, Outcome, places_from_measure
from tavolo.cardgames.games.shedding.deck import COLOUR_NAMES, DECK, POINTS, WILD_DRAW_FOUR
from tavolo.cardgames.rng import SeededRandom
from tavolo.cardgames.slotted import SlottedState

HAND_SIZE: Final = 7
CLOCKWISE: Final = -1
"""Uno is played clockwise (RULES §0.3): the turn passes from seat s to s-1."""
RECENT_MOVES: Final = 12
"""How many public moves a view lists."""

# What the seat to act must do before an ordinary turn.
NAME_COLOUR: Final = "colour"
"""A wild was turned at the deal: the first player names the colour (UNO-1)."""
ANSWER_PLUS4: Final = "plus4"
"""A wild +4 was played with the challenge on: the next player accepts or challenges."""

Move = tuple[int, int, str, str, str]
"""A public move: (number in the hand, seat, move, card, colour letter in play after it)."""


@dataclass(frozen=True, slots=True)
class UnoRules:
    """The table options, parsed once at the start."""

    window_ms: int
    challenge: bool
    match: str
    hands_limit: int | None = None
    points_target: int | None = None

    def __reduce__(self) -> tuple[type[UnoRules], tuple[object, ...]]:
        """Copied and pickled through the constructor: compiled, a frozen dataclass
        refuses the field-by-field restore ``copy.deepcopy`` and ``pickle`` do."""
        return UnoRules, (
            self.window_ms,
            self.challenge,
            self.match,
            self.hands_limit,
            self.points_target,
        )


_FIELDS: Final = (
    "rules",
    "seats",
    "hands",
    "stock",
    "discard",
    "colour",
    "turn",
    "direction",
    "pending",
    "drawn",
    "plus4_by",
    "plus4_bluff",
    "shown",
    "windows",
    "idle",
    "step",
    "turn_started",
    "dealer",
    "round",
    "totals",
    "recent",
    "rng",
    "outcome",
)


class UnoState(SlottedState):
    """One moment of an Uno match. Treat it as immutable: ``apply`` returns a new one.

    - ``hands[s]``: seat s's cards in the order the seat chose; ``stock`` index 0 on top;
      ``discard`` face up, last on top; ``colour``: the colour in play, as a letter;
    - ``pending``: ``""``, :data:`NAME_COLOUR` or :data:`ANSWER_PLUS4` (for ``turn``);
    - ``drawn``: the playable card the seat to act just drew, to play or keep (UNO-3);
    - ``plus4_by`` / ``plus4_bluff``: who laid the pending wild +4, and whether they held
      a card of the colour then in play (what a challenge finds out, UNO-5);
    - ``shown``: after a challenge, (challenger, +4 player, that hand): the challenger
      alone sees it, until the next action;
    - ``windows``: open UNO windows as (seat, step at which it opened);
    - ``idle``: consecutive turns with nothing played and nothing left to draw;
    - ``step``: actions applied so far (makes every timer key unique);
    - ``recent``: the latest public moves, oldest first.
    """

    __slots__ = _FIELDS
    FIELDS = _FIELDS

    def __init__(
        self,
        rules: UnoRules,
        seats: int,
        hands: tuple[tuple[str, ...], ...],
        stock: tuple[str, ...],
        discard: tuple[str, ...],
        colour: str,
        turn: int,
        direction: int,
        pending: str,
        drawn: str | None,
        plus4_by: int,
        plus4_bluff: bool,
        shown: tuple[int, int, tuple[str, ...]] | None,
        windows: tuple[tuple[int, int], ...],
        idle: int,
        step: int,
        turn_started: int,
        dealer: int,
        round: int,
        totals: tuple[int, ...],
        recent: tuple[Move, ...],
        rng: SeededRandom,
        outcome: Outcome | None = None,
    ) -> None:
        self.rules = rules
        self.seats = seats
        self.hands = hands
        self.stock = stock
        self.discard = discard
        self.colour = colour
        self.turn = turn
        self.direction = direction
        self.pending = pending
        self.drawn = drawn
        self.plus4_by = plus4_by
        self.plus4_bluff = plus4_bluff
        self.shown = shown
        self.windows = windows
        self.idle = idle
        self.step = step
        self.turn_started = turn_started
        self.dealer = dealer
        self.round = round
        self.totals = totals
        self.recent = recent
        self.rng = rng
        self.outcome = outcome

    def record(self, seat: int, move: str, card: str = "") -> None:
        number = self.recent[-1][0] + 1 if self.recent else 1
        self.recent = (*self.recent[1 - RECENT_MOVES :], (number, seat, move, card, self.colour))

    def set_hand(self, seat: int, hand: tuple[str, ...]) -> None:
        hands = list(self.hands)
        hands[seat] = hand
        self.hands = tuple(hands)

    def next_seat(self, steps: int = 1) -> int:
        return (self.turn + self.direction * steps) % self.seats


def deal(
    rules: UnoRules,
    seats: int,
    dealer: int,
    round_no: int,
    totals: tuple[int, ...],
    rng: SeededRandom,
    step: int,
) -> tuple[UnoState, list[Event]]:
    """Shuffle the whole deck, deal 7 each and turn the top card (UNO-1). ``rng`` is consumed.

    Cards come off the top one at a time from the player on the dealer's left (RULES §0.5).
    A wild +4 turned up goes back and the stock is reshuffled; any other action card acts
    as if the dealer had played it on the first player.
    """
    deck = list(DECK)
    rng.shuffle(deck)
    first = (dealer + CLOCKWISE) % seats
    dealt = HAND_SIZE * seats
    hands = tuple(
        tuple(deck[(seat - first) * CLOCKWISE % seats : dealt : seats]) for seat in range(seats)
    )
    stock = deck[dealt:]
    returned: list[str] = []
    while stock[0] == WILD_DRAW_FOUR:
        returned.append(stock[0])
        rng.shuffle(stock)
    top = stock.pop(0)
    colour = top[0] if top[0] != "W" else ""
    direction, turn, pending, draw_first = CLOCKWISE, first, "", 0
    value = top[1:]
    if top == "W":
        pending = NAME_COLOUR
    elif value == "skip":
        turn = (first + CLOCKWISE) % seats
    elif value == "rev":
        # The dealer plays first, going the other way (with two players: the first
        # player is skipped, which is the dealer again).
        direction, turn = -CLOCKWISE, dealer
    elif value == "+2":
        draw_first, turn = 2, (first + CLOCKWISE) % seats
    hands_list = list(hands)
    drawn_first: tuple[str, ...] = ()
    if draw_first:
        drawn_first = tuple(stock[:draw_first])
        del stock[:draw_first]
        hands_list[first] = hands_list[first] + drawn_first
    state = UnoState(
        rules=rules,
        seats=seats,
        hands=tuple(hands_list),
        stock=tuple(stock),
        discard=(top,),
        colour=colour,
        turn=turn,
        direction=direction,
        pending=pending,
        drawn=None,
        plus4_by=-1,
        plus4_bluff=False,
        shown=None,
        windows=(),
        idle=0,
        step=step,
        turn_started=step,
        dealer=dealer,
        round=round_no,
        totals=totals,
        recent=(),
        rng=rng,
    )
    event: Event = {
        "type": "deal",
        "round": round_no,
        "dealer": dealer,
        "hands": [list(h) for h in hands],
        "top": top,
        "returned": returned,
        "colour": COLOUR_NAMES[colour] if colour else None,
        "first": turn,
        "direction": "clockwise" if direction == CLOCKWISE else "anticlockwise",
    }
    if drawn_first:
        event["first_draws"] = {"seat": first, "cards": list(drawn_first)}
    return state, [event]


def draw_cards(st: UnoState, seat: int, count: int, events: list[Event]) -> tuple[str, ...]:
    """Move up to ``count`` cards from the stock to ``seat``, rebuilding the stock from the
    discards but the top one when it runs out (UNO-3, as Pika 3). Cards that cannot be
    drawn even then lapse. Mutates ``st``, which must be a fresh copy."""
    taken: tuple[str, ...] = ()
    while len(taken) < count:
        if not st.stock:
            if len(st.discard) == 1:
                break
            pile = list(st.discard[:-1])
            st.rng = st.rng.copy()
            st.rng.shuffle(pile)
            st.stock = tuple(pile)
            st.discard = st.discard[-1:]
            # Played cards are face down again: the moves list stops naming them.
            st.recent = tuple((no, who, move, "", colour) for no, who, move, _, colour in st.recent)
            events.append({"type": "reshuffle", "cards": len(pile)})
        need = count - len(taken)
        taken += st.stock[:need]
        st.stock = st.stock[need:]
    if taken:
        st.set_hand(seat, st.hands[seat] + taken)
    return taken


def pass_turn(st: UnoState, played: bool, skip: bool = False) -> bool:
    """Pass the turn (skipping one seat if ``skip``) and count idle turns; True when a
    whole table round went by with nothing played and nothing to draw (the stall, UNO-7)."""
    if played or st.stock or len(st.discard) > 1:
        st.idle = 0
    else:
        st.idle += 1
    st.drawn = None
    st.pending = ""
    st.turn = st.next_seat(2 if skip else 1)
    st.turn_started = st.step
    return st.idle >= st.seats


def hand_points(hand: tuple[str, ...]) -> int:
    """UNO-8: numbers at face value; skip, reverse and +2 20; wild and wild +4 50."""
    return sum(POINTS[c] for c in hand)


def hand_result(st: UnoState, winner: int | None) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Places and points of a finished hand.

    The winner (the seat that went out, or after a stall the lowest card-point hand) scores
    the points left in every other hand and comes first; the others rank by the points
    they hold, lowest first (UNO-8, UNO-9). A stall with several lowest hands has no
    winner: nobody scores and the lowest share first place (UNO-7).
    """
    held = [hand_points(h) for h in st.hands]
    if winner is None:
        lowest = min(held)
        lows = [s for s in range(st.seats) if held[s] == lowest]
        winner = lows[0] if len(lows) == 1 else None
    if winner is None:
        return places_from_measure(held, lower_is_better=True), (0,) * st.seats
    measure = [-1 if s == winner else held[s] for s in range(st.seats)]
    total = sum(held) - held[winner]
    scores = tuple(total if s == winner else 0 for s in range(st.seats))
    return places_from_measure(measure, lower_is_better=True), scores
