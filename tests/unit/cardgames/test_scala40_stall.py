"""Scala 40's stall (docs/decisions.md, SCALA40-2 and SCALA40-7): a hand in which nothing
can be laid ends once two stocks rebuilt from the pozzo in a row were drawn with no card
laid on the table, nobody closing and every player scoring their cards."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Event
from tavolo.cardgames.games.rummy.deck import JOKER
from tavolo.cardgames.games.rummy.scala40_state import DRAW, OVER
from tests.scale import scaled
from tests.unit.cardgames.scala40_table import GAME, act, meld, table

A = ActionKind
DECK = 108
REBUILDS = 2
"""Rebuilt stocks a hand may draw through in a row with nothing laid."""

FULL_SETS = [
    (0, meld("5S", "5H", "5D", "5C")),
    (1, meld("9S", "9H", "9D", "9C")),
    (0, meld("KS", "KH", "KD", "KC")),
]


def _stalled_table(**changes: Any) -> Any:
    """Seed 0's position: both opened, one card each, only full sets on the table."""
    return table(
        [["4D"], ["7H"]],
        melds=FULL_SETS,
        opened=(True, True),
        phase=DRAW,
        pozzo=["QC"],
        **changes,
    )


def _draw_and_discard(state: Any, events: list[Event]) -> Any:
    """Draw, then discard the card drawn (nothing on the table takes a card)."""
    seat = state.turn
    before = list(state.hands[seat])
    state, drawn = GAME.apply(state, seat, Action(A.DRAW))
    events.extend(drawn)
    if state.phase == OVER or state.turn != seat or state.phase == DRAW:
        return state
    card = next(c for c in state.hands[seat] if c not in before or state.hands[seat].count(c) > 1)
    state, discarded = GAME.apply(state, seat, Action(A.DISCARD, cards=(card,)))
    events.extend(discarded)
    return state


def test_scala40_a_hand_where_no_card_can_be_laid_ends_after_two_dry_rebuilds() -> None:
    """SCALA40-2: both players hold one card and the table only full sets: the stock is
    drawn out, rebuilt twice, and the third time it runs out the hand ends as a stall.
    SCALA40-7: nobody closed, so each scores the card in hand, and no hand is won."""
    state = _stalled_table(options={"match_length": "hands:3"})
    stock = len(state.stock)
    events: list[Event] = []
    hand = state.hand_no
    draws = 0
    while state.hand_no == hand and state.phase != OVER:
        state = _draw_and_discard(state, events)
        draws += 1
        assert draws < 10 * DECK, "the hand never ended"
    kinds = [e["type"] for e in events]
    assert kinds.count("stock_rebuilt") == REBUILDS
    assert "hand_stalled" in kinds and "closed" not in kinds
    # Each rebuilt stock is the pozzo minus its top: as many cards as the first stock
    # (a discard per draw); the draw that finds the stock empty a third time ends it.
    assert draws == 3 * stock + 1
    scored = next(e for e in events if e["type"] == "hand_scored")
    assert scored["closed_by"] is None
    points = {line["seat"]: line["points"] for line in scored["players"]}
    assert all(0 < p <= 25 for p in points.values())
    assert state.hands_won == (0, 0)


def test_scala40_a_card_laid_lets_the_stock_be_rebuilt_again() -> None:
    """SCALA40-2: the count of dry rebuilds starts again once a card is laid: a card
    attached while the second rebuilt stock is drawn earns two more rebuilds."""
    state = table(
        [["4D", "9S"], ["7H"]],
        melds=[*FULL_SETS, (1, meld("6S", "7S", "8S"))],
        opened=(True, True),
        phase=DRAW,
        pozzo=["QC"],
        options={"match_length": "hands:1"},
    )
    events: list[Event] = []
    while [e["type"] for e in events].count("stock_rebuilt") < REBUILDS:
        state = _draw_and_discard(state, events)  # seat 0 keeps its 9S
    while state.turn != 0:
        state = _draw_and_discard(state, events)
    state, _ = act(state, 0, A.DRAW)
    state, _ = act(state, 0, A.ATTACH, "9S", meld=len(FULL_SETS))
    state, _ = act(state, 0, A.DISCARD, next(c for c in state.hands[0] if c != "4D"))
    for _ in range(10 * DECK):
        if state.phase == OVER:
            break
        state = _draw_and_discard(state, events)
    kinds = [e["type"] for e in events]
    assert kinds.count("stock_rebuilt") == 2 * REBUILDS and "hand_stalled" in kinds


def _table_cards(state: Any) -> int:
    """Cards on the table plus natural cards on it: a lay or a joker swap raises it."""
    cards = [c for _, m in state.melds for c in m.cards]
    return len(cards) + sum(c != JOKER for c in cards)


@pytest.mark.load
@settings(max_examples=scaled(15, 150), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.integers(2, 6),
    seed=st.binary(min_size=1, max_size=8),
    chooser=st.integers(0, 2**32),
    elimination=st.sampled_from([101, 201, 301]),
    no_attachable=st.booleans(),
    match=st.sampled_from(["elimination", "hands:1", "hands:3"]),
)
def test_scala40_every_hand_ends_within_a_bound(
    seats: int, seed: bytes, chooser: int, elimination: int, no_attachable: bool, match: str
) -> None:
    """SCALA40-2: whatever the options and seat count, random play never draws through
    more than two rebuilt stocks in a row with no card laid, so between two cards laid
    a hand lasts at most three stocks' worth of draws (each at most the deck)."""
    options = {
        "elimination": elimination,
        "no_attachable_discard": no_attachable,
        "match_length": match,
    }
    state = GAME.new_game(options, seats, seed)
    rand = random.Random(chooser)
    rebuilds = draws = 0
    mark = _table_cards(state)
    for _ in range(200_000):
        if state.phase == OVER:
            break
        seat = state.turn
        legal = GAME.legal_actions(state, seat)
        action = legal[int(rand.random() * len(legal))]
        hand = state.hand_no
        state, events = GAME.apply(state, seat, action)
        draws += action.kind in (A.DRAW, A.PASS)
        rebuilds += sum(e["type"] == "stock_rebuilt" for e in events)
        new_hand = state.hand_no != hand or state.phase == OVER
        if new_hand or (state.phase == DRAW and _table_cards(state) > mark):
            rebuilds = draws = 0
            mark = _table_cards(state)
        assert rebuilds <= REBUILDS
        assert draws <= 3 * DECK
    assert state.phase == OVER
    assert GAME.outcome(state) is not None


@pytest.mark.load
@settings(max_examples=scaled(12, 120), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seats=st.integers(2, 6), seed=st.binary(min_size=1, max_size=8))
def test_scala40_a_table_that_never_lays_a_card_stalls_after_three_stocks(
    seats: int, seed: bytes
) -> None:
    """SCALA40-2, SCALA40-7: players who only draw and discard draw the first stock and
    two rebuilt ones, then the hand ends with everyone scoring 100 (never opened)."""
    state = GAME.new_game({"match_length": "hands:1"}, seats, seed)
    first = DECK - 13 * seats - 1
    events: list[Event] = []
    turns = 0
    while state.phase != OVER and turns < 10 * DECK:
        seat = state.turn
        state, drawn = act(state, seat, A.DRAW)
        events.extend(drawn)
        turns += 1
        if state.phase == OVER:
            break
        state, discarded = act(state, seat, A.DISCARD, state.hands[seat][0])
        events.extend(discarded)
    kinds = [e["type"] for e in events]
    assert kinds.count("stock_rebuilt") == REBUILDS and "hand_stalled" in kinds
    assert turns == first + 2 * first + 1  # each rebuilt stock is the first one again
    scored = next(e for e in events if e["type"] == "hand_scored")
    assert [line["points"] for line in scored["players"]] == [100] * seats
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.places == (1,) * seats
