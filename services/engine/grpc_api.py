"""The ``tavolo.v1.Engine`` servicer: protobuf in, use case, protobuf out.

Nothing is decided here; errors raised by the use cases are mapped to status codes by the
shared interceptor (and the rules' errors by the table in ``bootstrap``).
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator
from typing import Any

import grpc

from tavolo.cardgames import Action, ActionKind
from tavolo.engine.app import EngineApp
from tavolo.servicekit.auth import caller
from tavolo.servicekit.errors import InvalidArgument
from tavolo.servicekit.grpc_server import GrpcService
from tavolo.servicekit.timestamps import time_field
from tavolo.tablelog.convert import (
    LEVEL_VALUES,
    STATUS_VALUES,
    ViewEncoder,
    action_from_proto,
    index_to_proto,
    logged_event_to_proto,
    mode_name,
    seat_from_proto,
    struct_to_dict,
)
from tavolo.tablelog.setup import build_setup
from tavolo.v1 import engine_pb2, engine_pb2_grpc

Context = grpc.aio.ServicerContext[Any, Any]


def sealed_until(request: engine_pb2.OpenTableRequest) -> str:
    """The request's log seal as ISO text; empty when it sets none."""
    sealed = time_field(request, "log_sealed_until")
    return sealed.isoformat() if sealed is not None else ""


def _table_id(value: str) -> str:
    if not value:
        raise InvalidArgument(
            "table_id is required", reason="FIELD_REQUIRED", metadata={"field": "table_id"}
        )
    return value


class EngineServicer(engine_pb2_grpc.EngineServicer):
    """Thin translation over :class:`EngineApp`."""

    def __init__(self, app: EngineApp) -> None:
        self._app = app
        self._views = ViewEncoder()

    async def OpenTable(
        self, request: engine_pb2.OpenTableRequest, context: Context
    ) -> engine_pb2.OpenTableResponse:
        setup = build_setup(
            table_id=request.table_id or str(uuid.uuid4()),  # the lobby's form too
            game=request.game,
            options=struct_to_dict(request.options, "options"),
            seats=[seat_from_proto(s) for s in request.seats],
            mode=mode_name(request.mode),
            stake=request.stake,
            bot_filled=request.bot_filled,
            turn_seconds=request.turn_seconds,
            bot_think_millis=request.bot_think_millis,
            ko=request.ko,
            sealed_until=sealed_until(request),
        )
        table = await self._app.open_table(caller(), setup, request.deal_seed)
        return engine_pb2.OpenTableResponse(
            table_id=table.table_id, seed_commitment=table.commitment
        )

    async def GetTable(
        self, request: engine_pb2.GetTableRequest, context: Context
    ) -> engine_pb2.TableView:
        view = await self._app.get_view(caller(), _table_id(request.table_id))
        return self._views.encode(view)

    async def WatchTable(
        self, request: engine_pb2.WatchTableRequest, context: Context
    ) -> AsyncIterator[engine_pb2.TableView]:
        views = self._app.watch(caller(), _table_id(request.table_id), request.after_version)
        async for view in views:
            yield self._views.encode(view)

    async def Act(self, request: engine_pb2.ActRequest, context: Context) -> engine_pb2.ActResponse:
        if not request.HasField("action"):
            raise InvalidArgument(
                "an action is required", reason="FIELD_REQUIRED", metadata={"field": "action"}
            )
        view = await self._app.act(
            caller(),
            _table_id(request.table_id),
            action_from_proto(request.action),
            expected_version=request.expected_version,
            request_id=request.request_id,
            seat=request.seat if request.HasField("seat") else None,
        )
        return engine_pb2.ActResponse(view=self._views.encode(view))

    async def ReorderHand(
        self, request: engine_pb2.ReorderHandRequest, context: Context
    ) -> engine_pb2.ActResponse:
        view = await self._app.act(
            caller(),
            _table_id(request.table_id),
            Action(ActionKind.REORDER, cards=tuple(request.cards)),
            request_id=request.request_id,
        )
        return engine_pb2.ActResponse(view=self._views.encode(view))

    async def LeaveTable(
        self, request: engine_pb2.LeaveTableRequest, context: Context
    ) -> engine_pb2.LeaveTableResponse:
        level = await self._app.leave(caller(), _table_id(request.table_id))
        return engine_pb2.LeaveTableResponse(replaced_by=LEVEL_VALUES[level])

    async def GetTableLog(
        self, request: engine_pb2.GetTableLogRequest, context: Context
    ) -> engine_pb2.GetTableLogResponse:
        table_id = _table_id(request.table_id)
        events, (version, status), problem = await self._app.table_log(caller(), table_id)
        return engine_pb2.GetTableLogResponse(
            events=[logged_event_to_proto(e) for e in events],
            head_version=version,
            # A row's status the engine does not know (changed in the database) reads as
            # unspecified: the auditor's checks say what the log shows.
            status=STATUS_VALUES.get(status, engine_pb2.TABLE_STATUS_UNSPECIFIED),
            replay_problem=problem,
        )

    async def GetLogIndex(
        self, request: engine_pb2.GetLogIndexRequest, context: Context
    ) -> engine_pb2.GetLogIndexResponse:
        page, head = await self._app.log_index(caller(), request.after_position, request.limit)
        return index_to_proto(page, head, request.columnar)


def engine_service(app: EngineApp) -> GrpcService:
    servicer = EngineServicer(app)
    return GrpcService(
        full_name=engine_pb2.DESCRIPTOR.services_by_name["Engine"].full_name,
        add_to_server=lambda server: engine_pb2_grpc.add_EngineServicer_to_server(servicer, server),
    )
