"""NATS events the engine reacts to: ``MatchFormed`` opens the table the lobby formed.

Opening is idempotent by table id (= match id): a redelivered MatchFormed finds the table
open with the same setup and changes nothing. The handled message id is also recorded
(``tavolo.messaging.IdempotentHandler``). A match the engine cannot open (an unknown
game, impossible seats) is logged and dropped rather than retried for ever.
"""

from __future__ import annotations

from typing import Any

import structlog
from google.protobuf import json_format
from nats.aio.msg import Msg

from tavolo.engine.app import EngineApp
from tavolo.servicekit.errors import InvalidArgument
from tavolo.tablelog.convert import mode_name, seat_from_proto
from tavolo.tablelog.setup import build_setup, normalise_json, split_engine_options
from tavolo.v1 import events_pb2

log = structlog.get_logger("tavolo.engine.consumers")


class MatchFormedHandler:
    """The effect of a MatchFormed: open its table."""

    def __init__(self, app: EngineApp) -> None:
        self._app = app

    async def __call__(self, _conn: Any, msg: Msg) -> None:
        event = events_pb2.MatchFormed.FromString(msg.data)
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
            log.error("match cannot be opened; dropped", match_id=event.match_id, reason=str(exc))
            return
        log.info("table opened from match", table_id=event.match_id, game=event.game)
