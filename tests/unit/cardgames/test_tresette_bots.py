"""Tresette and Ciapanò bots: legal play at every level, and the tactics each level
promises (strength over many games: bench/bench_bot_league.py)."""

from __future__ import annotations

import pytest

from tavolo.cardgames.bots.base import Bot
from tavolo.cardgames.bots.registry import bot_levels, make_bot
from tavolo.cardgames.bots.tricks.ciapano import CiapanoBot
from tavolo.cardgames.bots.tricks.tresette import TresetteBot
from tavolo.cardgames.games.tricks.ciapano import Ciapano
from tavolo.cardgames.games.tricks.tresette import Tresette
from tavolo.cardgames.games.tricks.tresette_table import TresetteState, TresetteTable
from tavolo.cardgames.rng import SeededRandom
from tests.unit.cardgames.test_tresette_rules import table

TRESETTE, CIAPANO = Tresette(), Ciapano()


def choose(game: TresetteTable, bot: Bot, state: TresetteState, seat: int) -> str:
    action = bot.choose(game.view(state, seat), game.legal_actions(state, seat), SeededRandom(b"b"))
    return str(action.call or action.cards[0])


@pytest.mark.parametrize(("game", "players"), [(TRESETTE, 4), (TRESETTE, 2), (CIAPANO, 3)])
def test_every_level_finishes_a_game_with_legal_moves_only(
    game: TresetteTable, players: int
) -> None:
    assert bot_levels(game.name) == ("easy", "medium", "hard")
    state = game.new_game({"accusi": True} if game is TRESETTE else None, players, b"bots")
    bots = [make_bot(game.name, ("easy", "medium", "hard")[s % 3], s) for s in range(players)]
    while game.outcome(state) is None:
        (seat,) = game.to_act(state)
        legal = game.legal_actions(state, seat)
        action = bots[seat].choose(game.view(state, seat), legal)
        assert action in legal
        state, _ = game.apply(state, seat, action)


def test_tresette_bots_declare_what_they_hold() -> None:
    state = TRESETTE.new_game({"accusi": True}, 4, b"declare")
    seat = state.turn
    hand = ("AC", "2C", "3C", "4S", "5S", "6S", "7S", "FS", "CS", "RS")
    state = state.replace(hands=tuple(hand if s == seat else h for s, h in enumerate(state.hands)))
    assert choose(TRESETTE, TresetteBot("medium"), state, seat) == "napoletana"


def test_tresette_medium_takes_points_with_the_cheapest_winner_when_last() -> None:
    trick = ((1, "AC"), (2, "4C"), (3, "RC"))
    state = table(TRESETTE, 4, {0: "3C 2C 5D"}, turn=0, trick=trick)
    assert choose(TRESETTE, TresetteBot("medium"), state, 0) == "2C"


def test_tresette_medium_gives_the_least_to_an_opponents_trick() -> None:
    trick = ((1, "3C"), (2, "4D"), (3, "5C"))
    state = table(TRESETTE, 4, {0: "AC 6C RC"}, turn=0, trick=trick)
    assert choose(TRESETTE, TresetteBot("medium"), state, 0) == "6C"


def test_ciapano_medium_ducks_under_the_winning_card() -> None:
    trick = ((1, "RC"), (2, "4C"), (3, "5C"))
    state = table(CIAPANO, 4, {0: "3C CC 6C"}, turn=0, trick=trick)
    assert choose(CIAPANO, CiapanoBot("medium"), state, 0) == "CC"


def test_ciapano_medium_sheds_an_ace_when_void() -> None:
    trick = ((1, "RC"), (2, "4C"), (3, "5C"))
    state = table(CIAPANO, 4, {0: "AD 4D 5S"}, turn=0, trick=trick)
    assert choose(CIAPANO, CiapanoBot("medium"), state, 0) == "AD"
