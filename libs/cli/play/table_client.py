"""A seat at a table over gRPC: the stream of views and the keyboard, at the same time.

The table does not wait for a person: bots move, turn clocks run out, Pika windows close.
So the client never blocks on the keyboard: it asks :mod:`tavolo.cli.play.keyboard` for a line
and goes on consuming the table's stream while the line comes; every new view is
narrated as it comes, and when it changes what the seat may do the menu and the prompt
are shown again, so an answer always reads against the choices on screen. Answers carry
the version they were given for (``expected_version``), so one typed just as the table
moved on is refused by the engine instead of applied to a state nobody saw.

A service restart is not the end of the game: when the stream or a call fails with
UNAVAILABLE the client says so, waits (1 s, 2 s, 4 s ... at most :data:`MAX_DELAY`) and
resumes the stream from the last version it showed, for up to :data:`GIVE_UP_AFTER`
seconds of outage.
"""

from __future__ import annotations

import asyncio
import time
import uuid
from collections.abc import Awaitable, Callable
from typing import Any, TextIO, TypeVar

import grpc

from tavolo.cardgames.actions import Action
from tavolo.cardgames.contract import Outcome, View
from tavolo.cli.i18n import _
from tavolo.cli.play.keyboard import Keyboard, TerminalKeyboard, ThreadKeyboard
from tavolo.cli.play.refusals import rpc_refusal_text
from tavolo.cli.play.renderers import (
    HandOrder,
    Renderer,
    amount_answer,
    amount_question,
    arranges_locally,
    choice_prompt,
    menu,
    new_recall,
    not_a_choice,
    not_an_amount,
    remember,
    table_options,
    typed_action,
    with_options,
)
from tavolo.cli.play.wording import fit
from tavolo.tablelog.convert import action_from_proto, action_to_proto, struct_to_dict
from tavolo.v1 import common_pb2, engine_pb2, engine_pb2_grpc

T = TypeVar("T")
Metadata = tuple[tuple[str, str], ...]

FIRST_DELAY = 1.0
MAX_DELAY = 8.0
GIVE_UP_AFTER = 120.0
"""Seconds of outage after which the client stops and says how to come back."""
RETRIED = (grpc.StatusCode.UNAVAILABLE,)


def view_of(message: engine_pb2.TableView) -> View:
    """The seat's view, with the table's options beside it as offline (see renderers)."""
    view = View(
        seat=message.seat if message.HasField("seat") else None,
        hand=tuple(message.hand),
        public=struct_to_dict(message.public, "public"),
        private=struct_to_dict(message.private, "private"),
    )
    given = struct_to_dict(message.options, "options")
    return with_options(view, table_options(message.game, given) if message.game else given)


class Resumed:
    """The stream is back after an outage."""


class Unreachable(Exception):
    """The engine stayed unreachable for longer than :data:`GIVE_UP_AFTER`."""


Item = engine_pb2.TableView | Resumed | BaseException | None
"""What the stream's task hands the loop: a view, news of a resumed stream, a failure,
or the end of the stream."""


class TableClient:
    """Follows the seat's views and answers when the seat has something to do."""

    def __init__(
        self,
        stub: engine_pb2_grpc.EngineAsyncStub,
        table_id: str,
        auth: Callable[[], Metadata],
        renderer: Renderer,
        names: list[str],
        input_line: Callable[[str], str | None] | None,
        out: TextIO,
    ) -> None:
        self.stub, self.table_id, self.auth = stub, table_id, auth
        self.renderer, self.names, self.out = renderer, names, out
        self.keyboard: Keyboard = (
            TerminalKeyboard() if input_line is None else ThreadKeyboard(input_line)
        )
        self.seen: View | None = None
        self.version = 0
        self.asking: engine_pb2.TableView | None = None
        """The view whose choices are on screen, while the seat has something to do."""
        self.answered = 0
        """The last version the player answered: its prompt is not shown again."""
        self.told_turn: str | None = None
        self.seen_version = 0
        self.on_prompt_line = False
        self.left = False
        self.aborted = False
        self.unreachable = False
        self.receipt = ""
        """The log hash the closing view hands every seat: the player's receipt (AUDIT-3)."""
        self.hand_order = HandOrder()
        self.recall = new_recall(renderer)
        self.amount_for: Action | None = None
        """The menu choice waiting for its amount ("another amount"), if one is."""

    # -- the loop ---------------------------------------------------------------------

    async def run(self) -> Outcome | None:
        views: asyncio.Queue[Item] = asyncio.Queue()
        watcher = asyncio.create_task(self._watch(views))
        try:
            while True:
                if self.asking is not None:
                    self.keyboard.line()  # a prompt is on screen: read its answer
                typed = self.keyboard.pending
                news = asyncio.ensure_future(views.get())
                waiting: set[asyncio.Future[Any]] = {news} if typed is None else {news, typed}
                await asyncio.wait(waiting, return_when=asyncio.FIRST_COMPLETED)
                answered = (
                    typed is None or not typed.done() or await self._answer(self.keyboard.take())
                )
                if not answered:  # the player quit
                    await self._leave()
                    return None
                if not news.done():
                    news.cancel()
                    continue
                item = news.result()
                if isinstance(item, Unreachable):
                    self.unreachable = True
                    return None
                if isinstance(item, BaseException):
                    raise item
                if item is None:
                    return None
                if isinstance(item, Resumed):
                    self._say(_("Back at table {table}.").format(table=self.table_id))
                    if self.asking is not None:
                        self._prompt(self.asking, self._view(self.asking), menu=False)
                    continue
                finished, outcome = self._show(item)
                if finished:
                    return outcome
        finally:
            watcher.cancel()
            self.keyboard.close()

    async def _watch(self, views: asyncio.Queue[Item]) -> None:
        """Put every view on ``views``, resuming after a lost connection; then ``None``."""
        try:
            outage: float | None = None
            delay = FIRST_DELAY
            while True:
                # From the last version shown, which comes again: a resumed stream then
                # starts at once even while the table waits for this seat.
                request = engine_pb2.WatchTableRequest(
                    table_id=self.table_id, after_version=max(self.version - 1, 0)
                )
                try:
                    async for message in self.stub.WatchTable(request, metadata=self.auth()):
                        if outage is not None:
                            await views.put(Resumed())
                            outage, delay = None, FIRST_DELAY
                        self.version = max(self.version, message.version)
                        await views.put(message)
                        if message.status != engine_pb2.TABLE_STATUS_PLAYING:
                            return
                    problem = _("the engine closed the table's stream")
                except grpc.aio.AioRpcError as exc:
                    if exc.code() not in RETRIED:
                        await views.put(exc)
                        return
                    problem = _("the engine is not reachable")
                now = time.monotonic()
                outage = now if outage is None else outage
                if now - outage > GIVE_UP_AFTER:
                    await views.put(Unreachable(problem))
                    return
                self._say(
                    "  "
                    + _("({problem}; trying again in {delay} s)").format(
                        problem=problem, delay=f"{delay:.0f}"
                    )
                )
                await asyncio.sleep(delay)
                delay = min(delay * 2, MAX_DELAY)
        except asyncio.CancelledError:
            raise
        except BaseException as exc:  # handed to the loop, which raises it
            await views.put(exc)

    def _show(self, message: engine_pb2.TableView) -> tuple[bool, Outcome | None]:
        """Narrate a view; (the game is over, its outcome)."""
        if self.seen is not None and message.version <= self.seen_version:
            return False, None  # a resumed stream may repeat the view on screen
        view = self._view(message)
        for line in self.renderer.news(self.seen, view, self.names):
            self._say(line)
        self.seen, self.seen_version = view, message.version
        if message.status == engine_pb2.TABLE_STATUS_ABORTED:
            self.aborted = True
            return True, None
        self.receipt = message.log_hash or self.receipt
        if message.status != engine_pb2.TABLE_STATUS_PLAYING:
            outcome = Outcome(tuple(message.outcome.places), tuple(message.outcome.scores))
            self._say(self.renderer.outcome(outcome, view, self.names))
            return True, outcome
        if message.legal_actions and message.version > self.answered:
            self.asking, self.told_turn, self.amount_for = message, None, None
            self._prompt(message, view, menu=True)
        else:
            self.asking = None
            turn = self.renderer.turn(view, self.names)
            if turn and turn != self.told_turn:
                self._say(turn)
            self.told_turn = turn
        return False, None

    # -- the player's answers ---------------------------------------------------------

    def _is_call(self, message: engine_pb2.TableView) -> bool:
        """Only a call is open (Pika!): the seat may speak out of turn."""
        return message.seat not in message.to_act

    def _prompt(self, message: engine_pb2.TableView, view: View, *, menu: bool) -> None:
        if self._is_call(message):
            question = self.renderer.call_prompt(view) or _("Call? (1 = yes) ")
            self._say(question, end="")
            return
        if menu:
            self.amount_for = None
            self._say(self.renderer.table(view, self.names))
            for n, (label, _action) in enumerate(self._choices(message, view), 1):
                self._say(f"  {n}) {label}")
        amount = None
        if self.amount_for is not None:
            amount = amount_question(self.renderer, view, self.amount_for)
        self._say(amount or choice_prompt(self.renderer, view), end="")

    def _view(self, message: engine_pb2.TableView) -> View:
        """The seat's view with the hand in the player's own order, where kept here."""
        return self.hand_order.apply(view_of(message))

    def _choices(self, message: engine_pb2.TableView, view: View) -> list[tuple[str, Action]]:
        """The numbered menu (the same as offline: see :func:`renderers.menu`)."""
        legal = [action_from_proto(a) for a in message.legal_actions]
        return menu(self.renderer, view, legal, self.recall)

    async def _answer(self, line: str | None) -> bool:
        """Act on a typed line against the choices on screen; False when the player leaves."""
        self.on_prompt_line = False  # the player's Enter ended the prompt's line
        if line is None or line.strip().lower() in ("q", "quit", _("quit")):
            return False
        message = self.asking
        if message is None:
            self._say(
                "  " + _("(nothing to answer now: '{text}' is not used)").format(text=line.strip())
            )
            return True
        text = line.strip()
        if self._is_call(message):
            self.asking, self.answered = None, message.version
            if text == "1":
                await self._act(message, message.legal_actions[0], check_version=False)
            else:
                self._say("  " + _("You kept quiet."))
            return True
        view = self._view(message)
        choices = self._choices(message, view)
        chosen = None
        if self.amount_for is not None:
            return await self._answer_amount(message, view, self.amount_for, text)
        if text.isdigit() and 1 <= int(text) <= len(choices):
            chosen = choices[int(text) - 1][1]
            if amount_question(self.renderer, view, chosen) is not None:
                self.amount_for = chosen  # "another amount": ask for it
                self._prompt(message, view, menu=False)
                return True
        else:
            legal = [action_from_proto(a) for a in message.legal_actions]
            chosen = typed_action(self.renderer, view, legal, text)
        if chosen is not None:
            self.asking, self.answered = None, message.version
            legal = [action_from_proto(a) for a in message.legal_actions]
            remember(self.recall, view, legal, chosen)
            await self._act(message, action_to_proto(chosen), check_version=True)
            return True
        order = self.renderer.reorder(view, text) if len(view.hand) > 1 else None
        if order is not None and arranges_locally(self.renderer):
            self.hand_order.order = order
            self._prompt(message, self._view(message), menu=True)
            return True
        if order is not None:
            reply = await self._retrying(
                lambda request_id: self.stub.ReorderHand(
                    engine_pb2.ReorderHandRequest(
                        table_id=self.table_id, cards=list(order), request_id=request_id
                    ),
                    metadata=self.auth(),
                )
            )
            if reply is not None:
                self._say(self.renderer.table(view_of(reply.view), self.names))
            self._prompt(message, self._view(message), menu=False)
            return True
        self._say(not_a_choice(self.renderer, view, text, len(choices)))
        self._prompt(message, view, menu=False)
        return True

    async def _answer_amount(
        self, message: engine_pb2.TableView, view: View, choice: Action, text: str
    ) -> bool:
        """The answer to "how many chips?": the action, the menu again on Enter, or the
        question again after a number that is no legal amount."""
        if not text:
            self._prompt(message, view, menu=True)
            return True
        legal = [action_from_proto(a) for a in message.legal_actions]
        chosen = amount_answer(self.renderer, view, legal, choice, text)
        if chosen is None:
            self._say(not_an_amount(text, choice, legal))
            self._prompt(message, view, menu=False)
            return True
        self.asking, self.answered, self.amount_for = None, message.version, None
        remember(self.recall, view, legal, chosen)
        await self._act(message, action_to_proto(chosen), check_version=True)
        return True

    async def _act(
        self, message: engine_pb2.TableView, action: common_pb2.Action, *, check_version: bool
    ) -> None:
        expected = message.version if check_version else 0
        await self._retrying(
            lambda request_id: self.stub.Act(
                engine_pb2.ActRequest(
                    table_id=self.table_id,
                    action=action,
                    request_id=request_id,
                    expected_version=expected,
                ),
                metadata=self.auth(),
            )
        )

    async def _retrying(self, call: Callable[[str], Awaitable[T]]) -> T | None:
        """The call's reply, retried with one request id while the engine is unreachable
        (the engine applies a request id once); None when the engine refused it."""
        request_id = uuid.uuid4().hex
        delay, started = FIRST_DELAY, time.monotonic()
        while True:
            try:
                return await call(request_id)
            except grpc.aio.AioRpcError as exc:
                if exc.code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED):
                    self._say(f"  {rpc_refusal_text(exc)}")
                    return None
                if exc.code() not in RETRIED or time.monotonic() - started > GIVE_UP_AFTER:
                    raise
            self._say(
                "  "
                + _("(the engine is not reachable; sending again in {delay} s)").format(
                    delay=f"{delay:.0f}"
                )
            )
            await asyncio.sleep(delay)
            delay = min(delay * 2, MAX_DELAY)

    async def _leave(self) -> None:
        await self._retrying(
            lambda request_id: self.stub.LeaveTable(
                engine_pb2.LeaveTableRequest(table_id=self.table_id), metadata=self.auth()
            )
        )
        self.left = True

    def _say(self, text: str, end: str = "\n") -> None:
        """Print a line; one that follows a prompt starts below it, not after it."""
        if self.on_prompt_line:
            print(file=self.out)
        print(fit(text), file=self.out, end=end, flush=True)
        self.on_prompt_line = end == ""
