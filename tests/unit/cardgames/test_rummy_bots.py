"""The Burraco and Scala 40 bots (GAMES.md 8): legal, sensible, and the hard level's
memory of the pile. Their strength is measured in bench/bench_rummy_bots.py."""

from __future__ import annotations

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.registry import bot_levels, make_bot
from tavolo.cardgames.bots.rummy_memory import PileMemory, danger
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.melds import BURRACO_MELDS
from tavolo.cardgames.registry import get_game
from tests.unit.cardgames.burraco_table import GAME, meld, table


@pytest.mark.parametrize("name", ["burraco", "scala40"])
def test_every_level_finishes_a_hand_with_legal_moves(name: str) -> None:
    game = get_game(name)
    assert bot_levels(name) == ("easy", "medium", "hard")
    for level in ("easy", "medium", "hard"):
        state = game.new_game({"match_length": "hands:1"}, 2, f"{name} {level}".encode())
        bots = [make_bot(name, level, s) for s in range(2)]
        for _ in range(3000):
            if game.outcome(state) is not None:
                break
            (seat,) = game.to_act(state)
            legal = game.legal_actions(state, seat)
            choice = bots[seat].choose(game.view(state, seat), legal)
            assert choice in legal
            state, _ = game.apply(state, seat, choice)
        assert game.outcome(state) is not None, f"{level} bots did not finish a hand"


def test_medium_lays_natural_melds_and_never_throws_a_wild() -> None:
    state = table([["5H", "6H", "7H", "JK", "9C", "KD"], ["4C"]])
    bot = make_bot("burraco", "medium", 1)
    view = GAME.view(state, 0)
    choice = bot.choose(view, GAME.legal_actions(state, 0))
    assert choice == Action(ActionKind.MELD, cards=("5H", "6H", "7H"))
    only_discards = [a for a in GAME.legal_actions(state, 0) if a.kind is ActionKind.DISCARD]
    assert bot.choose(view, only_discards).cards[0] != "JK"


def test_hard_remembers_what_the_rival_took_and_does_not_feed_it() -> None:
    memory = PileMemory()
    before = View(seat=0, hand=(), public={"hand": 1, "phase": "play", "discard": ["9S", "QD"]})
    memory.update(before)
    after = View(seat=0, hand=(), public={"hand": 1, "phase": "draw", "discard": ["4C"]})
    memory.update(after)
    assert memory.taken_by_rivals == ["9S", "QD"]
    rival_run = meld("5H", "6H", "7H")
    state = table([["8H", "3C", "KS"], ["4C", "9D"]], melds=([], [rival_run]))
    view = GAME.view(state, 0)
    assert danger("8H", view, memory, BURRACO_MELDS) >= 2  # joins their run
    assert danger("QS", view, memory, BURRACO_MELDS) >= 1  # pairs with the Q♦ they took
    assert danger("3C", view, memory, BURRACO_MELDS) <= 0
    bot = make_bot("burraco", "hard", 3)
    discards = [a for a in GAME.legal_actions(state, 0) if a.kind is ActionKind.DISCARD]
    assert bot.choose(view, discards).cards[0] != "8H"
