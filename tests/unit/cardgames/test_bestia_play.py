"""Bestia bots and ``tavolo play bestia``: legal play at every level, the declaration each
level makes, and a whole offline game (strength in chips: bench/bench_bot_league.py)."""

from __future__ import annotations

import io

import pytest

from tavolo.cardgames.bots.registry import bot_levels, make_bot
from tavolo.cardgames.bots.tricks.bestia import BestiaBot
from tavolo.cardgames.games.tricks.bestia import PASSES, PLAYS, Bestia
from tavolo.cardgames.rng import SeededRandom
from tavolo.cli.main import main

GAME = Bestia()


@pytest.mark.parametrize("players", [3, 6])
def test_every_level_finishes_a_game_with_legal_moves_only(players: int) -> None:
    assert bot_levels("bestia") == ("easy", "medium", "hard")
    state = GAME.new_game(None, players, b"bots")
    bots = [make_bot("bestia", ("easy", "medium", "hard")[s % 3], s) for s in range(players)]
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        action = bots[seat].choose(GAME.view(state, seat), legal)
        assert action in legal
        state, _ = GAME.apply(state, seat, action)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_bots_play_a_strong_hand_and_pass_a_hopeless_one(level: str) -> None:
    state = GAME.new_game(None, 4, b"declare")
    seat = state.turn
    trumps = state.trumps
    strong = ("A" + trumps, "3" + trumps, "R" + trumps)
    weak = tuple(c for c in ("4C", "5D", "6S", "4B", "5C", "6D") if c[-1] != trumps)[:3]
    for hand, expected in ((strong, PLAYS), (weak, PASSES)):
        hands = tuple(hand if s == seat else h for s, h in enumerate(state.hands))
        probe = state.replace(hands=hands, pot=30)
        legal = GAME.legal_actions(probe, seat)
        chosen = BestiaBot(level).choose(GAME.view(probe, seat), legal, SeededRandom(b"b"))
        assert chosen == expected


def test_scripted_stdin_plays_bestia_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    assert main(["play", "bestia", "--seed", "cli"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Bestia: you against 3 medium bots. Seed: cli")
    assert "Hand 1: " in text and "the pot is 3." in text
    assert "--- Final places (by chips)" in text and "chips)" in text
