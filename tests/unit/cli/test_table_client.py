"""The seat at the engine, against a scripted stream: the "One card left!" question does
not stop the table's news, and a late answer reads against the prompt on screen."""

from __future__ import annotations

import asyncio
import io
import queue
import random
from collections.abc import AsyncIterator, Callable
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.registry import get_game
from tavolo.cli.play.render.pika import RENDERER
from tavolo.cli.play.table_client import TableClient
from tavolo.tablelog.convert import action_to_proto
from tavolo.tablelog.struct_wire import dict_to_struct
from tavolo.v1 import common_pb2, engine_pb2

GAME = get_game("pika")
ME = 0


def _message(state: Any, version: int) -> engine_pb2.TableView:
    view = GAME.view(state, ME)
    legal = [a for a in GAME.legal_actions(state, ME) if a.kind is not ActionKind.REORDER]
    return engine_pb2.TableView(
        table_id="T",
        game="pika",
        version=version,
        status=engine_pb2.TABLE_STATUS_PLAYING,
        seat=ME,
        hand=list(view.hand),
        public=dict_to_struct(view.public),
        private=dict_to_struct(view.private),
        to_act=sorted(GAME.to_act(state)),
        legal_actions=[action_to_proto(a) for a in legal],
    )


def _my_window_opens() -> list[Any]:
    """States of a 2-seat game: the last has seat 0's Pika window open (it kept quiet)."""
    for n in range(200):
        pick = random.Random(n)
        state: Any = GAME.new_game({}, 2, f"window-{n}".encode())
        states = [state]
        for _ in range(400):
            if GAME.outcome(state) is not None:
                break
            seat = min(GAME.to_act(state))
            legal = [a for a in GAME.legal_actions(state, seat) if not a.call]
            state, _ = GAME.apply(state, seat, pick.choice(legal))
            states.append(state)
            if ME in GAME.view(state, ME).public["pika_windows"] and ME not in GAME.to_act(state):
                return states
    raise AssertionError("no game opened a window for seat 0")


def _until_my_turn(state: Any) -> list[Any]:
    """After the window: the call timer runs out, then the other seat plays until seat 0
    has a turn."""
    timer = next(t for t in GAME.timers(state) if t.seat == ME and t.kind == "call")
    state, _ = GAME.apply(state, ME, Action(ActionKind.EXPIRE, timer=timer.key))
    states = [state]
    pick = random.Random(1)
    while min(GAME.to_act(state)) != ME:
        seat = min(GAME.to_act(state))
        state, _ = GAME.apply(state, seat, pick.choice(GAME.legal_actions(state, seat)))
        states.append(state)
    return states


class FakeEngine:
    """WatchTable streams what the test puts on ``views``; Act is recorded."""

    def __init__(self) -> None:
        self.views: asyncio.Queue[engine_pb2.TableView] = asyncio.Queue()
        self.acts: list[engine_pb2.ActRequest] = []

    def WatchTable(self, request: Any, metadata: Any) -> AsyncIterator[engine_pb2.TableView]:
        async def stream() -> AsyncIterator[engine_pb2.TableView]:
            while True:
                yield await self.views.get()

        return stream()

    async def Act(self, request: engine_pb2.ActRequest, metadata: Any) -> engine_pb2.ActResponse:
        self.acts.append(request)
        return engine_pb2.ActResponse()


async def _until(out: io.StringIO, check: Callable[[str], bool]) -> str:
    for _ in range(600):
        if check(out.getvalue()):
            return out.getvalue()
        await asyncio.sleep(0.05)
    raise AssertionError(f"the screen never showed it:\n{out.getvalue()}")


async def test_the_table_goes_on_while_the_pika_question_waits() -> None:
    states = _my_window_opens()
    later = _until_my_turn(states[-1])
    engine, out = FakeEngine(), io.StringIO()
    typed: queue.Queue[str] = queue.Queue()
    client = TableClient(
        engine,  # type: ignore[arg-type]
        "T",
        lambda: (),
        RENDERER,
        ["You", "Bot 1"],
        lambda prompt: typed.get(timeout=60),
        out,
    )
    run = asyncio.create_task(client.run())
    version = len(states)
    await engine.views.put(_message(states[-1], version))
    await _until(out, lambda t: "One card left!" in t)

    # The player says nothing yet; the window closes, the other seat plays on.
    for n, state in enumerate(later, start=version + 1):
        await engine.views.put(_message(state, n))
    last = version + len(later)
    text = await _until(out, lambda t: "Your choice" in t)
    after = text.split("One card left!", 1)[1]
    assert "You forgot to call Pika and drew 2 cards." in after
    assert "--- Round 1 - your turn" in after

    # The late "1" answers the menu on screen, at the version it shows, not the question.
    typed.put("1")
    await _until(out, lambda t: bool(engine.acts))
    [act] = engine.acts
    menu = [a for a in GAME.legal_actions(later[-1], ME) if a.kind is not ActionKind.REORDER]
    assert act.expected_version == last
    assert act.action == action_to_proto(menu[0])
    assert act.action.kind != common_pb2.ACTION_KIND_CALL

    await engine.views.put(
        engine_pb2.TableView(
            table_id="T",
            version=last + 1,
            status=engine_pb2.TABLE_STATUS_FINISHED,
            seat=ME,
            public=dict_to_struct(GAME.view(later[-1], ME).public),
            outcome=common_pb2.Outcome(places=[2, 1], scores=[0, 0]),
        )
    )
    outcome = await asyncio.wait_for(run, 30)
    assert outcome is not None and outcome.places == (2, 1)
