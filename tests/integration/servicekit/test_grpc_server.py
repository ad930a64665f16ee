"""The service kit's gRPC server over a real port: health, reflection, authentication and
the single error mapping (DESIGN guarantees 8 and 9), and the machine-readable details
every refusal carries (API-1)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import Any

import grpc
import pytest
import structlog
from grpc_health.v1 import health_pb2, health_pb2_grpc
from grpc_reflection.v1alpha import reflection_pb2, reflection_pb2_grpc

from tavolo.cli.session import rpc_error_text
from tavolo.servicekit.auth import Role, TokenSigner, caller
from tavolo.servicekit.error_details import Refusal, refusal_from_error
from tavolo.servicekit.errors import FailedPrecondition, NotFound
from tavolo.servicekit.grpc_server import GrpcService, RunningServer, start_grpc_server
from tavolo.v1 import engine_pb2, engine_pb2_grpc, leaderboard_pb2, leaderboard_pb2_grpc

SIGNER = TokenSigner("test-secret-for-the-grpc-server-kit")


class ProbeLeaderboard(leaderboard_pb2_grpc.LeaderboardServicer):
    """A servicer whose answers exercise each path of the interceptor."""

    async def GetPlayerStats(self, request: Any, context: Any) -> leaderboard_pb2.PlayerStats:
        if request.player_id == "missing":
            raise NotFound(
                "no player 'missing'", reason="PLAYER_NOT_FOUND", metadata={"player_id": "missing"}
            )
        if request.player_id == "busy":
            raise FailedPrecondition(
                "the player is at a table",
                reason="PLAYER_BUSY",
                metadata={"nickname": "p1", "table_id": "t-1"},
            )
        if request.player_id == "unexplained":
            raise FailedPrecondition("a refusal its raise site did not name")
        if request.player_id == "outage":
            raise ConnectionRefusedError("the database is restarting")
        if request.player_id == "bug":
            raise RuntimeError("secret internal detail")
        if request.player_id == "role":
            caller().require(Role.OPERATOR)
        if request.player_id == "chatty":
            raise NotFound("no such player: " + "z" * 100_000, reason="PLAYER_NOT_FOUND")
        REACHED.append(request.player_id)
        return leaderboard_pb2.PlayerStats(player_id=caller().player_id, xp=7)


SEEN_CONTEXT: list[dict[str, Any]] = []
REACHED: list[str] = []


class ProbeEngine(engine_pb2_grpc.EngineServicer):
    """Records the log context a handler runs with."""

    async def GetTable(self, request: Any, context: Any) -> engine_pb2.TableView:
        SEEN_CONTEXT.append(structlog.contextvars.get_contextvars())
        return engine_pb2.TableView(table_id=request.table_id)


@pytest.fixture
async def server() -> AsyncIterator[RunningServer]:
    running = await start_grpc_server(
        "probe",
        [
            GrpcService(
                "tavolo.v1.Leaderboard",
                lambda s: leaderboard_pb2_grpc.add_LeaderboardServicer_to_server(
                    ProbeLeaderboard(), s
                ),
            ),
            GrpcService(
                "tavolo.v1.Engine",
                lambda s: engine_pb2_grpc.add_EngineServicer_to_server(ProbeEngine(), s),
            ),
        ],
        SIGNER,
    )
    yield running
    await running.stop(0)


def _auth(player: str = "p1", roles: tuple[Role, ...] = (Role.PLAYER,)) -> list[tuple[str, str]]:
    token, _ = SIGNER.issue(player, roles)
    return [("authorization", f"Bearer {token}")]


async def _stats(server: RunningServer, player_id: str, metadata: Any) -> Any:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub = leaderboard_pb2_grpc.LeaderboardStub(channel)
        return await stub.GetPlayerStats(
            leaderboard_pb2.GetPlayerStatsRequest(player_id=player_id), metadata=metadata
        )


async def test_health_reports_serving_for_the_service(server: RunningServer) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        for name in ("", "tavolo.v1.Leaderboard"):
            reply = await stub.Check(health_pb2.HealthCheckRequest(service=name))
            assert reply.status == health_pb2.HealthCheckResponse.SERVING


async def test_reflection_lists_the_service(server: RunningServer) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub = reflection_pb2_grpc.ServerReflectionStub(channel)

        async def requests() -> AsyncIterator[reflection_pb2.ServerReflectionRequest]:
            yield reflection_pb2.ServerReflectionRequest(list_services="")

        async for reply in stub.ServerReflectionInfo(requests()):
            names = {s.name for s in reply.list_services_response.service}
            assert "tavolo.v1.Leaderboard" in names
            break


async def test_an_authenticated_call_sees_its_caller(server: RunningServer) -> None:
    reply = await _stats(server, "p1", _auth("p1"))
    assert (reply.player_id, reply.xp) == ("p1", 7)


@pytest.mark.parametrize(
    ("metadata", "needle"),
    [
        ([], "needs a session token"),
        ([("authorization", "Basic abc")], "Bearer <token>"),
        ([("authorization", "Bearer not-a-jwt")], "not valid"),
        (
            [("authorization", "Bearer " + TokenSigner("x" * 40).issue("p1", [Role.OPERATOR])[0])],
            "not valid",
        ),
    ],
)
async def test_missing_or_forged_tokens_are_unauthenticated(
    server: RunningServer, metadata: Any, needle: str
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await _stats(server, "p1", metadata)
    assert info.value.code() is grpc.StatusCode.UNAUTHENTICATED
    assert needle in (info.value.details() or "")


@pytest.mark.parametrize(
    ("player", "code", "needle"),
    [
        ("missing", grpc.StatusCode.NOT_FOUND, "no player 'missing'"),
        ("busy", grpc.StatusCode.FAILED_PRECONDITION, "the player is at a table"),
        ("role", grpc.StatusCode.PERMISSION_DENIED, "this needs the operator role"),
    ],
)
async def test_domain_errors_become_their_status_with_the_message(
    server: RunningServer, player: str, code: grpc.StatusCode, needle: str
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await _stats(server, player, _auth())
    assert info.value.code() is code
    assert info.value.details() == needle


async def test_an_unexpected_error_is_internal_with_an_id_and_no_detail(
    server: RunningServer,
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await _stats(server, "bug", _auth())
    assert info.value.code() is grpc.StatusCode.INTERNAL
    details = info.value.details() or ""
    assert "internal error (id " in details
    assert "secret internal detail" not in details


async def test_stopping_reports_not_serving_first(server: RunningServer) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub = health_pb2_grpc.HealthStub(channel)
        await server.health.set("", health_pb2.HealthCheckResponse.SERVING)
        await server.stop(grace=1.0)
        with pytest.raises(grpc.aio.AioRpcError):
            await stub.Check(health_pb2.HealthCheckRequest(service=""), timeout=1)
    status = await server.health.Check(health_pb2.HealthCheckRequest(service=""), None)
    assert status.status == health_pb2.HealthCheckResponse.NOT_SERVING


async def test_log_lines_carry_the_request_player_and_table(server: RunningServer) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        stub = engine_pb2_grpc.EngineStub(channel)
        await stub.GetTable(
            engine_pb2.GetTableRequest(table_id="t-42"),
            metadata=[*_auth("p7"), ("x-request-id", "req-1")],
        )
    bound = SEEN_CONTEXT[-1]
    assert bound["table_id"] == "t-42"
    assert bound["player_id"] == "p7"
    assert bound["request_id"] == "req-1"
    assert bound["service"] == "probe"


async def test_bytes_that_are_no_request_are_refused_before_the_servicer(
    server: RunningServer,
) -> None:
    async with grpc.aio.insecure_channel(f"127.0.0.1:{server.port}") as channel:
        raw = channel.unary_unary("/tavolo.v1.Leaderboard/GetPlayerStats")
        for garbage in (b"\n\x02\xff\x00", b"\x8d"):  # bad UTF-8; a truncated tag
            with pytest.raises(grpc.aio.AioRpcError) as info:
                await raw(garbage, metadata=_auth())
            assert info.value.code() is grpc.StatusCode.INVALID_ARGUMENT
            assert "not a valid message for /tavolo.v1.Leaderboard/GetPlayerStats" in (
                info.value.details() or ""
            )


async def test_a_field_breaking_its_rule_never_reaches_the_servicer(
    server: RunningServer,
) -> None:
    REACHED.clear()
    for player_id in ("p\x00", "x" * 1_000_000):
        with pytest.raises(grpc.aio.AioRpcError) as info:
            await _stats(server, player_id, _auth())
        assert info.value.code() is grpc.StatusCode.INVALID_ARGUMENT
        assert (info.value.details() or "").startswith("player_id ")
    assert REACHED == []


async def test_a_huge_error_message_is_cut_instead_of_breaking_the_reply(
    server: RunningServer,
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await _stats(server, "chatty", _auth())
    assert info.value.code() is grpc.StatusCode.NOT_FOUND
    details = info.value.details() or ""
    assert details.startswith("no such player: zzz") and len(details) <= 1000


def _refusal(error: grpc.aio.AioRpcError) -> Refusal:
    found = refusal_from_error(error)
    assert found is not None, f"no ErrorInfo on {error.code().name} {error.details()!r}"
    return found


@pytest.mark.parametrize(
    ("player", "reason", "metadata"),
    [
        ("missing", "PLAYER_NOT_FOUND", {"player_id": "missing"}),
        ("busy", "PLAYER_BUSY", {"nickname": "p1", "table_id": "t-1"}),
        ("role", "ROLE_REQUIRED", {"role": "operator"}),
    ],
)
async def test_api_1_a_refusal_carries_its_reason_domain_and_metadata(
    server: RunningServer, player: str, reason: str, metadata: dict[str, str]
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await _stats(server, player, _auth())
    refusal = _refusal(info.value)
    assert (refusal.reason, refusal.domain, dict(refusal.metadata)) == (
        reason,
        "tavolo.v1",
        metadata,
    )
    assert refusal.retry_after is None and not refusal.fields


@pytest.mark.parametrize(
    ("metadata", "reason"),
    [
        ([], "TOKEN_MISSING"),
        ([("authorization", "Basic abc")], "TOKEN_MALFORMED"),
        ([("authorization", "Bearer not-a-jwt")], "TOKEN_INVALID"),
    ],
)
async def test_api_1_token_refusals_name_what_is_wrong_with_the_token(
    server: RunningServer, metadata: Any, reason: str
) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await _stats(server, "p1", metadata)
    assert _refusal(info.value).reason == reason


async def test_api_1_an_invalid_field_gets_a_bad_request_naming_it(server: RunningServer) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await _stats(server, "p1\x00", _auth())
    refusal = _refusal(info.value)
    assert info.value.code() is grpc.StatusCode.INVALID_ARGUMENT
    assert (refusal.reason, refusal.metadata["field"]) == ("FIELD_INVALID", "player_id")
    assert refusal.fields == {"player_id": info.value.details()}


async def test_api_1_an_outage_is_unavailable_with_a_retry_delay(server: RunningServer) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await _stats(server, "outage", _auth())
    refusal = _refusal(info.value)
    assert info.value.code() is grpc.StatusCode.UNAVAILABLE
    assert refusal.reason == "DEPENDENCY_OUTAGE"
    assert refusal.retry_after is not None and refusal.retry_after > 0


async def test_api_1_a_refusal_without_a_reason_fails_loudly_under_test(
    server: RunningServer,
) -> None:
    """The suite runs with strict reasons on (tests/conftest.py): an unnamed refusal is a
    bug, and shows as one."""
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await _stats(server, "unexplained", _auth())
    assert info.value.code() is grpc.StatusCode.INTERNAL
    assert "refusal without a reason" in (info.value.details() or "")


async def test_api_1_in_production_an_unnamed_refusal_keeps_its_status_as_refused(
    server: RunningServer, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("TAVOLO_STRICT_REASONS")
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await _stats(server, "unexplained", _auth())
    assert info.value.code() is grpc.StatusCode.FAILED_PRECONDITION
    assert _refusal(info.value).reason == "REFUSED"


async def test_api_1_the_terminal_client_prints_a_refusal_with_its_reason(
    server: RunningServer,
) -> None:
    """What `tavolo account ...` prints for a refusal: the service's words, the status,
    and the reason a script or a bug report can quote."""
    with pytest.raises(grpc.aio.AioRpcError) as info:
        await _stats(server, "busy", _auth())
    assert (
        rpc_error_text(info.value) == "the player is at a table (FAILED_PRECONDITION) [PLAYER_BUSY]"
    )
