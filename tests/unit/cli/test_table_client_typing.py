"""The seat at the engine takes the same typed words as the offline game: a Burraco hand
arranged by the client (the rules keep no order of it), Poker's change typed as the
cards to change (MODE-1, ``tavolo play --server``)."""

from __future__ import annotations

import asyncio
import io
import queue
import re
from typing import Any

from tavolo.cardgames.actions import ActionKind
from tavolo.cardgames.games.rummy.deck import pretty
from tavolo.cardgames.registry import get_game
from tavolo.cli.play.renderers import renderer_for
from tavolo.cli.play.table_client import TableClient
from tavolo.tablelog.convert import action_from_proto, action_to_proto
from tavolo.tablelog.struct_wire import dict_to_struct
from tavolo.v1 import engine_pb2

from .test_table_client import FakeEngine, _until

ME = 0


def _message(game: str, state: Any, version: int) -> engine_pb2.TableView:
    rules = get_game(game)
    view = rules.view(state, ME)
    return engine_pb2.TableView(
        table_id="T",
        game=game,
        version=version,
        status=engine_pb2.TABLE_STATUS_PLAYING,
        seat=ME,
        hand=list(view.hand),
        public=dict_to_struct(view.public),
        private=dict_to_struct(view.private),
        to_act=sorted(rules.to_act(state)),
        legal_actions=[action_to_proto(a) for a in rules.legal_actions(state, ME)],
    )


def _my_turn(game: str, seed: str, wanted: ActionKind) -> Any:
    """A state where seat 0 may take a ``wanted`` action, the others having played."""
    rules = get_game(game)
    for n in range(50):
        state = rules.new_game({}, 4, f"{seed}{n}".encode())
        for _ in range(60):
            seat = min(rules.to_act(state))
            legal = rules.legal_actions(state, seat)
            if seat == ME and any(a.kind is wanted for a in legal):
                return state
            stay = [a for a in legal if a.kind in (ActionKind.BET, ActionKind.CALL_BET)]
            state, _ = rules.apply(state, seat, stay[0] if stay else legal[0])
    raise AssertionError(f"no {game} deal reached {wanted}")


def _typed_line(typed: queue.Queue[str]) -> str:
    """The next typed line; nothing typed for a while reads as Ctrl-D, so a keyboard
    thread the ended client left waiting ends quietly instead of raising into a later
    test."""
    try:
        return typed.get(timeout=60)
    except queue.Empty:
        raise EOFError from None


async def _seat(game: str, state: Any) -> tuple[FakeEngine, io.StringIO, queue.Queue[str], Any]:
    engine, out = FakeEngine(), io.StringIO()
    typed: queue.Queue[str] = queue.Queue()
    names = ["You", "Bot 1", "Bot 2", "Bot 3"]
    client = TableClient(
        engine,  # type: ignore[arg-type]
        "T",
        lambda: (),
        renderer_for(game),
        names,
        lambda prompt: _typed_line(typed),
        out,
    )
    run = asyncio.create_task(client.run())
    await engine.views.put(_message(game, state, 5))
    await _until(out, lambda t: "Your choice" in t)
    return engine, out, typed, run


async def _stop(engine: FakeEngine, run: Any, game: str, state: Any) -> None:
    """The table is called off: the client's loop ends."""
    ended = _message(game, state, 99)
    ended.status = engine_pb2.TABLE_STATUS_ABORTED
    await engine.views.put(ended)
    await asyncio.wait_for(run, 30)


async def test_a_burraco_hand_is_arranged_by_the_client() -> None:
    state = _my_turn("burraco", "arrange", ActionKind.DRAW)
    hand = list(get_game("burraco").view(state, ME).hand)
    engine, out, typed, run = await _seat("burraco", state)
    assert "'sort', 'move I J'" in out.getvalue()
    typed.put("move 1 3")  # FakeEngine has no ReorderHand: the client keeps the order
    text = await _until(out, lambda t: t.count("Your hand:") >= 2)
    moved = hand[1:3] + hand[:1] + hand[3:]
    shown = re.findall(r"\[\d+\] (\S+)", text.split("Your hand:")[-1])
    assert shown == [pretty(c) for c in moved]
    typed.put("1")
    await _until(out, lambda t: bool(engine.acts))
    assert action_from_proto(engine.acts[0].action).kind is ActionKind.DRAW
    await _stop(engine, run, "burraco", state)


async def test_poker_change_is_typed_at_the_engine_too() -> None:
    state = _my_turn("poker", "typed", ActionKind.DISCARD)
    hand = get_game("poker").view(state, ME).hand
    engine, out, typed, run = await _seat("poker", state)
    assert "  1) keep all five (servito)" in out.getvalue()
    assert "  2) " not in out.getvalue().split("keep all five")[1]
    typed.put("change 2 5")
    await _until(out, lambda t: bool(engine.acts))
    act = action_from_proto(engine.acts[0].action)
    assert act.kind is ActionKind.DISCARD and set(act.cards) == {hand[1], hand[4]}
    assert engine.acts[0].expected_version == 5
    await _stop(engine, run, "poker", state)
