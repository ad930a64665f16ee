"""Every game state built on the shared slotted base: copies, equality, pickling and deep
copies keep every field (the base's generic copy is the reference a state's written-out
copy must match), and ``replace`` refuses a field the state does not have."""

from __future__ import annotations

import copy
import pickle
import random
from typing import Any

import pytest

from tavolo.cardgames.contract import Outcome
from tavolo.cardgames.registry import all_games
from tavolo.cardgames.slotted import SlottedState

SLOTTED = sorted(
    name
    for name, game in all_games().items()
    if isinstance(game.new_game(None, game.min_players, b"probe"), SlottedState)
)


def states_of(name: str, actions: int = 40) -> list[Any]:
    """A game's states along a short seeded random game, its first deal included."""
    game = all_games()[name]
    state = game.new_game(None, game.max_players, f"slotted {name}".encode())
    chooser = random.Random(name)
    found = [state]
    for _ in range(actions):
        waiting = sorted(game.to_act(state))
        if not waiting:
            break
        seat = waiting[int(chooser.random() * len(waiting))]
        legal = game.legal_actions(state, seat)
        state, _ = game.apply(state, seat, legal[int(chooser.random() * len(legal))])
        found.append(state)
    return found


def test_the_trick_games_and_the_rummy_games_are_on_the_base() -> None:
    for name in ("spades", "hearts", "briscola", "tresette", "ciapano", "bestia", "pika"):
        assert name in SLOTTED
    for name in ("uno", "scopa", "burraco", "scala40"):
        assert name in SLOTTED


@pytest.mark.parametrize("name", SLOTTED)
def test_a_copy_keeps_every_field_and_is_a_new_state(name: str) -> None:
    for state in states_of(name):
        made = state.copy()
        assert made is not state and made == state
        assert made.values() == SlottedState.copy(state).values() == state.values()
        assert len(state.values()) == len(type(state).FIELDS)


@pytest.mark.parametrize("name", SLOTTED)
def test_pickles_and_deep_copies_are_equal_states(name: str) -> None:
    # Deep copies are what failed on compiled frozen dataclasses (a table's options).
    for state in states_of(name, actions=8):
        assert pickle.loads(pickle.dumps(state)) == state
        assert copy.deepcopy(state) == state
        assert repr(state).startswith(type(state).__name__ + "(")


def test_an_outcome_a_finished_state_holds_copies_too() -> None:
    outcome = Outcome(places=(1, 2), scores=(61, 59), detail={"reason": "match_won"})
    assert copy.deepcopy(outcome) == outcome == pickle.loads(pickle.dumps(outcome))


def test_replace_changes_named_fields_only_and_refuses_unknown_ones() -> None:
    state = states_of("spades", actions=0)[0]
    changed = state.replace(turn=(state.turn + 1) % 4)
    assert changed.turn != state.turn and changed.hands == state.hands
    assert changed != state and state == states_of("spades", actions=0)[0]
    with pytest.raises(AttributeError, match="no field 'trun'"):
        state.replace(trun=1)


def test_states_of_different_classes_are_never_equal() -> None:
    spades, hearts = states_of("spades", 0)[0], states_of("hearts", 0)[0]
    assert spades != hearts and spades.__eq__(hearts) is NotImplemented
