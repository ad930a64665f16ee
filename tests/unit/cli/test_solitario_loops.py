"""Solitario's menu never loops (RULES §16, SOLITARIO-1…4; MODE-1): no move that undoes
the card's previous one, and the stop alone once a whole pass of the stock has offered
nothing new. The rules still allow every move: the client alone leaves them out."""

from __future__ import annotations

import io
import random
import re
from typing import Any

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import View
from tavolo.cardgames.registry import get_game
from tavolo.cli.play.command import play
from tavolo.cli.play.render.solitario_recall import Recall, after, layout, moved_card
from tavolo.cli.play.renderers import menu, new_recall, remember, renderer_for
from tavolo.tablelog.convert import action_from_proto

from .test_table_client import _until
from .test_table_client_typing import _message, _seat, _stop

RENDERER = renderer_for("solitario")
GAME = get_game("solitario")
STOP_ALONE = "stop: nothing but the stock can move any more"
DRAW, STOP = Action(ActionKind.DRAW), Action(ActionKind.STOP)
PUBLIC = {"draw": 1, "scoring": "standard", "scores": [0], "finished": [None]}


def move(source: str, target: str, count: int = 1) -> Action:
    return Action(ActionKind.MOVE, source=source, target=target, count=count)


def view(**me: Any) -> View:
    """A layout with 5♥ on the hearts foundation, a black six on column 1 that would
    take it, and three cards in the stock that fit nowhere."""
    base: dict[str, Any] = {
        "columns": [["6S"], ["KD"], [], [], [], [], []],
        "face_down": [0, 3, 1, 1, 1, 1, 1],
        "stock": 3,
        "waste": [],
        "foundations": [0, 5, 0, 0],
        "recycles": 0,
        "recycles_left": None,
        "moves": 0,
    }
    return View(0, (), PUBLIC, {**base, **me})


def test_a_card_is_not_offered_back_where_it_just_came_from() -> None:
    """5♥ down from its foundation: putting it back up is not offered, however many
    times the stock turns, until some other move changes the layout."""
    recall = Recall()
    down, up = move("fH", "t1"), move("t1", "fH")
    first = view()
    assert [a for _, a in RENDERER.menu(first, [down, DRAW, STOP], recall)] == [down, DRAW, STOP]
    recall.note(first, [down, DRAW, STOP], down)
    lowered = view(columns=[["6S", "5H"], ["KD"], [], [], [], [], []], foundations=[0, 4, 0, 0])
    assert [a for _, a in RENDERER.menu(lowered, [up, DRAW, STOP], recall)] == [DRAW, STOP]
    assert RENDERER.menu(lowered, [up, DRAW, STOP]) != RENDERER.menu(
        lowered, [up, DRAW, STOP], recall
    )  # without the memory it was offered: the loop
    recall.note(lowered, [up, DRAW, STOP], DRAW)
    drawn = view(**{**lowered.private, "stock": 2, "waste": ["9C"]})
    assert up not in [a for _, a in RENDERER.menu(drawn, [up, DRAW, STOP], recall)]
    # Another card moves: the layout is not the one 5♥ left, so 5♥ may go up again.
    onto = move("waste", "t1")
    recall.note(drawn, [up, onto, DRAW, STOP], onto)
    covered = view(columns=[["6S", "5H", "4C"], ["KD"], [], [], [], [], []], stock=2)
    assert recall.undoes(move("t1", "fC"), covered.private) is False


def test_a_whole_pass_with_nothing_new_leaves_the_stop_alone() -> None:
    """5♥ and 5♦ down from their foundations, 5♥ back up: what is left (5♦ back up) only
    leads to a layout already seen, so once the stock has turned through a whole pass
    the stop is offered alone, and not before. Without the memory the move is offered
    for ever (stock turned or not), as the check of all cards in the waste never fires."""
    recall = Recall()
    six = {"columns": [["6S"], ["6C"], [], [], [], [], []], "face_down": [0, 0, 1, 1, 1, 1, 1]}
    steps = [
        ([0, 5, 5, 0], [["6S"], ["6C"]], move("fH", "t1")),
        ([0, 4, 5, 0], [["6S", "5H"], ["6C"]], move("fD", "t2")),
        ([0, 4, 4, 0], [["6S", "5H"], ["6C", "5D"]], move("t1", "fH")),
    ]
    for found, cols, chosen in steps:
        me = {**six, "columns": [*cols, [], [], [], [], []], "foundations": found}
        recall.note(view(**me), [chosen, DRAW, STOP], chosen)
    lowered = {**six, "columns": [["6S"], ["6C", "5D"], [], [], [], [], []]}
    lowered["foundations"] = [0, 5, 4, 0]
    up, down = move("t2", "fD"), move("fH", "t1")
    legal = [up, down, DRAW, STOP]
    waste: list[str] = []
    screens = []
    for _ in range(4):  # 9♣ 10♣ J♣, then the waste turned over
        at = view(**lowered, waste=waste, stock=3 - len(waste))
        screens.append(RENDERER.menu(at, legal, recall))
        recall.note(at, legal, DRAW)
        waste = [*waste, ("9C", "10C", "JC")[len(waste)]] if len(waste) < 3 else []
    assert all([a for _, a in s] == [up, DRAW, STOP] for s in screens)  # 5♥ down: an undo
    at = view(**lowered, waste=[], stock=3)
    assert RENDERER.menu(at, legal, recall) == [(STOP_ALONE, STOP)]
    assert (STOP_ALONE, STOP) not in RENDERER.menu(at, legal)


def test_a_pass_that_offers_a_new_layout_goes_on() -> None:
    """A move to a layout never seen (a card off the waste) keeps the game going."""
    recall = Recall()
    at = view(waste=["5C"], stock=2, columns=[["6H"], ["KD"], [], [], [], [], []])
    onto = move("waste", "t1")
    for _ in range(6):
        assert (STOP_ALONE, STOP) not in RENDERER.menu(at, [onto, DRAW, STOP], recall)
        recall.note(at, [onto, DRAW, STOP], DRAW)


def random_game(seed: int, draw: int, limit: int) -> tuple[int, int, str]:
    """``tavolo play solitario`` answered at random among the moves (never "stop here"
    unless it is the only choice): (exit code, answers, the last screen)."""
    rng = random.Random(seed)
    out = io.StringIO()
    answers = [0]

    def answer(prompt: str) -> str | None:
        answers[0] += 1
        if answers[0] > limit:
            return None
        text = out.getvalue()
        screen = text[text.rfind("--- Solitario") :]
        out.seek(0)
        out.truncate()
        out.write(screen)
        lines = re.findall(r"^  (\d+)\) (.*)$", screen, re.M)
        moves = [n for n, label in lines if not label.startswith("stop here")]
        return rng.choice(moves or [lines[0][0]])

    options = {"draw": draw}
    code = play("solitario", 1, "easy", f"loop {seed}", input_line=answer, out=out, options=options)
    return code, answers[0], out.getvalue()


@pytest.mark.parametrize("draw", [1, 3])
def test_a_random_player_always_comes_to_the_end(draw: int) -> None:
    """Random players on 12 deals each: every game ends (won, or the stop alone left)
    within 2,000 answers; before, most of them moved cards up and down for ever."""
    for seed in range(12):
        code, answers, screen = random_game(seed, draw, 2_000)
        assert code == 0, f"deal {seed} still going after {answers} answers"
        assert "--- Final places" in screen


def test_the_menu_never_offers_an_undo_in_random_play() -> None:
    """Driven through the rules: at every choice of random games, no offered move takes
    a card back where its previous move took it from while the layout is still the one
    that move left; every offered move is legal."""
    rng = random.Random(7)
    checked = 0
    for seed in range(8):
        state = GAME.new_game({"draw": 1 + 2 * (seed % 2)}, 1, f"undo {seed}".encode())
        recall = new_recall(RENDERER)
        previous: dict[str, tuple[str, str, Any]] = {}
        for _ in range(400):
            if GAME.outcome(state) is not None:
                break
            legal = GAME.legal_actions(state, 0)
            seen = GAME.view(state, 0)
            offered = [a for _, a in menu(RENDERER, seen, legal, recall)]
            assert set(offered) <= set(legal)
            for a in offered:
                if a.kind is ActionKind.MOVE and a.source != "waste":
                    back = previous.get(moved_card(a, seen.private))
                    assert back != (a.target, a.source, layout(seen.private)), a
                    checked += 1
            moves = [a for a in offered if a.kind is not ActionKind.STOP] or offered
            chosen = rng.choice(moves)
            remember(recall, seen, legal, chosen)
            if chosen.kind is ActionKind.MOVE:
                card = moved_card(chosen, seen.private)
                previous[card] = (chosen.source, chosen.target, after(chosen, seen.private))
            state, _ = GAME.apply(state, 0, chosen)
    assert checked > 100


def _undoable(seed: str) -> tuple[Any, Action, Any, Action]:
    """A Solitario position, a move, the position it leads to and the move back, which
    the rules allow there and a menu without memory would offer."""
    rng = random.Random(seed)
    state = GAME.new_game({}, 1, seed.encode())
    for _ in range(2_000):
        legal = GAME.legal_actions(state, 0)
        offered = [a for _, a in RENDERER.menu(GAME.view(state, 0), legal)]
        for m in offered:
            if m.kind is ActionKind.MOVE and m.source != "waste":
                after_m, _ = GAME.apply(state, 0, m)
                back = move(m.target or "", m.source or "", m.count or 1)
                plain = RENDERER.menu(GAME.view(after_m, 0), GAME.legal_actions(after_m, 0))
                if back in [a for _, a in plain]:  # offered, but for the memory
                    return state, m, after_m, back
        state, _ = GAME.apply(state, 0, rng.choice([a for a in legal if a != STOP]))
    raise AssertionError("no move with its way back")


async def test_the_seat_at_the_engine_is_not_offered_the_way_back_either() -> None:
    """``tavolo play solitario --server``: the client remembers the move it sent, and the
    next menu leaves out the move straight back that the rules allow."""
    state, there, after_it, back = _undoable("engine undo")
    engine, out, typed, run = await _seat("solitario", state)
    labels = dict(re.findall(r"^  (\d+)\) (.*)$", out.getvalue(), re.M))
    number = next(
        n for n, label in labels.items() if label == RENDERER.choice(there, GAME.view(state, 0))
    )
    typed.put(number)
    await _until(out, lambda t: bool(engine.acts))
    assert action_from_proto(engine.acts[0].action) == there
    await engine.views.put(_message("solitario", after_it, 6))
    text = await _until(out, lambda t: t.count("Your choice") >= 2)
    menu_now = text.split("Your choice")[-2]
    assert RENDERER.choice(back, GAME.view(after_it, 0)) not in menu_now
    assert "turn the stock" in menu_now
    await _stop(engine, run, "solitario", after_it)
