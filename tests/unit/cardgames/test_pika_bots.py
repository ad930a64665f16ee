"""Pika bots: legal, deterministic by seed, and each level shows its habits."""

from __future__ import annotations

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.registry import bot_levels, make_bot
from tavolo.cardgames.errors import InvalidOptions
from tavolo.cardgames.games.shedding.pika_state import PikaState
from tests.unit.cardgames.pika_table import GAME, act, pika_table, play


def choose(level: str, state: PikaState, seat: int, seed: str = "s") -> Action:
    bot = make_bot("pika", level, seed)
    return bot.choose(GAME.view(state, seat), GAME.legal_actions(state, seat))


def game_choices(level: str, seed: str) -> list[Action]:
    state = GAME.new_game({}, 3, b"bots deal")
    bots = [make_bot("pika", level, f"{seed}:{s}") for s in range(3)]
    chosen = []
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        action = bots[seat].choose(GAME.view(state, seat), GAME.legal_actions(state, seat))
        chosen.append(action)
        state = act(state, seat, action)
    return chosen


@pytest.mark.parametrize("level", ["easy", "medium", "hard"])
def test_the_same_seed_gives_the_same_game(level: str) -> None:
    assert game_choices(level, "one") == game_choices(level, "one")


def test_different_seeds_give_different_random_play() -> None:
    assert game_choices("easy", "one") != game_choices("easy", "two")


def test_levels_and_unknown_bots() -> None:
    assert bot_levels("pika") == ("easy", "medium", "hard")
    assert bot_levels("chess") == ()
    with pytest.raises(InvalidOptions, match="no 'expert' bot for pika"):
        make_bot("pika", "expert", 1)
    with pytest.raises(InvalidOptions, match="no bots for game 'chess'"):
        make_bot("chess", "easy", 1)


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_chain_a_stack_with_a_plus_two_before_a_plus_four(level: str) -> None:
    state = pika_table({3: ["W+4", "G+2", "B7"]}, top="R+2", turn=3, stack=2)
    assert choose(level, state, 3) == play("G+2")


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_keep_black_cards_while_a_coloured_card_will_do(level: str) -> None:
    state = pika_table({0: ["W", "R3", "G4", "B4"]}, top="R5")
    assert choose(level, state, 0) == play("R3")


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_call_pika_with_the_play(level: str) -> None:
    state = pika_table({0: ["R3", "G4"]}, top="R5")
    assert choose(level, state, 0) == play("R3", call="pika")


def test_medium_names_the_colour_it_holds_most() -> None:
    state = pika_table({0: ["W", "B1", "R1", "R2"]}, top="G5")
    assert choose("medium", state, 0).colour == "red"


def test_hard_names_a_colour_the_next_player_just_could_not_play() -> None:
    state = pika_table({0: ["W", "B1", "R1", "R2"]}, top="G5")
    # Seat 3, next after seat 0, drew a card instead of playing while blue was in play.
    state = state.copy()
    state.recent = (1, 3, "draw", "", "B", 1, None)
    assert choose("hard", state, 0).colour == "blue"


def test_hard_never_keeps_a_plus_two_as_its_last_card() -> None:
    state = pika_table({0: ["R3", "R+2"]}, top="R5")
    assert choose("hard", state, 0) == play("R+2", call="pika")


def test_hard_holds_back_a_player_about_to_go_out() -> None:
    state = pika_table({0: ["R3", "Rskip", "G9"], 3: ["Y4"]}, top="R5")
    assert choose("hard", state, 0) == play("Rskip")


def test_bots_answer_a_call_window_out_of_turn() -> None:
    state = act(pika_table({0: ["R3", "G4"]}, top="R5"), 0, play("R3"))
    assert state.turn != 0
    for level in ("easy", "medium", "hard"):
        assert choose(level, state, 0).kind is ActionKind.CALL
