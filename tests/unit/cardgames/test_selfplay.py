"""Random self-play drives games only through the contract, so its games replay exactly."""

from __future__ import annotations

import pickle
import random

import pytest

from tavolo.cardgames.actions import Action
from tavolo.cardgames.registry import all_games
from tavolo.cardgames.selfplay import play_random, random_games

STALLED = {("scala40", 0)}
"""Games that reach a position no rule ends (see the test below): left out here."""


@pytest.mark.parametrize("name", sorted(all_games()))
def test_self_play_games_replay_move_for_move(name: str) -> None:
    game = all_games()[name]
    for n in range(20):
        if (name, n) in STALLED:
            continue
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


@pytest.mark.xfail(strict=True, raises=RuntimeError, reason="a Scala 40 stall needs a rule")
def test_scala40_a_hand_in_which_no_card_can_be_laid_ends() -> None:
    """SCALA40-2: RULES 13 gives no end to a hand in which no card can ever be laid. In
    self-play seed 0 both players have opened and hold one card each and the table holds
    only full sets: each turn draws and discards for ever, the pozzo refilling the stock.
    Expected to fail until a rule ends such a hand."""
    game = all_games()["scala40"]
    seats = game.seat_counts()[0]
    state = game.new_game({}, seats, b"selfplay scala40 0")
    final, _ = play_random(game, state, random.Random(0), [])
    assert game.outcome(final) is not None


def test_the_same_chooser_plays_the_same_games_and_another_does_not() -> None:
    game = all_games()["pika"]
    seeds = [n.to_bytes(8, "big") for n in range(30)]
    first = random_games(game, 4, seeds, random.Random(7))
    assert first == random_games(game, 4, seeds, random.Random(7))
    assert first[0] == 30 and first[1] > 30 * 20
    assert random_games(game, 4, seeds, random.Random(8))[1] != first[1]
