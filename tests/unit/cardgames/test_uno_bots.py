"""Uno bots (three levels) choose only legal actions, from their own view, with purpose."""

from __future__ import annotations

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.registry import bot_levels, make_bot
from tavolo.cardgames.games.shedding.uno import ACCEPT, CALL_UNO, CHALLENGE, Uno
from tavolo.cardgames.games.shedding.uno_state import UnoState
from tests.unit.cardgames.test_uno_rules import act, play, uno_table

GAME = Uno()


def choose(level: str, state: UnoState, seat: int) -> Action:
    bot = make_bot("uno", level, b"bot seed")
    return bot.choose(GAME.view(state, seat), GAME.legal_actions(state, seat))


def test_uno_has_three_bot_levels() -> None:
    assert bot_levels("uno") == ("easy", "medium", "hard")


def test_thinking_bots_call_uno_with_the_play_and_play_rather_than_draw() -> None:
    state = uno_table({0: ["R1", "R2"]}, top="R5")
    for level in ("medium", "hard"):
        action = choose(level, state, 0)
        assert action.kind is ActionKind.PLAY and action.call == "uno"
    after = act(state, 0, play("R1"))
    assert choose("easy", after, 0) == CALL_UNO  # the only thing to do


def test_thinking_bots_keep_wilds_and_play_an_honest_plus4_only() -> None:
    state = uno_table({0: ["R1", "W", "W+4", "G3"]}, top="R5")
    for level in ("medium", "hard"):
        action = choose(level, state, 0)
        assert action.cards == ("R1",)


def test_the_hard_bot_challenges_a_likely_bluff_and_medium_accepts() -> None:
    """Seat 0 lays a +4 on red holding very many cards: red was almost surely among
    them. Holding 8, a red card is likely but not near-sure, and most players lay a +4
    honestly (an honest +4 challenged costs 2 more cards): hard accepts that one."""
    many = ["W+4", "B1", "B2", "G3", "G4", "Y5", "Y6", "B7", "G8", "B9", "G9", "Y9", "B3"]
    many += ["G2", "Y2", "B4", "G5", "Y7", "B8"]
    hit = act(uno_table({0: many}, top="R5"), 0, play("W+4", "blue"))
    hit.recent = ((1, 1, "play", "R5", "R"), (2, 0, "play", "W+4", "B"))
    assert choose("medium", hit, 2) == ACCEPT
    assert choose("hard", hit, 2) == CHALLENGE
    hand = ["W+4", "B1", "B2", "G3", "G4", "Y5", "Y6", "B7", "G8"]
    likely = act(uno_table({0: hand}, top="R5"), 0, play("W+4", "blue"))
    likely.recent = ((1, 1, "play", "R5", "R"), (2, 0, "play", "W+4", "B"))
    assert choose("hard", likely, 2) == ACCEPT


def test_medium_turns_the_play_to_the_colour_it_holds_most() -> None:
    """MODE-1: on a red 2, holding one red and three greens, medium plays its green 2
    (three greens left to play on), whatever its seed; the novice picks either."""
    state = uno_table({0: ["R1", "G2", "G3", "G4"]}, top="R2")
    view, legal = GAME.view(state, 0), GAME.legal_actions(state, 0)
    seeds = range(40)
    medium = {make_bot("uno", "medium", s).choose(view, legal).cards for s in seeds}
    assert medium == {("G2",)}
    easy = {make_bot("uno", "easy", s).choose(view, legal).cards for s in seeds}
    assert {("R1",), ("G2",)} <= easy
