"""The interceptor refuses a suspended account's token on every call, and ends a stream
that was opened before the suspension at its next message (PCG-4)."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator
from datetime import UTC, datetime
from typing import Any

import grpc
import pytest

from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.servicekit.grpc_server import GrpcService, start_grpc_server
from tavolo.servicekit.revocation import Revocations, Suspension
from tavolo.v1 import engine_pb2, engine_pb2_grpc

SIGNER = TokenSigner("test-secret-for-the-revocation-checks")


class TickingEngine(engine_pb2_grpc.EngineServicer):
    """Streams a view each time ``tick`` is set."""

    def __init__(self) -> None:
        self.tick = asyncio.Event()

    async def GetTable(self, request: Any, context: Any) -> engine_pb2.TableView:
        return engine_pb2.TableView(table_id=request.table_id)

    async def WatchTable(self, request: Any, context: Any) -> AsyncIterator[engine_pb2.TableView]:
        for version in range(1, 100):
            yield engine_pb2.TableView(table_id=request.table_id, version=version)
            await self.tick.wait()
            self.tick.clear()


def _auth(player: str) -> tuple[tuple[str, str]]:
    token, _ = SIGNER.issue(player, [Role.PLAYER])
    return (("authorization", f"Bearer {token}"),)


async def test_a_suspension_refuses_calls_and_ends_open_streams() -> None:
    engine, revocations = TickingEngine(), Revocations()
    server = await start_grpc_server(
        "probe",
        [
            GrpcService(
                "tavolo.v1.Engine",
                lambda s: engine_pb2_grpc.add_EngineServicer_to_server(engine, s),
            )
        ],
        SIGNER,
        revocations=revocations,
    )
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
            stub = engine_pb2_grpc.EngineStub(channel)
            stream = stub.WatchTable(
                engine_pb2.WatchTableRequest(table_id="t1"), metadata=_auth("ann")
            )
            assert (await stream.read()).version == 1
            await stub.GetTable(engine_pb2.GetTableRequest(table_id="t1"), metadata=_auth("ann"))

            revocations.apply(Suspension("s1", ("ann",), datetime.now(UTC), reason="cheating"))

            with pytest.raises(grpc.aio.AioRpcError) as refused:
                await stub.GetTable(
                    engine_pb2.GetTableRequest(table_id="t1"), metadata=_auth("ann")
                )
            assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED
            assert "suspended" in (refused.value.details() or "")
            await stub.GetTable(engine_pb2.GetTableRequest(table_id="t1"), metadata=_auth("bob"))
            engine.tick.set()
            with pytest.raises(grpc.aio.AioRpcError) as ended:
                await stream.read()
            assert ended.value.code() == grpc.StatusCode.PERMISSION_DENIED
    finally:
        await server.stop(0)
