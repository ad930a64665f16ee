"""Poker bots and ``tavolo play poker``: legal play at every level, what each level does
with a strong and a weak hand, what hard reads from a big bet, and a whole offline game
(strength in chips: bench/bench_bot_league.py)."""

from __future__ import annotations

import io
import re
from dataclasses import replace

import pytest

from tavolo.cardgames.actions import ActionKind
from tavolo.cardgames.bots.betting import poker_odds
from tavolo.cardgames.bots.betting.poker import EasyPokerBot, PokerBot
from tavolo.cardgames.bots.registry import bot_levels, make_bot
from tavolo.cardgames.games.betting.poker import Poker
from tavolo.cardgames.games.betting.poker_legal import CALL, CHECK, FOLD, bet
from tavolo.cardgames.games.betting.poker_state import PokerState
from tavolo.cardgames.rng import SeededRandom
from tavolo.cli.main import main

GAME = Poker()


@pytest.mark.parametrize("players", [2, 6])
def test_every_level_finishes_a_game_with_legal_moves_only(players: int) -> None:
    assert bot_levels("poker") == ("easy", "medium", "hard")
    state = GAME.new_game({"hands": 5}, players, b"bots")
    bots = [make_bot("poker", ("easy", "medium", "hard")[s % 3], s) for s in range(players)]
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        action = bots[seat].choose(GAME.view(state, seat), legal)
        assert action in legal
        state, _ = GAME.apply(state, seat, action)


def with_hands(state: PokerState, given: dict[int, tuple[str, ...]]) -> PokerState:
    """``state`` with the ``given`` hands, the other hands and the stock refilled from
    the rest of the deck."""
    fixed = {c for h in given.values() for c in h}
    rest = [c for c in (*(c for h in state.hands for c in h), *state.stock) if c not in fixed]
    hands = []
    for s, held in enumerate(state.hands):
        hands.append(given.get(s) or tuple(rest.pop(0) for _ in held))
    return replace(state, hands=tuple(hands), stock=tuple(rest))


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_bots_open_a_strong_hand_and_check_a_weak_one(level: str) -> None:
    state = GAME.new_game({"blind": False}, 4, b"strong")
    seat = state.turn
    probe = with_hands(state, {seat: ("AS", "AH", "AD", "KC", "QC")})
    legal = GAME.legal_actions(probe, seat)
    chosen = PokerBot(level).choose(GAME.view(probe, seat), legal, SeededRandom(b"b"))
    assert chosen.kind is ActionKind.BET
    probe = with_hands(state, {seat: ("7S", "9H", "JD", "KC", "8C")})
    legal = GAME.legal_actions(probe, seat)
    assert PokerBot(level).choose(GAME.view(probe, seat), legal, SeededRandom(b"b")) == CHECK


def test_easy_calls_by_category_and_hard_reads_a_big_bet() -> None:
    state = GAME.new_game({"blind": False}, 4, b"reading")
    opener = state.turn
    caller = (opener - 1) % 4
    state = with_hands(
        state, {opener: ("AS", "AH", "AD", "AC", "KS"), caller: ("QS", "QH", "9D", "8C", "7S")}
    )
    state, _ = GAME.apply(state, opener, bet(4))  # the whole pot
    legal = GAME.legal_actions(state, caller)
    view = GAME.view(state, caller)
    assert EasyPokerBot().choose(view, legal, SeededRandom(b"e")) == CALL
    hard = PokerBot("hard")
    assert hard.promised(view, opener) > 0.5
    assert hard.win_chance(view, SeededRandom(b"h")) < PokerBot("medium").win_chance(
        view, SeededRandom(b"h")
    )
    assert hard.choose(view, legal, SeededRandom(b"h")) == FOLD


def test_the_change_keeps_groups_made_hands_and_four_card_draws() -> None:
    low = 7
    assert poker_odds.best_change(["KS", "KH", "9D", "8C", "7S"], low) == ("9D", "8C", "7S")
    assert poker_odds.best_change(["AH", "8H", "10H", "JH", "QH"], low) == ()
    assert poker_odds.best_change(["AH", "8H", "10H", "JH", "QS"], low) == ("QS",)
    assert poker_odds.best_change(["7S", "8H", "9D", "10C", "KS"], low) == ("KS",)
    assert poker_odds.best_change(["7S", "8H", "9D", "QC", "KS"], low) == ("7S", "8H", "9D", "QC")
    assert poker_odds.hand_percentile(["AS", "AH", "AD", "AC", "KS"], low) > 0.99


def test_scripted_stdin_plays_poker_to_the_end(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    monkeypatch.setattr("sys.stdin", io.StringIO("1\n" * 2000))
    assert main(["play", "poker", "--seed", "cli"]) == 0
    text = capsys.readouterr().out
    assert text.startswith("Poker all'italiana: you against 3 medium bots. Seed: cli")
    assert "and everyone antes; a pair of jacks opens." in text
    assert "Your cards are dealt face down: open blind before you see them?" in text
    assert re.search(r"showdown:\n(  .+: .+\n)+  .+ wins? the pot of \d+\.", text)
    assert "--- Final places (by chips)" in text and "chips)" in text
