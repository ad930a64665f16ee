"""NATS events the engine reacts to: ``MatchFormed`` opens the table the lobby formed.

Opening is idempotent by table id (= match id): a redelivered MatchFormed finds the table
open with the same setup and changes nothing. The handled message id is also recorded
(``tavolo.messaging.IdempotentHandler``). A match the engine cannot open (an unknown
game, impossible seats) is aborted: a ``TableAborted`` is recorded in the same
transaction as the handled id, so the wallet refunds its stakes and the lobby frees its
players, instead of holds that wait for a table that never comes. An event that cannot
even be read is ``Unprocessable``: dead-lettered for operators.
"""

from __future__ import annotations

from typing import Any

import structlog
from google.protobuf import json_format
from google.protobuf.message import DecodeError
from nats.aio.msg import Msg

from tavolo.engine.app import EngineApp
from tavolo.messaging import Unprocessable
from tavolo.servicekit.errors import InvalidArgument
from tavolo.tablelog.convert import MODE_NAMES, mode_name, seat_from_proto
from tavolo.tablelog.setup import build_setup, normalise_json, split_engine_options
from tavolo.tablelog.table import refused_match
from tavolo.v1 import events_pb2

log = structlog.get_logger("tavolo.engine.consumers")


class MatchFormedHandler:
    """The effect of a MatchFormed: open its table, or abort a match that cannot be."""

    def __init__(self, app: EngineApp) -> None:
        self._app = app

    async def __call__(self, conn: Any, msg: Msg) -> None:
        try:
            event = events_pb2.MatchFormed.FromString(msg.data)
        except DecodeError as exc:
            raise Unprocessable(f"MatchFormed cannot be decoded: {exc}") from exc
        if not event.match_id:
            raise Unprocessable("MatchFormed names no match")
        try:
            options = normalise_json(json_format.MessageToDict(event.options), "options")
            game_options, turn_seconds, think = split_engine_options(options)
            setup = build_setup(
                table_id=event.match_id,
                game=event.game,
                options=game_options,
                seats=[seat_from_proto(s) for s in event.seats],
                mode=mode_name(event.mode),
                stake=event.stake,
                bot_filled=event.bot_filled,
                turn_seconds=turn_seconds,
                bot_think_millis=think,
            )
            await self._app.open_setup(setup)
        except InvalidArgument as exc:
            await self._refuse(conn, event, str(exc))
            return
        log.info("table opened from match", table_id=event.match_id, game=event.game)

    async def _refuse(self, conn: Any, event: events_pb2.MatchFormed, reason: str) -> None:
        why = f"the engine cannot open this table: {reason}"
        aborted = refused_match(
            event.match_id,
            event.game,
            MODE_NAMES.get(event.mode, ""),
            [seat_from_proto(s) for s in event.seats],
            event.stake,
            why,
        )
        if await self._app.refuse_match(conn, event.match_id, aborted):
            log.error("match cannot be opened; aborted", match_id=event.match_id, reason=reason)
