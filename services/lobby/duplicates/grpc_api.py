"""The Duplicate Solitario RPCs of the Lobby service: protobuf in, a use case, protobuf
out. ``LobbyServicer`` takes them in as a mixin, so the service stays one."""

from __future__ import annotations

from datetime import datetime
from typing import TYPE_CHECKING, Any

import grpc
from google.protobuf import json_format, struct_pb2

from tavolo.lobby.duplicates.competition import Competition
from tavolo.lobby.duplicates.ranking import Standing
from tavolo.servicekit.auth import caller
from tavolo.servicekit.timestamps import time_field
from tavolo.v1 import lobby_pb2

if TYPE_CHECKING:
    from tavolo.lobby.app import LobbyApp

Context = grpc.aio.ServicerContext[Any, Any]


def competition_out(c: Competition, now: datetime) -> lobby_pb2.Duplicate:
    options = struct_pb2.Struct()
    options.update(dict(c.spec.options))
    out = lobby_pb2.Duplicate(
        duplicate_id=c.duplicate_id,
        game=c.spec.game,
        options=options,
        seed_commitment=c.commitment,
        seed_hex=c.seed_shown(now).hex(),
        closed=c.closed(now),
    )
    out.opens_at.FromDatetime(c.opens_at)
    out.closes_at.FromDatetime(c.closes_at)
    return out


def standing_out(s: Standing) -> lobby_pb2.DuplicateStanding:
    e = s.entry
    return lobby_pb2.DuplicateStanding(
        place=s.place,
        player_id=e.player_id,
        nickname=e.nickname,
        score=e.score,
        millis=e.millis,
        moves=e.moves,
        result=e.result or "",
        table_id=e.table_id,
    )


class DuplicateRpcs:
    """CreateDuplicate, JoinDuplicate and GetDuplicateStandings."""

    app: LobbyApp

    async def CreateDuplicate(
        self, request: lobby_pb2.CreateDuplicateRequest, context: Context
    ) -> lobby_pb2.Duplicate:
        made = await self.app.duplicates.create(
            caller(),
            request.duplicate_id,
            json_format.MessageToDict(request.options),
            time_field(request, "opens_at"),
            time_field(request, "closes_at"),
        )
        return competition_out(made, self.app.ctx.clock())

    async def JoinDuplicate(
        self, request: lobby_pb2.JoinDuplicateRequest, context: Context
    ) -> lobby_pb2.DuplicateEntry:
        joined = await self.app.duplicates.join(caller(), request.duplicate_id, request.daily)
        return lobby_pb2.DuplicateEntry(
            duplicate=competition_out(joined.competition, self.app.ctx.clock()),
            table_id=joined.entry.table_id,
            rejoined=joined.rejoined,
        )

    async def GetDuplicateStandings(
        self, request: lobby_pb2.GetDuplicateStandingsRequest, context: Context
    ) -> lobby_pb2.DuplicateStandings:
        found, standings = await self.app.duplicates.standings(
            caller(), request.duplicate_id, request.daily
        )
        return lobby_pb2.DuplicateStandings(
            duplicate=competition_out(found, self.app.ctx.clock()),
            standings=[standing_out(s) for s in standings],
        )
