"""Domain errors every service raises, and the one table that maps them to gRPC status codes.

A use case raises one of these with a message meant for a person; the error interceptor
(``tavolo.servicekit.grpc_server``) turns it into the status below. Anything else that
escapes a handler is a bug: it becomes ``INTERNAL`` with a logged error id.
"""

from __future__ import annotations

from collections.abc import Mapping

import grpc

QUOTE_LIMIT = 40


def quoted(value: str, limit: int = QUOTE_LIMIT) -> str:
    """``value`` as a short, escaped quotation for a message a person reads.

    Whatever a caller sent may be a megabyte long or hold control characters; an error
    that repeats it must stay small (gRPC carries the message in a header, refused past
    16 KiB) and printable. ``repr`` escapes, and the cut says how much was left out.
    """
    if len(value) <= limit:
        return repr(value)
    return f"{value[:limit]!r}... ({len(value)} characters)"


def as_text(value: object) -> str:
    """A metadata value as ErrorInfo carries it: a string; a collection joined by commas."""
    if isinstance(value, list | tuple | set | frozenset):
        return ",".join(str(item) for item in value)
    return str(value)


class DomainError(Exception):
    """Base of every error a caller can cause; the message is shown to them.

    ``reason`` names it for a client app (one of ``tavolo.servicekit.reasons.REASONS``,
    sent as a ``google.rpc.ErrorInfo``), and ``metadata`` gives the values the client
    needs to explain it in its own words (``table_id``, ``version``, ``allowed`` ...).
    A subclass may fix its ``reason`` once for all its raise sites.
    """

    status: grpc.StatusCode = grpc.StatusCode.FAILED_PRECONDITION
    reason: str | None = None

    def __init__(
        self,
        message: str = "",
        *,
        reason: str | None = None,
        metadata: Mapping[str, object] | None = None,
    ) -> None:
        super().__init__(message)
        if reason is not None:
            self.reason = reason
        self.metadata: dict[str, str] = {k: as_text(v) for k, v in (metadata or {}).items()}


class InvalidArgument(DomainError):
    """The request is malformed: a field missing, out of range or of the wrong shape."""

    status = grpc.StatusCode.INVALID_ARGUMENT


class NotFound(DomainError):
    """The thing named does not exist (or the caller may not know it exists)."""

    status = grpc.StatusCode.NOT_FOUND


class AlreadyExists(DomainError):
    """The thing to create exists already (a nickname, an id)."""

    status = grpc.StatusCode.ALREADY_EXISTS


class FailedPrecondition(DomainError):
    """Well formed, but the current state forbids it (not your turn, short of coins)."""

    status = grpc.StatusCode.FAILED_PRECONDITION


class PermissionDenied(DomainError):
    """The caller is known but may not do this (another seat, a suspension, a missing role)."""

    status = grpc.StatusCode.PERMISSION_DENIED


class Unauthenticated(DomainError):
    """No valid session token."""

    status = grpc.StatusCode.UNAUTHENTICATED


class Conflict(DomainError):
    """A concurrent change won; the caller may reload and retry (a stale expected version)."""

    status = grpc.StatusCode.ABORTED


class ResourceExhausted(DomainError):
    """A limit was reached (rate, queue size)."""

    status = grpc.StatusCode.RESOURCE_EXHAUSTED


class Unavailable(DomainError):
    """A dependency is down; retrying later may work."""

    status = grpc.StatusCode.UNAVAILABLE
