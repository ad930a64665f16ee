"""Pika's state and the mechanics every rule shares: dealing, drawing, passing the turn.

The state is a slotted class of tuples. ``apply`` copies it (:meth:`PikaState.copy`, a
shallow copy: every field is immutable except the generator, which is copied before use)
and changes only the copy, so a state handed out is never modified afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Final

from tavolo.cardgames.contract import Event, Outcome, places_from_measure
from tavolo.cardgames.games.shedding.deck import CODES, COLOUR_NAMES, DECK, POINTS, VALUE_OF
from tavolo.cardgames.rng import SeededRandom
from tavolo.cardgames.slotted import SlottedState

HAND_SIZE: Final = 7
CLOCKWISE: Final = -1
"""Pika is played clockwise (RULES §0.3): the turn passes from seat s to s-1."""
RECENT_MOVES: Final = 16
"""How many public moves a view lists, enough to cover a full table round."""
TRIM_EVERY: Final = 64
"""How often the recent-moves chain is cut back to ``RECENT_MOVES``: each cut rebuilds
that many links, so cutting rarely keeps recording a move at about one tuple."""

Move = tuple[int, int, str, str, str, int]
"""A public move: (number, seat, move, card, colour letter in play, count)."""
Moves = tuple[int, int, str, str, str, int, Any]
"""The latest moves as a chain, newest first: a move and the older chain (a ``Moves`` or
``None``; spelt ``Any`` because mypyc cannot compile a recursive alias). Recording a move
is then one tuple, not a new copy of the list; the chain is cut back to
``RECENT_MOVES`` once every ``TRIM_EVERY`` moves, so it never holds more than the two
together."""


def chain(moves: list[Move]) -> Moves | None:
    """The chain of ``moves`` (oldest first), keeping the newest ``RECENT_MOVES``."""
    recent: Moves | None = None
    for no, who, move, card, colour, count in moves[-RECENT_MOVES:]:
        recent = (no, who, move, card, colour, count, recent)
    return recent


def unchain(recent: Moves | None) -> list[Move]:
    """The newest ``RECENT_MOVES`` moves of a chain, oldest first."""
    moves: list[Move] = []
    while recent is not None and len(moves) < RECENT_MOVES:
        no, who, move, card, colour, count, recent = recent
        moves.append((no, who, move, card, colour, count))
    moves.reverse()
    return moves


@dataclass(frozen=True, slots=True)
class PikaRules:
    """The table options, parsed once at the start."""

    window_ms: int
    match: str
    hands_limit: int | None = None
    points_target: int | None = None

    def __reduce__(self) -> tuple[type[PikaRules], tuple[object, ...]]:
        """Copied and pickled through the constructor: compiled, a frozen dataclass
        refuses the field-by-field restore ``copy.deepcopy`` and ``pickle`` do."""
        return PikaRules, (self.window_ms, self.match, self.hands_limit, self.points_target)


def parse_match_length(value: object) -> tuple[int | None, int | None]:
    """``"single"`` → (None, None); ``"hands:N"`` → (N, None); ``"points:T"`` → (None, T)."""
    if value == "single":
        return None, None
    if isinstance(value, str) and ":" in value:
        kind, _, number = value.partition(":")
        if number.isdigit() and int(number) >= 1:
            if kind == "hands":
                return int(number), None
            if kind == "points":
                return None, int(number)
    raise ValueError(f"match_length must be 'single', 'hands:N' or 'points:T', not {value!r}")


def match_length_problem(value: object) -> str | None:
    """Why ``value`` is no match length (an ``OptionSpec`` check), or ``None``."""
    try:
        parse_match_length(value)
    except ValueError as exc:
        return str(exc)
    return None


_FIELDS: Final = (
    "rules",
    "seats",
    "hands",
    "stock",
    "discard",
    "colour",
    "turn",
    "direction",
    "stack",
    "drawn",
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


class PikaState(SlottedState):
    """One moment of a Pika match. Treat it as immutable: ``apply`` returns a new one.

    A plain slotted class rather than a dataclass: copying it is on every action's path,
    and compiled (see ``tools/compile_rules.py``) a hand-written constructor is a direct
    call where a dataclass's generated one goes back through the interpreter.

    - ``hands[s]``: seat s's cards, in the order the seat chose;
    - ``stock``: the face-down pile, index 0 on top; ``discard``: face up, last on top;
    - ``colour``: the colour in play, as a letter (``"R"``);
    - ``stack``: cards pending from chained +2/+4 (0 when none);
    - ``drawn``: the playable card the seat to act just drew, to play or keep;
    - ``windows``: open Pika windows as (seat, step at which it opened);
    - ``idle``: consecutive idle turns (RULES §1.10);
    - ``step``: actions applied so far, which makes every timer key unique;
    - ``turn_started``: the step at which the current turn began (the turn timer's key);
    - ``recent``: the latest public moves, as a :data:`Moves` chain (``None`` at a deal).
    """

    __slots__ = _FIELDS
    FIELDS = _FIELDS

    def __init__(
        self,
        rules: PikaRules,
        seats: int,
        hands: tuple[tuple[str, ...], ...],
        stock: tuple[str, ...],
        discard: tuple[str, ...],
        colour: str,
        turn: int,
        direction: int,
        stack: int,
        drawn: str | None,
        windows: tuple[tuple[int, int], ...],
        idle: int,
        step: int,
        turn_started: int,
        dealer: int,
        round: int,
        totals: tuple[int, ...],
        recent: Moves | None,
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
        self.stack = stack
        self.drawn = drawn
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

    def copy(self) -> PikaState:
        """The base's copy written out: a direct constructor call, several times faster
        compiled than the generic one, on every action's path (``bench/``)."""
        return PikaState(
            self.rules,
            self.seats,
            self.hands,
            self.stock,
            self.discard,
            self.colour,
            self.turn,
            self.direction,
            self.stack,
            self.drawn,
            self.windows,
            self.idle,
            self.step,
            self.turn_started,
            self.dealer,
            self.round,
            self.totals,
            self.recent,
            self.rng,
            self.outcome,
        )

    @property
    def top(self) -> str:
        return self.discard[-1]

    def record(self, seat: int, move: str, card: str = "", count: int = 0) -> None:
        recent = self.recent
        number = 1 if recent is None else recent[0] + 1
        if number % TRIM_EVERY == 0:
            recent = chain(unchain(recent)[1:])
        self.recent = (number, seat, move, card, self.colour, count, recent)

    def set_hand(self, seat: int, hand: tuple[str, ...]) -> None:
        hands = list(self.hands)
        hands[seat] = hand
        self.hands = tuple(hands)


def matches(card: str, top: str, colour: str) -> bool:
    """PIKA-1: same colour in play, same number or symbol, or a black card."""
    first = card[0]
    return first == "W" or first == colour or (top[0] != "W" and VALUE_OF[card] == VALUE_OF[top])


_PLAYABLE: Final[dict[str, dict[str, frozenset[str]]]] = {
    colour: {top: frozenset(c for c in CODES if matches(c, top, colour)) for top in CODES}
    for colour in COLOUR_NAMES
}


def playable(top: str, colour: str) -> frozenset[str]:
    """Every code that :func:`matches` ``top`` in ``colour``, from a table built with it:
    a seat's hand is checked against this set before every move."""
    return _PLAYABLE[colour][top]


def deal(
    rules: PikaRules,
    seats: int,
    dealer: int,
    round_no: int,
    totals: tuple[int, ...],
    rng: SeededRandom,
    step: int,
) -> tuple[PikaState, list[Event]]:
    """Shuffle the whole deck and deal a round (RULES §1.1, §0.5). ``rng`` is consumed."""
    deck = list(DECK)
    rng.shuffle(deck)
    first = (dealer + CLOCKWISE) % seats
    # One card at a time from ``first`` in the direction of play: the k-th seat from
    # ``first`` gets every ``seats``-th card from position k.
    dealt = HAND_SIZE * seats
    hands = tuple(
        tuple(deck[(seat - first) * CLOCKWISE % seats : dealt : seats]) for seat in range(seats)
    )
    stock = deck[dealt:]
    returned: list[str] = []
    while stock[0][0] == "W":
        # A black card turned up goes back and the stock is reshuffled (RULES §1.1).
        returned.append(stock[0])
        rng.shuffle(stock)
    top = stock.pop(0)
    direction, turn, stack = CLOCKWISE, first, 0
    value = top[1:]
    # Any other action card acts as if the dealer had played it.
    if value == "skip" or (value == "rev" and seats == 2):
        turn = (first + CLOCKWISE) % seats
    elif value == "rev":
        direction, turn = -CLOCKWISE, dealer
    elif value == "+2":
        stack = 2
    state = PikaState(
        rules=rules,
        seats=seats,
        hands=hands,
        stock=tuple(stock),
        discard=(top,),
        colour=top[0],
        turn=turn,
        direction=direction,
        stack=stack,
        drawn=None,
        windows=(),
        idle=0,
        step=step,
        turn_started=step,
        dealer=dealer,
        round=round_no,
        totals=totals,
        recent=None,
        rng=rng,
    )
    event: Event = {
        "type": "deal",
        "round": round_no,
        "dealer": dealer,
        "hands": [list(h) for h in state.hands],
        "top": top,
        "returned": returned,
        "colour": COLOUR_NAMES[top[0]],
        "first": turn,
        "stack": stack,
    }
    return state, [event]


def draw_cards(st: PikaState, seat: int, count: int, events: list[Event]) -> tuple[str, ...]:
    """Move up to ``count`` cards from the stock to ``seat``'s hand, rebuilding the stock
    from the discards (minus the top card) when it runs out (PIKA-3). Cards that cannot be
    drawn even then lapse (RULES §1.6). Mutates ``st``, which must be a fresh copy."""
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
            # Played cards are now face down in the stock: the moves list stops naming them.
            moves = unchain(st.recent)
            st.recent = chain(
                [(no, who, move, "", colour, n) for no, who, move, _, colour, n in moves]
            )
            events.append({"type": "reshuffle", "cards": len(pile)})
        need = count - len(taken)
        taken += st.stock[:need]
        st.stock = st.stock[need:]
    if taken:
        st.set_hand(seat, st.hands[seat] + taken)
    return taken


def end_turn(st: PikaState, played: bool, skip: bool = False) -> bool:
    """Pass the turn and count idle turns; True when the stall rule closes the round."""
    if played:
        st.idle = 0
    elif not st.stock and len(st.discard) == 1:  # the pile is dry: nothing left to draw
        st.idle += 1
    else:
        st.idle = 0
    st.drawn = None
    st.turn = (st.turn + st.direction * (2 if skip else 1)) % st.seats
    st.turn_started = st.step
    return st.idle >= st.seats


def round_result(st: PikaState) -> tuple[tuple[int, ...], tuple[int, ...]]:
    """Places by cards left, fewest first, ties sharing (PIKA-10); and the round's points:
    each seat in first place scores the card points of all other hands (RULES §1.12)."""
    sizes = [len(h) for h in st.hands]
    places = places_from_measure(sizes, lower_is_better=True)
    hand_points = [sum(POINTS[c] for c in h) for h in st.hands]
    total = sum(hand_points)
    scores = tuple(total - hand_points[s] if places[s] == 1 else 0 for s in range(st.seats))
    return places, scores
