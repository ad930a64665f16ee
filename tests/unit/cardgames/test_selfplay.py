"""Random self-play drives games only through the contract, so its games replay exactly."""

from __future__ import annotations

import pickle
import random

import pytest

from tavolo.cardgames.actions import Action
from tavolo.cardgames.registry import all_games
from tavolo.cardgames.selfplay import play_random, random_games


@pytest.mark.parametrize("name", sorted(all_games()))
def test_self_play_games_replay_move_for_move(name: str) -> None:
    game = all_games()[name]
    for n in range(20):
        counts = game.seat_counts()
        seats = counts[n % len(counts)]
        seed = f"selfplay {name} {n}".encode()
        moves: list[tuple[int, Action]] = []
        final, applied = play_random(game, game.new_game({}, seats, seed), random.Random(n), moves)
        assert applied == len(moves) > 0
        assert game.outcome(final) is not None
        state = game.new_game({}, seats, seed)
        for seat, action in moves:
            assert action in game.legal_actions(state, seat)
            state, _ = game.apply(state, seat, action)
        assert pickle.dumps(state) == pickle.dumps(final)


def test_scala40_a_hand_in_which_no_card_can_be_laid_ends() -> None:
    """SCALA40-2: in self-play seed 0 both players open and hold one card each while the
    table holds only full sets, so no card can ever be laid: the hand ends as a stall
    (docs/decisions.md) instead of drawing and discarding for ever."""
    game = all_games()["scala40"]
    seats = game.seat_counts()[0]
    state = game.new_game({}, seats, b"selfplay scala40 0")
    moves: list[tuple[int, Action]] = []
    final, _ = play_random(game, state, random.Random(0), moves)
    assert game.outcome(final) is not None
    state = game.new_game({}, seats, b"selfplay scala40 0")
    stalls = 0
    for seat, action in moves:
        state, events = game.apply(state, seat, action)
        stalls += sum(e["type"] == "hand_stalled" for e in events)
    assert stalls >= 1


def test_the_same_chooser_plays_the_same_games_and_another_does_not() -> None:
    game = all_games()["pika"]
    seeds = [n.to_bytes(8, "big") for n in range(30)]
    first = random_games(game, 4, seeds, random.Random(7))
    assert first == random_games(game, 4, seeds, random.Random(7))
    assert first[0] == 30 and first[1] > 30 * 20
    assert random_games(game, 4, seeds, random.Random(8))[1] != first[1]
