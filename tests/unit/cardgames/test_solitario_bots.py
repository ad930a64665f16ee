"""The Solitario hard bot's planning over the stock (SOLITARIO-4) and its honesty
(GAMES-8: a bot sees only its seat's view), on small hand-built layouts.

Strength in numbers is measured by ``bench/bench_solitario.py``, not here.
"""

from __future__ import annotations

import copy
from dataclasses import replace

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.bots.solitario.search import key_of, plan_line, reachable, turn_stock
from tavolo.cardgames.bots.solitario.solitario import SolitarioBot, StockMemory
from tavolo.cardgames.games.solitario.piles import Layout, Position
from tavolo.cardgames.games.solitario.solitario import SolitarioState
from tavolo.cardgames.rng import SeededRandom
from tests.unit.cardgames.test_solitario_rules import GAME, layout, table

SPARE = "KH QS JH 10S 9H 8S 7H 6S"  # a king's run: nothing to gain from it


def position(lay: Layout) -> Position:
    return lay.position()


def test_solitario_4_draw_three_turns_three_cards_and_the_last_is_on_top() -> None:
    """SOLITARIO-4: the stock's top (its last card) goes first, so the third card turned
    is the waste's playable top; an empty stock turns the waste over."""
    stock, waste = turn_stock(("2S", "3S", "4S", "5S"), (), 3)
    assert stock == ("2S",) and waste == ("5S", "4S", "3S")
    assert turn_stock((), ("5S", "4S", "3S"), 3) == (("3S", "4S", "5S"), ())


def test_solitario_4_draw_three_reaches_every_third_card() -> None:
    """SOLITARIO-4: with draw 3 a pass of six cards brings up only the 3rd and the 6th;
    playing the waste's top shifts the cycle so other cards come up."""
    stock = ("6C", "5C", "4C", "3C", "2C", "AC")  # AC on top
    tops = [w[-1] for _, _, w in reachable(stock, (), 3)]
    assert tops == ["3C", "6C"]
    # With 3C played from the waste, the next turn brings up 6C, and after the recycle
    # AC 2C 4C bring up the 4C, which the first pass never offered.
    shifted = [w[-1] for _, _, w in reachable(("6C", "5C", "4C"), ("AC", "2C"), 3)]
    assert shifted == ["6C", "4C"]
    assert [d for d, _, _ in reachable(stock, (), 1)] == [1, 2, 3, 4, 5, 6]


def test_solitario_4_the_line_brings_an_ace_up_from_the_stock() -> None:
    """SOLITARIO-4: the hard bot's line may turn the stock it remembers twice to play the
    ace the second turn brings up; without the stock's order it sees no such step."""
    lay = layout([SPARE], stock="AS KD QD JD 2D 3D")
    pos = position(lay)
    gain, line = plan_line(pos, lay.stock, 3, set())
    assert line == [(2, ("waste", "fS", 1))] and gain > 0
    assert plan_line(pos, None, 3, set()) == (0.0, [])


def test_solitario_4_a_line_ends_where_a_card_turns_up() -> None:
    """SOLITARIO-4: a line plays the stock's 8S onto the 9H so that the 7H can leave the
    column above a face-down card; it stops at that card, whose face is unknown."""
    lay = layout(["KS | 7H", "9H"], stock="8S 2C 3C")
    gain, line = plan_line(position(lay), lay.stock, 3, set())
    assert line == [(1, ("waste", "t2", 1)), (0, ("t1", "t2", 1))]
    assert gain > 0


def test_solitario_4_the_line_never_returns_to_a_position_already_played() -> None:
    """SOLITARIO-4: positions the bot has already been through are left out of its lines."""
    lay = layout([SPARE], stock="AS KD QD JD 2D 3D")
    pos = position(lay)
    _, line = plan_line(pos, lay.stock, 3, set())
    after = replace(pos, stock=0, waste=("3D", "2D", "JD", "QD", "KD"), foundations=(1, 0, 0, 0))
    assert plan_line(pos, lay.stock, 3, {key_of(after)}) == (0.0, [])
    assert line


def test_solitario_4_memory_learns_the_stock_from_the_waste_it_turns_over() -> None:
    """SOLITARIO-4: the stock is unknown until a pass ends; the recycle turns the waste it
    has seen into a stock whose order it then follows through draws."""
    memory = StockMemory()
    start = position(layout([SPARE], stock="AS KD QD JD 2D 3D"))
    assert memory.update(start) is None
    end_of_pass = replace(start, stock=0, waste=("3D", "2D", "JD", "QD", "KD", "AS"))
    assert memory.update(end_of_pass) == ()
    recycled = replace(start, stock=6, waste=())
    assert memory.update(recycled) == ("AS", "KD", "QD", "JD", "2D", "3D")
    drawn = replace(start, stock=3, waste=("3D", "2D", "JD"))
    assert memory.update(drawn) == ("AS", "KD", "QD")


def _shuffled_face_down(state: SolitarioState, seed: bytes) -> SolitarioState:
    """The same table with the cards the seat cannot see (face-down column cards and the
    stock) dealt among those places in another order."""
    seat = state.seats[0]
    lay = seat.layout
    hidden = [c for col in lay.down for c in col] + list(lay.stock)
    SeededRandom(seed).shuffle(hidden)
    down, at = [], 0
    for col in lay.down:
        down.append(tuple(hidden[at : at + len(col)]))
        at += len(col)
    shuffled = lay.replace(down=tuple(down), stock=tuple(hidden[at:]))
    return state.replace(seats=(seat.replace(layout=shuffled),))


def test_games_8_hard_decisions_ignore_the_face_down_cards_it_has_not_seen() -> None:
    """GAMES-8: at every decision of a draw-3 game, the hard bot (with the same memory)
    chooses the same action when the face-down cards and the stock are dealt otherwise:
    it reads only its view and what it has seen."""
    for deal in range(3):
        state = GAME.new_game({"draw": 3}, 1, f"honest {deal}".encode())
        bot = make_bot("solitario", "hard", f"honest {deal}")
        assert isinstance(bot.bot, SolitarioBot)
        for turn in range(120):
            if GAME.outcome(state) is not None:
                break
            other = _shuffled_face_down(state, f"{deal}/{turn}".encode())
            twin = copy.deepcopy(bot)
            mine = bot.choose(GAME.view(state, 0), GAME.legal_actions(state, 0))
            theirs = twin.choose(GAME.view(other, 0), GAME.legal_actions(other, 0))
            assert mine == theirs, f"deal {deal}, turn {turn}"
            state, _ = GAME.apply(state, 0, mine)


def test_games_8_hard_plays_a_card_it_remembers_from_the_stock() -> None:
    """GAMES-8, SOLITARIO-4: once a pass has shown the stock, the hard bot turns it to the
    ace it needs, while the medium bot, which does not plan over the stock, only draws."""
    lay = layout([SPARE], waste="2D 3D JD QD KD AS 9D")
    state = table(lay, options={"draw": 3})
    bot = make_bot("solitario", "hard", "remembers")
    actions: list[Action] = []
    for _ in range(4):
        action = bot.choose(GAME.view(state, 0), GAME.legal_actions(state, 0))
        actions.append(action)
        state, _ = GAME.apply(state, 0, action)
    assert [a.kind for a in actions[:3]] == [ActionKind.DRAW] * 3  # recycle, then two turns
    assert actions[3] == Action(ActionKind.MOVE, source="waste", target="fS", count=1)


def test_solitario_4_hard_turns_up_the_column_hiding_most_cards() -> None:
    """SOLITARIO-4: with two black eights to put on the 9H, each over face-down cards, the
    hard bot moves the one hiding five cards rather than the one hiding a single card, at
    draw 1 and at draw 3: the long column is the one that blocks the game."""
    lay = layout(["9H", "2D | 8S", "2H 3H 4H 5H 6H | 8C"], stock="KD QD JD")
    for draw in (1, 3):
        state = table(lay, options={"draw": draw})
        bot = make_bot("solitario", "hard", f"deepest {draw}")
        action = bot.choose(GAME.view(state, 0), GAME.legal_actions(state, 0))
        assert action == Action(ActionKind.MOVE, source="t3", target="t1", count=1), draw
