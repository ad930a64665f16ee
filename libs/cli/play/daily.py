"""``tavolo play solitario --daily``: enter today's Duplicate Solitario and play it.

The lobby enters the caller (once a day: asked again, it hands back the same table) and
the engine deals their own table from the day's committed seed; the game is then played
at that table like any other (:func:`tavolo.cli.play.remote.join_table`). At the end the
day's leaderboard so far is printed: by score, then time, then moves. The seed, and each
table's log with it, opens when the day's competition closes.
"""

from __future__ import annotations

import argparse
import asyncio
import sys
from collections.abc import Callable
from typing import TextIO

import grpc

from tavolo.cli import session
from tavolo.cli.i18n import _
from tavolo.cli.play.remote import Token, join_table, refused, token_source
from tavolo.v1 import lobby_pb2, lobby_pb2_grpc

#: How long the standings wait for the player's own finished table to be counted.
RESULT_WAIT_SECONDS = 10.0


def play_daily(args: argparse.Namespace, input_line: Callable[[str], str | None] | None) -> int:
    """Entry from ``tavolo play solitario --daily``; the exit code."""
    nickname = getattr(args, "as_nick", None)
    try:
        _player, token = token_source(nickname)
        return asyncio.run(
            daily(
                session.address("lobby"),
                args.server or session.address("engine"),
                token,
                input_line,
            )
        )
    except session.NoSession as exc:
        print(exc, file=sys.stderr)
        return 2
    except grpc.RpcError as exc:
        print(f"tavolo play: {refused(exc)}", file=sys.stderr)
        return 2


async def daily(
    lobby: str,
    engine: str,
    token: Token,
    input_line: Callable[[str], str | None] | None,
    out: TextIO = sys.stdout,
) -> int:
    """Join today's competition, play its table, print the standings; 0 when played."""

    def metadata() -> tuple[tuple[str, str]]:
        current = token() if callable(token) else token
        return (("authorization", f"Bearer {current}"),)

    async with session.aio_channel(lobby) as channel:
        stub = lobby_pb2_grpc.LobbyStub(channel)
        entry = await stub.JoinDuplicate(
            lobby_pb2.JoinDuplicateRequest(daily=True), metadata=metadata()
        )
        d = entry.duplicate
        again = _("You entered earlier: your table again. ") if entry.rejoined else ""
        today = _(
            "Today's deal ({deal}, draw {draw}, {scoring} scoring) is the same for every "
            "entrant, committed to sha256(seed) = {commitment}; it is revealed when the "
            "competition closes at {closes} UTC."
        ).format(
            deal=d.duplicate_id,
            draw=_option(d, "draw"),
            scoring=_option(d, "scoring"),
            commitment=d.seed_commitment,
            closes=f"{d.closes_at.ToDatetime():%Y-%m-%d %H:%M}",
        )
        print(again + today, file=out)
        code = await join_table(engine, token, entry.table_id, "solitario", input_line, out)
        # The lobby learns the table's end from the engine's event, a moment after the
        # player sees it: wait for the player's own line rather than show them "playing".
        request = lobby_pb2.GetDuplicateStandingsRequest(duplicate_id=d.duplicate_id)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + RESULT_WAIT_SECONDS
        while True:
            standings = await stub.GetDuplicateStandings(request, metadata=metadata())
            if _placed(standings, entry.table_id) or loop.time() > deadline:
                break
            await asyncio.sleep(0.1)
    print_standings(standings, out)
    return code


def _placed(standings: lobby_pb2.DuplicateStandings, table_id: str) -> bool:
    return any(s.table_id == table_id and s.place for s in standings.standings)


def _option(d: lobby_pb2.Duplicate, name: str) -> str:
    value = d.options.fields[name]
    kind = value.WhichOneof("kind")
    return str(int(value.number_value)) if kind == "number_value" else value.string_value


def print_standings(standings: lobby_pb2.DuplicateStandings, out: TextIO) -> None:
    print(
        _("--- {deal}: score, then time, then moves").format(deal=standings.duplicate.duplicate_id),
        file=out,
    )
    for s in standings.standings:
        if s.place:
            line = _("{score} points {seconds} s {moves} moves  ({result})").format(
                score=f"{s.score:>6}",
                seconds=f"{s.millis / 1000:>8.1f}",
                moves=f"{s.moves:>4}",
                result=s.result,
            )
            print(f"{s.place:>3}. {s.nickname:<20} {line}", file=out)
        else:
            playing = _("playing")
            print(f"  -  {s.nickname:<20} {playing}", file=out)
