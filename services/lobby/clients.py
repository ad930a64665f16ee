"""The engine and the wallet as the lobby sees them: two small ports and their gRPC clients.

The lobby calls them with a short-lived token it signs for itself (role ``service``,
docs/flows.md "Identity"). A refusal from the other service keeps its status and
message, so a player short of coins reads the wallet's own words; an unreachable
service becomes UNAVAILABLE with a message that says to retry.
"""

from __future__ import annotations

import time
from collections.abc import Mapping, Sequence
from datetime import datetime
from typing import Any, Protocol

import grpc
from google.protobuf import json_format, struct_pb2

from tavolo.lobby.events import LEVEL_TO_PROTO, MODE_TO_PROTO
from tavolo.lobby.play.tables import Mode, Seat, TableSpec
from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.servicekit.error_details import refusal_from_error
from tavolo.servicekit.errors import (
    AlreadyExists,
    DomainError,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
    ResourceExhausted,
    Unavailable,
)
from tavolo.v1 import common_pb2, engine_pb2, engine_pb2_grpc, wallet_pb2, wallet_pb2_grpc

SERVICE_PRINCIPAL = "service:lobby"
_TOKEN_TTL = 300
CALL_TIMEOUT = 10.0

_PASSED_ON: dict[grpc.StatusCode, type[DomainError]] = {
    grpc.StatusCode.INVALID_ARGUMENT: InvalidArgument,
    grpc.StatusCode.FAILED_PRECONDITION: FailedPrecondition,
    grpc.StatusCode.NOT_FOUND: NotFound,
    grpc.StatusCode.ALREADY_EXISTS: AlreadyExists,
    grpc.StatusCode.PERMISSION_DENIED: PermissionDenied,
    grpc.StatusCode.RESOURCE_EXHAUSTED: ResourceExhausted,
}


class WalletPort(Protocol):
    async def hold_stake(self, hold_id: str, player_id: str, amount: int, cause: str) -> None:
        """Hold ``amount`` coins of the player (idempotent by ``hold_id``)."""
        ...

    async def release_hold(self, hold_id: str) -> None:
        """Void a hold (idempotent)."""
        ...


class EnginePort(Protocol):
    async def open_table(
        self,
        table_id: str,
        spec: TableSpec,
        seats: Sequence[Seat],
        mode: Mode,
        *,
        ko: bool = False,
        engine_options: Mapping[str, int] | None = None,
        deal_seed: bytes = b"",
        sealed_until: datetime | None = None,
    ) -> None:
        """Open a table at once (idempotent by ``table_id``); ``ko`` for knock-out play,
        ``engine_options`` the engine's own (``turn_seconds``, ``bot_think_millis``),
        ``deal_seed`` fixes its deal and ``sealed_until`` keeps its log from its players
        until then."""
        ...


class ServiceToken:
    """The lobby's own bearer token, renewed a minute before it expires."""

    def __init__(self, signer: TokenSigner) -> None:
        self._signer = signer
        self._token = ""
        self._expires = 0.0

    def metadata(self) -> tuple[tuple[str, str]]:
        if time.time() > self._expires - 60:
            self._token, expires = self._signer.issue(
                SERVICE_PRINCIPAL, [Role.SERVICE], nickname="lobby", ttl_seconds=_TOKEN_TTL
            )
            self._expires = float(expires)
        return (("authorization", f"Bearer {self._token}"),)


def _refusal(exc: grpc.aio.AioRpcError, service: str) -> DomainError:
    kind = _PASSED_ON.get(exc.code())
    if kind is not None:
        # The other service's reason and values go on to the caller as they came (API-1).
        said = refusal_from_error(exc)
        return kind(
            exc.details() or f"the {service} refused",
            reason=said.reason if said else None,
            metadata=said.metadata if said else None,
        )
    return Unavailable(
        f"the {service} is not reachable right now; try again in a moment",
        reason="SERVICE_UNREACHABLE",
        metadata={"service": service},
    )


class GrpcWallet:
    def __init__(self, channel: grpc.aio.Channel, token: ServiceToken) -> None:
        self._stub = wallet_pb2_grpc.WalletStub(channel)
        self._token = token

    async def hold_stake(self, hold_id: str, player_id: str, amount: int, cause: str) -> None:
        request = wallet_pb2.HoldStakeRequest(
            hold_id=hold_id, player_id=player_id, amount=amount, cause=cause
        )
        try:
            await self._stub.HoldStake(
                request, metadata=self._token.metadata(), timeout=CALL_TIMEOUT
            )
        except grpc.aio.AioRpcError as exc:
            raise _refusal(exc, "wallet") from None

    async def release_hold(self, hold_id: str) -> None:
        request = wallet_pb2.ReleaseHoldRequest(hold_id=hold_id)
        try:
            await self._stub.ReleaseHold(
                request, metadata=self._token.metadata(), timeout=CALL_TIMEOUT
            )
        except grpc.aio.AioRpcError as exc:
            raise _refusal(exc, "wallet") from None


class GrpcEngine:
    def __init__(self, channel: grpc.aio.Channel, token: ServiceToken) -> None:
        self._stub = engine_pb2_grpc.EngineStub(channel)
        self._token = token

    async def open_table(
        self,
        table_id: str,
        spec: TableSpec,
        seats: Sequence[Seat],
        mode: Mode,
        *,
        ko: bool = False,
        engine_options: Mapping[str, int] | None = None,
        deal_seed: bytes = b"",
        sealed_until: datetime | None = None,
    ) -> None:
        tuning = engine_options or {}
        options = struct_pb2.Struct()
        options.update(dict(spec.options))
        request = engine_pb2.OpenTableRequest(
            game=spec.game,
            options=options,
            seats=[
                common_pb2.Seat(
                    seat=s.seat,
                    player_id=s.player_id or "",
                    nickname=s.nickname,
                    bot=s.bot,
                    bot_level=LEVEL_TO_PROTO[s.bot_level]
                    if s.bot_level
                    else common_pb2.BOT_LEVEL_UNSPECIFIED,
                )
                for s in seats
            ],
            mode=MODE_TO_PROTO[mode],
            table_id=table_id,
            ko=ko,
            turn_seconds=tuning.get("turn_seconds", 0),
            bot_think_millis=tuning.get("bot_think_millis", 0),
            deal_seed=deal_seed,
        )
        if sealed_until is not None:
            request.log_sealed_until.FromDatetime(sealed_until)
        try:
            await self._stub.OpenTable(
                request, metadata=self._token.metadata(), timeout=CALL_TIMEOUT
            )
        except grpc.aio.AioRpcError as exc:
            raise _refusal(exc, "engine") from None

    async def table_log(self, table_id: str) -> list[tuple[str, Mapping[str, Any]]]:
        """A finished table's stored events, type and data, for the fair-play reader."""
        try:
            found = await self._stub.GetTableLog(
                engine_pb2.GetTableLogRequest(table_id=table_id),
                metadata=self._token.metadata(),
                timeout=CALL_TIMEOUT,
            )
        except grpc.aio.AioRpcError as exc:
            raise _refusal(exc, "engine") from None
        return [(e.type, json_format.MessageToDict(e.data)) for e in found.events]
