"""Sette e mezzo bots and ``tavolo play settemezzo``: legal play at every level, the
choices each level makes, and a whole offline game (strength in chips:
bench/bench_bot_league.py)."""

from __future__ import annotations

import io
from dataclasses import replace

import pytest

from tavolo.cardgames.actions import Action
from tavolo.cardgames.bots.base import Bot
from tavolo.cardgames.bots.betting.settemezzo import EasyBot, HardBot, MediumBot
from tavolo.cardgames.bots.registry import bot_levels, make_bot
from tavolo.cardgames.games.betting.settemezzo import HITS, STANDS, SetteMezzo, bets
from tavolo.cardgames.games.betting.settemezzo_state import SetteMezzoState
from tavolo.cardgames.rng import SeededRandom
from tavolo.cli.main import main
from tests.unit.cardgames.test_settemezzo_rules import play, table

GAME = SetteMezzo()
LEVELS = ("easy", "medium", "hard")


@pytest.mark.parametrize("players", [2, 5, 8])
def test_every_level_finishes_a_game_with_legal_moves_only(players: int) -> None:
    assert bot_levels("settemezzo") == LEVELS
    state = GAME.new_game(None, players, b"bots")
    bots = [make_bot("settemezzo", LEVELS[s % 3], s) for s in range(players)]
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        action = bots[seat].choose(GAME.view(state, seat), legal)
        assert action in legal
        state, _ = GAME.apply(state, seat, action)
    assert sum(state.chips) == 100 * players


def choose(bot: Bot, state: SetteMezzoState, seat: int) -> Action:
    legal = GAME.legal_actions(state, seat)
    return bot.choose(GAME.view(state, seat), legal, SeededRandom(b"b"))


@pytest.mark.parametrize("bot", [MediumBot(), HardBot()])
def test_bots_draw_on_a_low_total_and_stand_on_a_high_one(bot: Bot) -> None:
    state = table({1: "3C", 2: "6C", 0: "6S"})
    state, _ = play(state, (1, bets(1)), (2, bets(1)))
    assert choose(bot, state, 1) == HITS
    state, _ = play(state, (1, HITS))  # 3 + the next card
    state = replace(state, hands=(state.hands[0], ("6C", "AS"), *state.hands[2:]))
    assert choose(bot, state, 1) == STANDS  # 7: nearly any card busts


def test_medium_and_hard_bet_the_most_on_a_seven_and_easy_stays_legal() -> None:
    state = table({1: "7C", 2: "4C", 0: "6S"}, seats=3)
    assert choose(MediumBot(), state, 1) == bets(10)
    assert choose(HardBot(), state, 1) == bets(10)
    assert choose(EasyBot(), state, 1) in GAME.legal_actions(state, 1)


def test_the_banker_draws_when_it_would_surely_lose_to_what_it_sees() -> None:
    """The banker's 6 against a punter showing 6 on the table (its total at least 6½)."""
    state = table({1: "FC", 0: "6S"}, "6D", seats=2)
    state, _ = play(state, (1, bets(10)), (1, HITS), (1, STANDS))
    for bot in (MediumBot(), HardBot()):
        assert choose(bot, state, 0) == HITS


def test_scripted_stdin_plays_settemezzo_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 400))
    assert main(["play", "settemezzo", "--seed", "cli"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Sette e mezzo: you against 3 medium bots. Seed: cli")
    assert "holds the bank." in text and "You may bet 1 to 10 chips." in text
    assert "Hand 1 is over:" in text and "bet 1, " in text
    assert "--- Final places (by chips)" in text
