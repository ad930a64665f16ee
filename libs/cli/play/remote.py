"""``tavolo play GAME --server``: the same terminal game, played at the engine over gRPC.

The engine deals, runs the bots and the timers, and keeps the log; this client only
shows the seat's views as they stream in (WatchTable) and sends the player's choices
(Act, ReorderHand). At the end it prints the table id to check with
``tavolo audit verify``.

Two ways to sit down:

- ``--server`` alone opens a new versus-computer table (MODE-1) with the caller at seat 0;
- ``--table ID`` joins a table the lobby formed (a room's, MODE-2, or a matchmade one):
  the caller's seat and the other players come from the table's own view, so the same
  command works for the host and for every invited friend.

The login comes from ``tavolo account login`` (``--as NICK`` picks one of several); the
client never signs a token of its own.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
import time
from collections.abc import Callable
from typing import Any, TextIO

import grpc
from google.protobuf import struct_pb2

from tavolo.cardgames.contract import Outcome
from tavolo.cli import session
from tavolo.cli.i18n import _
from tavolo.cli.play.refusals import rpc_refusal_text
from tavolo.cli.play.renderers import (
    bot_levels,
    bot_name,
    game_title,
    lineup,
    partnerships,
    renderer_for,
    sides_line,
)
from tavolo.cli.play.table_client import TableClient
from tavolo.cli.play.table_options import parse_options
from tavolo.cli.play.wording import fit, you
from tavolo.servicekit.error_details import refusal_from_error
from tavolo.servicekit.settings import DEFAULT_GRPC_PORTS
from tavolo.tablelog.convert import struct_to_dict
from tavolo.v1 import common_pb2, engine_pb2, engine_pb2_grpc

DEFAULT_SERVER = f"127.0.0.1:{DEFAULT_GRPC_PORTS['engine']}"
LEVELS = {
    "easy": common_pb2.BOT_LEVEL_EASY,
    "medium": common_pb2.BOT_LEVEL_MEDIUM,
    "hard": common_pb2.BOT_LEVEL_HARD,
}
LEVEL_NAMES = {value: name for name, value in LEVELS.items()}
BOT_THINK_MILLIS = 700
Token = str | Callable[[], str]
"""A session token, or where to read the current one."""
Metadata = tuple[tuple[str, str], ...]
DEAL_WAIT_SECONDS = 20.0
"""How long ``--table`` waits for a table the engine does not know yet: a room's table is
dealt a moment after ``tavolo room start`` answers (the lobby sends it as an event)."""


def token_source(nickname: str | None) -> tuple[str, Token]:
    """(player id, the token to send now): the saved login (NoSession, saying how to log
    in, when there is none), read again at each call, so a game longer than an access
    token's life goes on with a renewed one."""
    saved = session.load(nickname)
    name = saved.nickname
    return saved.player_id, lambda: session.load(name).access_token


def play_remote(args: argparse.Namespace, input_line: Callable[[str], str | None] | None) -> int:
    """Entry from ``tavolo play ... --server`` or ``--table``; the exit code. Lines come
    from ``input_line``, or with ``None`` from the terminal itself."""
    server = args.server or session.address("engine")
    nickname = getattr(args, "as_nick", None)
    table_id = getattr(args, "table", None)
    try:
        player, token = token_source(nickname)
        login = _login_name(nickname)
        if table_id:
            return asyncio.run(
                join_table(server, token, table_id, args.game, input_line, nickname=login)
            )
        return asyncio.run(
            play_at_server(
                server,
                token,
                player,
                args.game,
                args.players,
                args.level,
                input_line,
                nickname=login,
                partner=getattr(args, "partner", None),
                options=parse_options(getattr(args, "options", [])),
            )
        )
    except session.NoSession as exc:
        print(exc, file=sys.stderr)
        return 2
    except grpc.RpcError as exc:
        print(f"tavolo play: {refused(exc)}", file=sys.stderr)
        return 2


def refused(error: grpc.RpcError) -> str:
    """A refused call in the client's words (its reason and metadata), with the reason
    itself for scripts and bug reports; an outage as :func:`session.rpc_error_text` says it."""
    refusal = refusal_from_error(error)
    if refusal is None or not isinstance(error, grpc.Call | grpc.aio.AioRpcError):
        return session.rpc_error_text(error)
    if error.code() is grpc.StatusCode.UNAVAILABLE:
        return session.rpc_error_text(error)
    return f"{rpc_refusal_text(error)} ({error.code().name}) [{refusal.reason}]"


def _auth(token: Token) -> Callable[[], Metadata]:
    """The call metadata, built afresh for every call from the token as it is then."""

    def metadata() -> Metadata:
        current = token() if callable(token) else token
        return (("authorization", f"Bearer {current}"),)

    return metadata


async def play_at_server(
    server: str,
    token: Token,
    player: str,
    game: str,
    players: int,
    level: str,
    input_line: Callable[[str], str | None] | None,
    out: TextIO = sys.stdout,
    bot_think_millis: int = BOT_THINK_MILLIS,
    turn_seconds: int = 0,
    nickname: str | None = None,
    partner: str | None = None,
    options: dict[str, Any] | None = None,
) -> int:
    """Open a versus-computer table and play it to its end; 0 when finished, 1 if quit."""
    renderer = renderer_for(game)
    auth = _auth(token)
    levels = bot_levels(game, players, level, partner, options)
    table_options = struct_pb2.Struct()
    table_options.update(options or {})
    seats = [common_pb2.Seat(seat=0, player_id=player, nickname=player)] + [
        common_pb2.Seat(seat=s, bot=True, bot_level=LEVELS[levels[s]]) for s in range(1, players)
    ]
    names = [you(), *(bot_name(s, levels[s]) for s in range(1, players))]
    async with session.aio_channel(server) as channel:
        stub = engine_pb2_grpc.EngineStub(channel)
        opened = await stub.OpenTable(
            engine_pb2.OpenTableRequest(
                game=game,
                options=table_options,
                seats=seats,
                mode=common_pb2.MODE_VERSUS_COMPUTER,
                bot_think_millis=bot_think_millis,
                turn_seconds=turn_seconds,
            ),
            metadata=auth(),
        )
        table_id = opened.table_id
        who = lineup(game, players, level, partner, options)
        print(
            fit(
                _("Table {table} at {server}: {who}.").format(
                    table=table_id, server=server, who=who
                )
            ),
            file=out,
        )
        print(
            fit(
                _("The deal is committed to sha256(seed) = {commitment}").format(
                    commitment=opened.seed_commitment
                )
            ),
            file=out,
        )
        client = TableClient(stub, table_id, auth, renderer, names, input_line, out)
        outcome = await client.run()
    return _ending(client, outcome, table_id, game, nickname, out)


async def join_table(
    server: str,
    token: Token,
    table_id: str,
    game: str,
    input_line: Callable[[str], str | None] | None,
    out: TextIO = sys.stdout,
    wait_seconds: float = DEAL_WAIT_SECONDS,
    nickname: str | None = None,
) -> int:
    """Sit at the caller's seat of a table the lobby formed and play it to its end.

    0 when finished, 1 if the player quit or the stream stopped, 2 when the table is not
    one the caller can play as asked."""
    auth = _auth(token)
    async with session.aio_channel(server) as channel:
        stub = engine_pb2_grpc.EngineStub(channel)
        first = await _current_view(stub, table_id, auth, out, wait_seconds)
        if first.game != game:
            print(
                _("table {table} is a {actual} table, not {game}: {command}").format(
                    table=table_id,
                    actual=first.game,
                    game=game,
                    command=f"`tavolo play {first.game} --table {table_id}`",
                ),
                file=out,
            )
            return 2
        if not first.HasField("seat"):
            print(
                _("you have no seat at table {table}: only its players play it").format(
                    table=table_id
                ),
                file=out,
            )
            return 2
        names = seat_names(first)
        others = ", ".join(n for s, n in enumerate(names) if s != first.seat)
        sides = partnerships(game, len(names), struct_to_dict(first.options, "options"))
        if sides:
            company = sides_line(sides, names, first.seat)
        else:
            company = _("with {others}").format(others=others)
        print(_("Table {table} at {server}:").format(table=table_id, server=server), file=out)
        print(
            fit(
                _("{title}: you are seat {seat}, {company}.").format(
                    title=game_title(game), seat=first.seat, company=company
                )
            ),
            file=out,
        )
        client = TableClient(stub, table_id, auth, renderer_for(game), names, input_line, out)
        outcome = await client.run()
    return _ending(client, outcome, table_id, game, nickname, out)


async def _current_view(
    stub: engine_pb2_grpc.EngineAsyncStub,
    table_id: str,
    auth: Callable[[], Metadata],
    out: TextIO,
    wait_seconds: float,
) -> engine_pb2.TableView:
    """The caller's view of the table, waiting a while for one not dealt yet."""
    deadline = time.monotonic() + wait_seconds
    told = False
    while True:
        try:
            request = engine_pb2.GetTableRequest(table_id=table_id)
            return await stub.GetTable(request, metadata=auth())
        except grpc.aio.AioRpcError as exc:
            if exc.code() != grpc.StatusCode.NOT_FOUND or time.monotonic() > deadline:
                raise
        if not told:
            print(
                _("Table {table} is not dealt yet; waiting {seconds} s for it...").format(
                    table=table_id, seconds=f"{wait_seconds:.0f}"
                ),
                file=out,
            )
            told = True
        await asyncio.sleep(0.5)


# How the lobby names a bot playing for an absent tournament entrant: "Carla (bot)".
STAND_IN = " (bot)"


def seat_names(view: engine_pb2.TableView) -> list[str]:
    """How the table's seats are called in the narration: "You", nicknames, bots."""
    names = []
    for seat in sorted(view.seats, key=lambda s: s.seat):
        if view.HasField("seat") and seat.seat == view.seat:
            names.append(you())
        elif seat.bot and seat.nickname.endswith(STAND_IN):  # plays for a no-show entrant
            names.append(seat.nickname)
        elif seat.bot:
            names.append(bot_name(seat.seat, LEVEL_NAMES.get(seat.bot_level, "bot")))
        else:
            names.append(seat.nickname or _("Seat {seat}").format(seat=seat.seat))
    return names


def _login_name(nickname: str | None) -> str | None:
    """The saved login that plays, named in the commands printed for later."""
    try:
        return session.load(nickname).nickname
    except session.NoSession:
        return None


def _ending(
    client: TableClient,
    outcome: Outcome | None,
    table_id: str,
    game: str,
    nickname: str | None,
    out: TextIO,
) -> int:
    login = f" --as {nickname}" if nickname else ""
    if outcome is not None:
        if client.receipt:
            # The hash and the command stand on lines of their own, whole, to be copied.
            print(_("Your receipt, the hash of the log as the table ended:"), file=out)
            print(f"  {client.receipt}", file=out)
            print(
                _("Check this game, and that the stored log is the one you were given:"),
                file=out,
            )
            print(f"  tavolo audit verify --receipt {client.receipt} {table_id}{login}", file=out)
        else:
            print(_("Check this game yourself:"), file=out)
            print(f"  tavolo audit verify {table_id}{login}", file=out)
        return 0
    if client.left:
        print(_("You left table {table}; a bot plays your seat.").format(table=table_id), file=out)
    elif client.aborted:
        print(
            _("Table {table} was called off: no result, no rewards.").format(table=table_id),
            file=out,
        )
    else:
        if client.unreachable:
            why = _("The engine is not reachable at table {table}; {command} picks it up again.")
        else:
            why = _("The engine stopped sending table {table}; {command} picks it up again.")
        command = f"`tavolo play {game} --table {table_id}{login}`"
        print(why.format(table=table_id, command=command), file=out)
    return 1
