"""``tavolo play GAME --server``: the same terminal game, played at the engine over gRPC.

The engine deals, runs the bots and the timers, and keeps the log; this client only
shows the seat's views as they stream in (WatchTable) and sends the player's choices
(Act, ReorderHand). At the end it prints the table id to check with
``tavolo audit verify``. The session comes from ``tavolo account login`` when there is
one, else a development token signed with ``$TAVOLO_TOKEN_SECRET`` (until the lobby runs).
"""

from __future__ import annotations

import argparse
import asyncio
import os
import sys
import uuid
from collections.abc import Callable, Sequence
from typing import TextIO

import grpc

from tavolo.cardgames.contract import Outcome, View
from tavolo.cli import session
from tavolo.cli.play import Renderer, renderer_for
from tavolo.engine.convert import action_from_proto, struct_to_dict
from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.servicekit.settings import DEFAULT_GRPC_PORTS, DEV_TOKEN_SECRET
from tavolo.v1 import common_pb2, engine_pb2, engine_pb2_grpc

DEFAULT_SERVER = f"127.0.0.1:{DEFAULT_GRPC_PORTS['engine']}"
LEVELS = {
    "easy": common_pb2.BOT_LEVEL_EASY,
    "medium": common_pb2.BOT_LEVEL_MEDIUM,
    "hard": common_pb2.BOT_LEVEL_HARD,
}
BOT_THINK_MILLIS = 700


def credentials(nickname: str | None = None) -> tuple[str, str]:
    """(player id, access token): the saved login, else a development token."""
    try:
        saved = session.load(nickname)
        return saved.player_id, saved.access_token
    except session.NoSession:
        player = nickname or f"guest-{uuid.uuid4().hex[:8]}"
        signer = TokenSigner(os.environ.get("TAVOLO_TOKEN_SECRET", DEV_TOKEN_SECRET))
        token, _ = signer.issue(player, (Role.PLAYER,), nickname=player)
        return player, token


def play_remote(args: argparse.Namespace, input_line: Callable[[str], str | None]) -> int:
    """Entry from ``tavolo play ... --server``; the exit code."""
    player, token = credentials(getattr(args, "as_nick", None))
    try:
        return asyncio.run(
            play_at_server(
                args.server, token, player, args.game, args.players, args.level, input_line
            )
        )
    except grpc.RpcError as exc:
        print(f"the engine refused: {exc.details()}", file=sys.stderr)
        return 2


def _view(message: engine_pb2.TableView) -> View:
    return View(
        seat=message.seat if message.HasField("seat") else None,
        hand=tuple(message.hand),
        public=struct_to_dict(message.public, "public"),
        private=struct_to_dict(message.private, "private"),
    )


async def play_at_server(
    server: str,
    token: str,
    player: str,
    game: str,
    players: int,
    level: str,
    input_line: Callable[[str], str | None],
    out: TextIO = sys.stdout,
    bot_think_millis: int = BOT_THINK_MILLIS,
) -> int:
    """Open a versus-computer table and play it to its end; 0 when finished, 1 if quit."""
    renderer = renderer_for(game)
    metadata = (("authorization", f"Bearer {token}"),)
    seats = [common_pb2.Seat(seat=0, player_id=player, nickname=player)] + [
        common_pb2.Seat(seat=s, bot=True, bot_level=LEVELS[level]) for s in range(1, players)
    ]
    names = ["You", *(f"Bot {s} ({level})" for s in range(1, players))]
    async with grpc.aio.insecure_channel(server) as channel:
        stub = engine_pb2_grpc.EngineStub(channel)
        opened = await stub.OpenTable(
            engine_pb2.OpenTableRequest(
                game=game,
                seats=seats,
                mode=common_pb2.MODE_VERSUS_COMPUTER,
                bot_think_millis=bot_think_millis,
            ),
            metadata=metadata,
        )
        table_id = opened.table_id
        print(f"Table {table_id} at {server}: you against {players - 1} {level} bots.", file=out)
        print(f"The deal is committed to sha256(seed) = {opened.seed_commitment}", file=out)
        client = _Client(stub, table_id, metadata, renderer, names, input_line, out)
        outcome = await client.run()
    if outcome is None:
        print(f"You left table {table_id}; a bot plays your seat.", file=out)
        return 1
    print(f"Check this game yourself: tavolo audit verify {table_id}", file=out)
    return 0


class _Client:
    """Follows the seat's views and answers when the seat has something to do."""

    def __init__(
        self,
        stub: engine_pb2_grpc.EngineAsyncStub,
        table_id: str,
        metadata: Sequence[tuple[str, str]],
        renderer: Renderer,
        names: list[str],
        input_line: Callable[[str], str | None],
        out: TextIO,
    ) -> None:
        self.stub, self.table_id, self.metadata = stub, table_id, tuple(metadata)
        self.renderer, self.names = renderer, names
        self.input_line, self.out = input_line, out
        self.seen: View | None = None
        self.acted = 0

    async def run(self) -> Outcome | None:
        request = engine_pb2.WatchTableRequest(table_id=self.table_id)
        async for message in self.stub.WatchTable(request, metadata=self.metadata):
            view = _view(message)
            for line in self.renderer.news(self.seen, view, self.names):
                print(line, file=self.out)
            self.seen = view
            if message.status != engine_pb2.TABLE_STATUS_PLAYING:
                outcome = Outcome(tuple(message.outcome.places), tuple(message.outcome.scores))
                print(self.renderer.outcome(outcome, view, self.names), file=self.out)
                return outcome
            if message.version < self.acted or not message.legal_actions:
                continue
            if not await self._answer(message, view):
                await self.stub.LeaveTable(
                    engine_pb2.LeaveTableRequest(table_id=self.table_id), metadata=self.metadata
                )
                return None
        return None

    async def _answer(self, message: engine_pb2.TableView, view: View) -> bool:
        legal = [action_from_proto(a) for a in message.legal_actions]
        if message.seat not in message.to_act:  # only a call is open (Pika!)
            question = self.renderer.call_prompt(view)
            answer = await asyncio.to_thread(self.input_line, question or "Call? (1 = yes) ")
            if answer is None:
                return False
            if answer.strip() == "1":
                await self._act(message, message.legal_actions[0])
            return True
        print(self.renderer.table(view, self.names), file=self.out)
        for n, action in enumerate(legal, 1):
            print(f"  {n}) {self.renderer.choice(action, view)}", file=self.out)
        while True:
            line = await asyncio.to_thread(
                self.input_line, "Your choice (number; 'sort', 'move I J', 'quit'): "
            )
            if line is None or line.strip().lower() in ("q", "quit"):
                return False
            text = line.strip()
            if text.isdigit() and 1 <= int(text) <= len(legal):
                await self._act(message, message.legal_actions[int(text) - 1])
                return True
            order = self.renderer.reorder(view, text)
            if order is not None:
                reply = await self.stub.ReorderHand(
                    engine_pb2.ReorderHandRequest(
                        table_id=self.table_id, cards=list(order), request_id=uuid.uuid4().hex
                    ),
                    metadata=self.metadata,
                )
                view = _view(reply.view)
                print(self.renderer.table(view, self.names), file=self.out)
                continue
            print(f"  '{text}' is not a choice: type 1 to {len(legal)}", file=self.out)

    async def _act(self, message: engine_pb2.TableView, action: common_pb2.Action) -> None:
        try:
            reply = await self.stub.Act(
                engine_pb2.ActRequest(
                    table_id=self.table_id,
                    action=action,
                    request_id=uuid.uuid4().hex,
                ),
                metadata=self.metadata,
            )
        except grpc.aio.AioRpcError as exc:
            if exc.code() in (grpc.StatusCode.FAILED_PRECONDITION, grpc.StatusCode.ABORTED):
                print(f"  {exc.details()}", file=self.out)
                return
            raise
        self.acted = reply.view.version
