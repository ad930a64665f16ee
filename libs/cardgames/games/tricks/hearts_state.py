"""Hearts' state, the deal and the pass, and the scoring of a hand (RULES §4).

The state is a slotted class of immutable fields; ``apply`` works on a :meth:`copy`, so a
state handed out never changes afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Final

from tavolo.cardgames.contract import Event, Outcome
from tavolo.cardgames.games.french_deck import (
    ACE_HIGH,
    deal_hands,
    full_deck,
    sort_hands,
    suit_of,
)
from tavolo.cardgames.games.tricks import core as tricks
from tavolo.cardgames.rng import SeededRandom
from tavolo.cardgames.slotted import SlottedState

SEATS: Final = 4
QUEEN_OF_SPADES: Final = "QS"
TWO_OF_CLUBS: Final = "2C"
HEARTS: Final = "H"
MOON: Final = 26
"""Points in a hand: every heart 1, the Q♠ 13 (HEARTS-4)."""

PASS_SIZE: Final = 3
"""Cards each seat passes (HEARTS-1)."""
PASSING: Final = "pass"
PLAYING: Final = "play"
ANTICLOCKWISE: Final = 1
"""Hearts goes anticlockwise (RULES §0.2): the turn passes from seat s to s+1."""

PASS_NAMES: Final = {1: "right", -1: "left", 2: "across", 0: "none"}
"""Where a seat's three cards go: to seat s+1 (on its right), s-1, s+2, or nowhere."""
STANDARD_CYCLE: Final = (-1, 1, 2, 0)
"""The standard rules' passes, hand after hand: left, right, across, none (HEARTS-7)."""


@dataclass(frozen=True, slots=True)
class HeartsRules:
    """The table options, parsed once at the start."""

    standard: bool
    target: int

    def __reduce__(self) -> tuple[type[HeartsRules], tuple[object, ...]]:
        """Copied and pickled through the constructor: compiled, a frozen dataclass
        refuses the field-by-field restore ``copy.deepcopy`` and ``pickle`` do."""
        return HeartsRules, (self.standard, self.target)


_FIELDS: Final = (
    "rules",
    "hands",
    "phase",
    "pass_to",
    "chosen",
    "passed",
    "trick",
    "turn",
    "won",
    "hearts_broken",
    "tricks_played",
    "last_trick",
    "dealer",
    "hand_no",
    "totals",
    "step",
    "rng",
    "outcome",
)


class HeartsState(SlottedState):
    """One moment of a Hearts match. Treat it as immutable: ``apply`` returns a new one.

    - ``hands[s]``: seat s's cards; ``phase``: :data:`PASSING` or :data:`PLAYING`;
    - ``pass_to``: this hand's pass (+1 right, -1 left, 2 across, 0 none);
    - ``chosen[s]``: the cards seat s chose to pass so far; they stay in its hand until
      all four have chosen three (HEARTS-1: the choices are secret);
    - ``passed[s]``: after the exchange, what seat s passed (it knows where they are);
    - ``trick``: the cards played to the current trick, (seat, card) in play order;
    - ``won[s]``: the cards of the tricks seat s took this hand, face up;
    - ``last_trick``: the previous trick as played, and who took it;
    - ``step``: actions applied so far (makes every timer key unique).
    """

    __slots__ = _FIELDS
    FIELDS = _FIELDS

    def __init__(
        self,
        rules: HeartsRules,
        hands: tuple[tuple[str, ...], ...],
        phase: str,
        pass_to: int,
        chosen: tuple[tuple[str, ...], ...],
        passed: tuple[tuple[str, ...], ...],
        trick: tuple[tuple[int, str], ...],
        turn: int,
        won: tuple[tuple[str, ...], ...],
        hearts_broken: bool,
        tricks_played: int,
        last_trick: tuple[tuple[int, str], ...],
        dealer: int,
        hand_no: int,
        totals: tuple[int, ...],
        step: int,
        rng: SeededRandom,
        outcome: Outcome | None = None,
    ) -> None:
        self.rules = rules
        self.hands = hands
        self.phase = phase
        self.pass_to = pass_to
        self.chosen = chosen
        self.passed = passed
        self.trick = trick
        self.turn = turn
        self.won = won
        self.hearts_broken = hearts_broken
        self.tricks_played = tricks_played
        self.last_trick = last_trick
        self.dealer = dealer
        self.hand_no = hand_no
        self.totals = totals
        self.step = step
        self.rng = rng
        self.outcome = outcome

    def copy(self) -> HeartsState:
        """The base's copy written out: a direct constructor call, several times faster
        compiled than the generic one, on every action's path (``bench/``)."""
        return HeartsState(
            self.rules,
            self.hands,
            self.phase,
            self.pass_to,
            self.chosen,
            self.passed,
            self.trick,
            self.turn,
            self.won,
            self.hearts_broken,
            self.tricks_played,
            self.last_trick,
            self.dealer,
            self.hand_no,
            self.totals,
            self.step,
            self.rng,
            self.outcome,
        )

    def set_hand(self, seat: int, hand: tuple[str, ...]) -> None:
        hands = list(self.hands)
        hands[seat] = hand
        self.hands = tuple(hands)


def pass_direction(rules: HeartsRules, hand_no: int) -> int:
    """HEARTS-1: the seed passes to the right every hand; the standard rules cycle."""
    return STANDARD_CYCLE[(hand_no - 1) % 4] if rules.standard else 1


def first_leader(state: HeartsState) -> int:
    """The seed: the player on the dealer's right (HEARTS-2). Standard: the 2♣'s holder."""
    if state.rules.standard:
        return next(s for s in range(SEATS) if TWO_OF_CLUBS in state.hands[s])
    return (state.dealer + ANTICLOCKWISE) % SEATS


def deal(
    rules: HeartsRules,
    dealer: int,
    hand_no: int,
    totals: tuple[int, ...],
    rng: SeededRandom,
    step: int,
) -> tuple[HeartsState, list[Event]]:
    """Shuffle and deal 13 each, one at a time from the dealer's right (RULES §0.5)."""
    deck = full_deck()
    rng.shuffle(deck)
    first = (dealer + ANTICLOCKWISE) % SEATS
    # Hands are kept sorted (spades, hearts, diamonds, clubs; high to low): order is no rule.
    hands = deal_hands(deck, tuple([(first + k) % SEATS for k in range(SEATS)]))
    pass_to = pass_direction(rules, hand_no)
    empty: tuple[tuple[str, ...], ...] = ((),) * SEATS
    state = HeartsState(
        rules=rules,
        hands=hands,
        phase=PASSING if pass_to else PLAYING,
        pass_to=pass_to,
        chosen=empty,
        passed=empty,
        trick=(),
        turn=first,
        won=empty,
        hearts_broken=False,
        tricks_played=0,
        last_trick=(),
        dealer=dealer,
        hand_no=hand_no,
        totals=totals,
        step=step,
        rng=rng,
    )
    if not pass_to:
        state.turn = first_leader(state)
    event: Event = {
        "type": "deal",
        "hand": hand_no,
        "dealer": dealer,
        "hands": [list(h) for h in hands],
        "pass": PASS_NAMES[pass_to],
    }
    return state, [event]


def exchange(st: HeartsState) -> Event:
    """All four have chosen: each seat's three cards go to the seat ``pass_to`` away."""
    chosen = st.chosen
    hands: list[list[str]] = []
    for seat in range(SEATS):
        kept = [c for c in st.hands[seat] if c not in chosen[seat]]
        kept.extend(chosen[(seat - st.pass_to) % SEATS])  # from the seat passing to it
        hands.append(kept)
    st.hands = sort_hands(hands)
    st.passed = st.chosen
    st.chosen = ((),) * SEATS
    st.phase = PLAYING
    st.turn = first_leader(st)
    return {"type": "exchange", "passes": [list(p) for p in st.passed]}


def _points_of(card: str) -> int:
    if card == QUEEN_OF_SPADES:
        return 13
    return 1 if suit_of(card) == HEARTS else 0


_POINTS: Final = {c: _points_of(c) for c in full_deck()}


def card_points(card: str) -> int:
    """HEARTS-4: the Q♠ 13, each heart 1, other cards 0 (read from a table filled once:
    every trick and every hand's score asks)."""
    return _POINTS[card]


def hand_points(won: tuple[tuple[str, ...], ...]) -> tuple[tuple[int, ...], int | None]:
    """Each seat's points for the hand, and the seat that shot the moon (HEARTS-5), if any:
    it scores 0 and every other seat 26."""
    taken = tuple(sum(card_points(c) for c in pile) for pile in won)
    for seat, points in enumerate(taken):
        if points == MOON:
            return tuple(0 if s == seat else MOON for s in range(SEATS)), seat
    return taken, None


def trick_winner(trick: tuple[tuple[int, str], ...]) -> int:
    """HEARTS-3: the highest card of the suit led; no trumps."""
    return tricks.trick_winner(trick, ACE_HIGH, None)
