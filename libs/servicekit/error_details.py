"""A refusal's machine-readable details (API-1): built by the server, read by clients.

The server sends a ``google.rpc.Status`` in the ``grpc-status-details-bin`` trailer (the
convention of AIP-193, as ``grpcio-status`` reads it): an ``ErrorInfo`` with the reason,
domain ``tavolo.v1`` and metadata; a ``BadRequest`` naming the field when the refusal is
about one; a ``RetryInfo`` when trying again later may work. The status code and the
message in the Status are those of the call itself.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field

import grpc
from google.protobuf import any_pb2, duration_pb2
from google.rpc import error_details_pb2, status_pb2  # type: ignore[import-untyped]

from tavolo.servicekit.reasons import DOMAIN, RETRY_SECONDS

#: The trailer that carries the Status, as ``grpc_status.rpc_status`` names it.
DETAILS_KEY = "grpc-status-details-bin"


def rich_status(
    code: grpc.StatusCode, message: str, reason: str, metadata: Mapping[str, str]
) -> status_pb2.Status:
    """The ``google.rpc.Status`` of one refusal, with every detail that applies to it."""
    details = [error_details_pb2.ErrorInfo(reason=reason, domain=DOMAIN, metadata=dict(metadata))]
    where = metadata.get("field")
    if code is grpc.StatusCode.INVALID_ARGUMENT and where:
        violation = error_details_pb2.BadRequest.FieldViolation(
            field=where, description=message, reason=reason
        )
        details.append(error_details_pb2.BadRequest(field_violations=[violation]))
    delay = RETRY_SECONDS.get(reason)
    if delay is not None:
        wait = duration_pb2.Duration()
        wait.FromNanoseconds(int(delay * 1e9))
        details.append(error_details_pb2.RetryInfo(retry_delay=wait))
    packed = []
    for detail in details:
        holder = any_pb2.Any()
        holder.Pack(detail)
        packed.append(holder)
    return status_pb2.Status(code=code.value[0], message=message, details=packed)


def trailer(status: status_pb2.Status) -> tuple[tuple[str, bytes], ...]:
    """The trailing metadata that carries ``status``."""
    return ((DETAILS_KEY, status.SerializeToString()),)


@dataclass(frozen=True, slots=True)
class Refusal:
    """What a client reads from a refused call's trailer."""

    reason: str
    domain: str
    metadata: Mapping[str, str]
    fields: Mapping[str, str] = field(default_factory=dict)
    retry_after: float | None = None


def refusal_of(trailing: Iterable[tuple[str, str | bytes]] | None) -> Refusal | None:
    """The refusal carried by a call's trailing metadata, or None if it carries none.

    ``trailing`` is what ``trailing_metadata()`` of a failed call returns (pairs of key
    and value, a tuple in sync gRPC, ``grpc.aio.Metadata`` in asyncio).
    """
    for key, value in trailing or ():
        if key == DETAILS_KEY and isinstance(value, bytes):
            return _read(status_pb2.Status.FromString(value))
    return None


def refusal_from_error(error: grpc.RpcError) -> Refusal | None:
    """The refusal behind a failed call (sync or asyncio), or None without details."""
    trailing = getattr(error, "trailing_metadata", None)
    return refusal_of(trailing() if callable(trailing) else None)


def _read(status: status_pb2.Status) -> Refusal | None:
    info: error_details_pb2.ErrorInfo | None = None
    fields: dict[str, str] = {}
    retry: float | None = None
    for detail in status.details:
        if detail.Is(error_details_pb2.ErrorInfo.DESCRIPTOR):
            info = error_details_pb2.ErrorInfo()
            detail.Unpack(info)
        elif detail.Is(error_details_pb2.BadRequest.DESCRIPTOR):
            bad = error_details_pb2.BadRequest()
            detail.Unpack(bad)
            fields.update((v.field, v.description) for v in bad.field_violations)
        elif detail.Is(error_details_pb2.RetryInfo.DESCRIPTOR):
            wait = error_details_pb2.RetryInfo()
            detail.Unpack(wait)
            retry = wait.retry_delay.ToNanoseconds() / 1e9
    if info is None:
        return None
    return Refusal(info.reason, info.domain, dict(info.metadata), fields, retry)
