"""The fishing bots: each level's tactics on hand-built tables (strength over thousands of
matches is bench/bench_bot_league.py's)."""

from __future__ import annotations

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.fishing.core import FishingBot
from tavolo.cardgames.bots.registry import bot_levels, make_bot
from tavolo.cardgames.games.fishing.cirulla import Cirulla
from tavolo.cardgames.games.fishing.core import FishingGame
from tavolo.cardgames.games.fishing.scopa import Scopa
from tavolo.cardgames.games.fishing.state import FishingState
from tavolo.cardgames.rng import SeededRandom
from tests.unit.cardgames.fishing_table import play, table

SCOPA = Scopa()


def choose(level: str, state: FishingState, seat: int = 0, game: FishingGame = SCOPA) -> Action:
    legal = game.legal_actions(state, seat)
    return FishingBot(level).choose(game.view(state, seat), legal, SeededRandom(b"bot"))


@pytest.mark.parametrize("game", ["scopa", "scopone", "asso", "cirulla"])
def test_every_fishing_game_has_three_bot_levels(game: str) -> None:
    assert bot_levels(game) == ("easy", "medium", "hard")
    assert make_bot(game, "hard", 1).level == "hard"


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_medium_and_hard_take_a_scopa_when_they_can(level: str) -> None:
    state = table(SCOPA, 2, {0: "7C 3D", 1: "AS 2S 4B"}, "3B 4S", stock="5C 6C 7B 5B 6B FB")
    assert choose(level, state) == play("7C", "3B 4S")


@pytest.mark.parametrize("level", ["medium", "hard"])
def test_medium_and_hard_take_the_settebello(level: str) -> None:
    state = table(SCOPA, 2, {0: "7C 4D", 1: "AS"}, "7D 4B RS", stock="5C 6C 7B 5B 6B FB")
    assert choose(level, state) == play("7C", "7D")


def test_hard_keeps_the_table_out_of_a_sweep() -> None:
    # Laying the 2 leaves 5 + 2 = 7, which any 7 sweeps; laying the Re leaves 5 + Re.
    state = table(SCOPA, 2, {0: "2C RB", 1: "AS 2S 4B"}, "5S", stock="5C 6C 7B 5B 6B FB")
    assert choose("hard", state) == play("RB")


def test_hard_lays_a_card_whose_value_is_all_seen() -> None:
    # Every other 6 has been played, so a laid 6 cannot be taken by an equal card.
    state = table(
        SCOPA,
        2,
        {0: "6D 4C", 1: "AS 2S 3B"},
        "RS",
        stock="5C 5B 7B",
        piles={0: "6C 6B 6S"},
        plays=((0, "6C", ("6B",), False), (1, "6S", (), False)),
    )
    assert choose("hard", state) == play("6D")


def test_easy_captures_when_it_can() -> None:
    state = table(SCOPA, 2, {0: "5C 2D 3B", 1: "AS"}, "5S RB")
    for n in range(20):
        bot = FishingBot("easy")
        legal = SCOPA.legal_actions(state, 0)
        action = bot.choose(SCOPA.view(state, 0), legal, SeededRandom(bytes([n])))
        assert action == play("5C", "5S")


def test_every_level_declares_a_cirulla_accuso() -> None:
    game = Cirulla()
    state = table(game, 2, {0: "2S 3C 4D", 1: "2H"}, "KC", may_declare=(True, True))
    for level in ("easy", "medium", "hard"):
        assert choose(level, state, game=game) == Action(ActionKind.CALL, call="cirulla")
