"""The Burraco and Scala 40 bots (GAMES.md 8): legal, sensible, and the hard level's
memory of the pile. Their strength is measured in bench/bench_bot_league.py."""

from __future__ import annotations

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.registry import bot_levels, make_bot
from tavolo.cardgames.bots.rummy.memory import PileMemory, danger
from tavolo.cardgames.bots.rummy.outs import keep_values, unseen
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.rummy.burraco_state import DRAW
from tavolo.cardgames.games.rummy.melds import BURRACO_MELDS, SCALA40_MELDS
from tavolo.cardgames.games.rummy.scala40_state import DRAW as S40_DRAW
from tavolo.cardgames.registry import get_game
from tests.unit.cardgames.burraco_table import GAME, meld, table
from tests.unit.cardgames.scala40_table import GAME as S40
from tests.unit.cardgames.scala40_table import meld as s40_meld
from tests.unit.cardgames.scala40_table import table as s40_table


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


def test_a_run_gap_whose_card_is_dead_is_worth_nothing() -> None:
    """GAMES-8: hard keeps a loose card by the live cards that complete it."""
    hand = ["5H", "7H", "9C", "9D"]
    live = unseen(hand, {"melds": []}, ["6H", "6H", "JK", "JK", "JK", "JK"])
    values = keep_values(hand, live, SCALA40_MELDS)
    assert values["7H"] == values["5H"] == 0  # both 6♥ are in the pozzo
    assert values["9C"] == 4  # 9♠ and 9♥, two copies each
    fresh = keep_values(hand, unseen(hand, {"melds": []}, []), SCALA40_MELDS)
    assert fresh["7H"] > 0


def test_scala40_hard_throws_the_dead_gap_and_keeps_the_live_pair() -> None:
    """GAMES-8, SCALA40-7: medium throws the costlier 9, hard the card nothing completes."""
    state = s40_table(
        [["5H", "7H", "9C", "9D"], ["4D", "KC", "QS"]],
        pozzo=["6H", "6H", "JK", "JK", "JK", "JK"],
        opened=(True, True),
    )
    view = S40.view(state, 0)
    discards = [a for a in S40.legal_actions(state, 0) if a.kind is ActionKind.DISCARD]
    assert make_bot("scala40", "medium", 1).choose(view, discards).cards[0] == "9C"
    assert make_bot("scala40", "hard", 1).choose(view, discards).cards[0] in ("5H", "7H")


def test_scala40_hard_takes_the_pozzo_card_that_joins_a_table_meld() -> None:
    """GAMES-8, SCALA40-5: a card that goes straight onto the table is a card less in
    hand; medium takes it only when it melds with its own cards."""
    state = s40_table(
        [["3C", "8D", "KS", "5H"], ["4D", "KC", "QS"]],
        melds=[(1, s40_meld("9H", "10H", "JH"))],
        pozzo=["4S", "QH"],
        opened=(True, True),
        phase=S40_DRAW,
    )
    view = S40.view(state, 0)
    legal = S40.legal_actions(state, 0)
    assert make_bot("scala40", "medium", 1).choose(view, legal).kind is ActionKind.DRAW
    assert make_bot("scala40", "hard", 1).choose(view, legal).kind is ActionKind.TAKE_DISCARD


def test_burraco_hard_takes_a_pile_of_three() -> None:
    """GAMES-8, BURRACO-2: three cards already pay for the pile; medium waits for four."""
    state = table([["3C", "8D", "QS", "KH", "5S"], ["4C", "9D"]], discard=["4S", "9C", "JD"])
    state = state.replace(phase=DRAW)
    view = GAME.view(state, 0)
    legal = GAME.legal_actions(state, 0)
    assert make_bot("burraco", "medium", 1).choose(view, legal).kind is ActionKind.DRAW
    assert make_bot("burraco", "hard", 1).choose(view, legal).kind is ActionKind.TAKE_DISCARD
