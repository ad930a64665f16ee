"""Burraco cannot stall as Scala 40 could (docs/decisions.md): its stock is never rebuilt,
every turn may draw from it, and the hand ends when a draw leaves 2 cards (BURRACO-8).
Only players who choose the pile turn after turn keep a hand going."""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tavolo.cardgames.actions import ActionKind
from tavolo.cardgames.registry import get_game
from tests.scale import scaled

A = ActionKind
GAME = get_game("burraco")
LAST_STOCK = 2


@pytest.mark.load
@settings(max_examples=scaled(25, 250), deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    seats=st.sampled_from([2, 4]),
    seed=st.binary(min_size=1, max_size=8),
    chooser=st.integers(0, 2**32),
    semipulito=st.booleans(),
    take_pile=st.booleans(),
)
def test_burraco_every_turn_may_draw_and_a_hand_ends_within_its_stock(
    seats: int, seed: bytes, chooser: int, semipulito: bool, take_pile: bool
) -> None:
    """BURRACO-2, BURRACO-8: at every turn's start a stock draw is offered and the stock
    holds more than 2 cards; each draw shortens it for good, so a hand in which nobody
    takes the pile lasts at most as many turns as its first stock had cards less 2, and
    with the pile taken too the turns that draw stay within that bound."""
    options = {"match_length": "hands:1", "semipulito": semipulito}
    state = GAME.new_game(options, seats, seed)
    first = len(state.stock)
    rand = random.Random(chooser)
    draws = 0
    for _ in range(100_000):
        if GAME.outcome(state) is not None:
            break
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        kinds = {a.kind for a in legal}
        if A.DRAW in kinds:
            assert len(state.stock) > LAST_STOCK
        if A.TAKE_DISCARD in kinds:
            assert A.DRAW in kinds, "a turn that may take the pile may always draw instead"
        if not take_pile:
            legal = [a for a in legal if a.kind is not A.TAKE_DISCARD]
        action = legal[int(rand.random() * len(legal))]
        draws += action.kind is A.DRAW
        hand = state.hand_no
        state, _ = GAME.apply(state, seat, action)
        assert draws <= first - LAST_STOCK
        if state.hand_no != hand:  # a tie-break hand (BURRACO-10) is dealt afresh
            first, draws = len(state.stock), 0
    assert GAME.outcome(state) is not None
