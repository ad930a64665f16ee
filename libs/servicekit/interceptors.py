"""The one server interceptor: authenticate, check input, bind log context, map errors.

Authentication checks the token's signature and expiry, then the service's revocations: a
suspended account's tokens are refused at once (PERMISSION_DENIED), not when they expire.

Every service installs it, so error handling is identical everywhere: a request that
cannot be parsed, or whose fields break their rules (``tavolo.servicekit.validation``),
is refused with INVALID_ARGUMENT before any servicer runs; a domain error becomes its
status with the human message, cut to a bounded length; anything unexpected becomes
``INTERNAL`` with an error id that is logged with the traceback (and nothing else leaks
to the caller).
"""

from __future__ import annotations

import os
import time
import uuid
from collections.abc import AsyncIterator, Awaitable, Callable, Mapping
from datetime import UTC, datetime
from typing import TYPE_CHECKING, Any

import grpc
import structlog
from google.protobuf.message import DecodeError
from grpc_status import rpc_status

from tavolo.servicekit.auth import Principal, TokenSigner, current_principal
from tavolo.servicekit.error_details import rich_status
from tavolo.servicekit.errors import DomainError, InvalidArgument, PermissionDenied, Unauthenticated
from tavolo.servicekit.metrics import RPC_SECONDS, RPC_TOTAL
from tavolo.servicekit.outages import MESSAGE as OUTAGE_MESSAGE
from tavolo.servicekit.outages import is_outage
from tavolo.servicekit.reasons import FALLBACK, REASONS
from tavolo.servicekit.revocation import Revocations
from tavolo.servicekit.validation import check_request

log = structlog.get_logger("tavolo.rpc")

if TYPE_CHECKING:  # the stubs are generic, the runtime classes are not
    Handler = grpc.RpcMethodHandler[Any, Any]
    Context = grpc.aio.ServicerContext[Any, Any]
ErrorMap = Mapping[type[BaseException], grpc.StatusCode]

# gRPC sends a status message as a header and the peer refuses headers past 16 KiB, so a
# message that repeated a large input would break the reply itself.
MAX_STATUS_MESSAGE = 1000
LOGGED_ID_LENGTH = 80
#: Set to "1" (the test suite does) to refuse with INTERNAL what names no registered reason.
STRICT_REASONS_VARIABLE = "TAVOLO_STRICT_REASONS"


def bounded(message: str, limit: int = MAX_STATUS_MESSAGE) -> str:
    """A status message cut to ``limit`` characters, saying that it was cut."""
    if len(message) <= limit:
        return message
    return message[: limit - 20] + f"... ({len(message)} chars)"


class Undecodable:
    """Stands for request bytes that are not the method's message (bad UTF-8, garbage)."""

    def __init__(self, method: str, reason: str) -> None:
        self.method = method
        self.reason = reason


def lenient(
    deserialize: Callable[[bytes], Any] | None, method: str
) -> Callable[[bytes], Any] | None:
    """A deserializer that hands bad bytes on as :class:`Undecodable` instead of raising.

    gRPC answers a deserializer's exception with UNKNOWN, outside every handler; handing
    the failure on lets the interceptor refuse it like any other bad input.
    """
    if deserialize is None:
        return None

    def parse(data: bytes) -> Any:
        try:
            return deserialize(data)
        except DecodeError as exc:
            return Undecodable(method, str(exc))

    return parse


def check_input(request: Any) -> None:
    """Refuse bytes that are no message, and messages whose fields break their rules."""
    if isinstance(request, Undecodable):
        raise InvalidArgument(
            f"the request is not a valid message for {request.method}: "
            + bounded(request.reason, 200),
            reason="REQUEST_UNDECODABLE",
            metadata={"method": request.method},
        )
    check_request(request)


def status_for(exc: BaseException, extra: ErrorMap) -> grpc.StatusCode | None:
    """The status for an error a caller caused or an outage, or None for a bug."""
    if isinstance(exc, DomainError):
        return exc.status
    if is_outage(exc):
        return grpc.StatusCode.UNAVAILABLE
    for kind in type(exc).__mro__:
        if kind in extra:
            return extra[kind]
    return None


def strict_reasons() -> bool:
    """Whether a refusal without a registered reason fails loudly (the tests set it)."""
    return os.environ.get(STRICT_REASONS_VARIABLE, "") == "1"


def explain(
    exc: BaseException, status: grpc.StatusCode, request: Any
) -> tuple[str, dict[str, str]]:
    """The reason and metadata a refusal is sent with (API-1).

    An outage is ``DEPENDENCY_OUTAGE``; a domain or rules error names its own reason. One
    that names none, or names one that is not registered or comes with another status,
    is logged as the bug it is and sent as ``REFUSED``. A reason whose keys include
    ``table_id`` gets the request's table when the raise site did not say it.
    """
    if is_outage(exc):
        return "DEPENDENCY_OUTAGE", {}
    name = getattr(exc, "reason", None)
    metadata = {str(k): str(v) for k, v in (getattr(exc, "metadata", None) or {}).items()}
    known = REASONS.get(name) if isinstance(name, str) else None
    if known is None or known.status is not status:
        log.error("refusal without a registered reason", reason=name, code=status.name)
        return FALLBACK, metadata
    table_id = getattr(request, "table_id", "")
    if "table_id" in known.metadata and "table_id" not in metadata and table_id:
        metadata["table_id"] = str(table_id)[:LOGGED_ID_LENGTH]
    return known.name, metadata


class ServiceInterceptor(grpc.aio.ServerInterceptor):
    """Authentication, logging context, metrics and error mapping for one service."""

    def __init__(
        self,
        service: str,
        signer: TokenSigner,
        *,
        public_methods: frozenset[str] = frozenset(),
        extra_errors: ErrorMap | None = None,
        revocations: Revocations | None = None,
    ) -> None:
        self._service = service
        self._signer = signer
        self._revocations = revocations
        self._public = public_methods
        self._extra = dict(extra_errors or {})

    async def intercept_service(
        self,
        continuation: Callable[[grpc.HandlerCallDetails], Awaitable[Handler | None]],
        details: grpc.HandlerCallDetails,
    ) -> Handler | None:
        handler = await continuation(details)
        method: str = details.method
        if handler is None or method.startswith("/grpc."):
            return handler  # health and reflection are open to all
        metadata = {k: v for k, v in (details.invocation_metadata or ())}
        public = method.rsplit("/", 1)[-1] in self._public
        if handler.unary_unary:
            return grpc.unary_unary_rpc_method_handler(
                self._wrap_unary(handler.unary_unary, method, metadata, public),
                request_deserializer=lenient(handler.request_deserializer, method),
                response_serializer=handler.response_serializer,
            )
        if handler.unary_stream:
            return grpc.unary_stream_rpc_method_handler(
                self._wrap_stream(handler.unary_stream, method, metadata, public),
                request_deserializer=lenient(handler.request_deserializer, method),
                response_serializer=handler.response_serializer,
            )
        return handler

    def _authenticate(self, metadata: Mapping[str, Any], public: bool) -> None:
        header = metadata.get("authorization", "")
        if not header:
            if public:
                return
            raise Unauthenticated(
                "this call needs a session token: log in first", reason="TOKEN_MISSING"
            )
        scheme, _, token = str(header).partition(" ")
        if scheme.lower() != "bearer" or not token:
            raise Unauthenticated(
                "the authorization header must be 'Bearer <token>'", reason="TOKEN_MALFORMED"
            )
        principal = self._signer.verify(token)
        self._refuse_if_revoked(principal)
        current_principal.set(principal)
        structlog.contextvars.bind_contextvars(player_id=principal.player_id)

    def _refuse_if_revoked(self, principal: Principal | None) -> None:
        if self._revocations is None or principal is None:
            return
        refusal = self._revocations.refusal(principal, datetime.now(UTC))
        if refusal is not None:
            raise PermissionDenied(refusal, reason="SESSION_REVOKED")

    def _begin(self, method: str, metadata: Mapping[str, Any], request: Any) -> None:
        structlog.contextvars.clear_contextvars()
        current_principal.set(None)
        structlog.contextvars.bind_contextvars(
            service=self._service,
            method=method,
            request_id=str(metadata.get("x-request-id") or uuid.uuid4().hex[:16])[
                :LOGGED_ID_LENGTH
            ],
        )
        # Every request about a table names it `table_id`: bind it so each log line of the
        # call can be found by table (cut: it is not checked yet).
        table_id = getattr(request, "table_id", "")
        if table_id:
            structlog.contextvars.bind_contextvars(table_id=str(table_id)[:LOGGED_ID_LENGTH])

    async def _fail(self, exc: BaseException, context: Context, request: Any) -> None:
        status = status_for(exc, self._extra)
        if status is None:
            error_id = uuid.uuid4().hex[:12]
            log.exception("unexpected error", error_id=error_id)
            await context.abort(
                grpc.StatusCode.INTERNAL, f"internal error (id {error_id}); nothing was changed"
            )
        else:
            message = OUTAGE_MESSAGE if is_outage(exc) else bounded(str(exc))
            reason, metadata = explain(exc, status, request)
            log.info(
                "request refused",
                code=status.name,
                reason=reason,
                message=message,
                error=repr(exc)[:300],
            )
            if reason == FALLBACK and strict_reasons():
                status, message = grpc.StatusCode.INTERNAL, f"refusal without a reason: {message}"
            wire = rpc_status.to_status(rich_status(status, message, reason, metadata))
            await context.abort(wire.code, wire.details, trailing_metadata=wire.trailing_metadata)

    def _record(self, method: str, started: float, code: str) -> None:
        name = method.rsplit("/", 1)[-1]
        RPC_TOTAL.labels(self._service, name, code).inc()
        RPC_SECONDS.labels(self._service, name).observe(time.perf_counter() - started)

    def _wrap_unary(
        self, behaviour: Any, method: str, metadata: Mapping[str, Any], public: bool
    ) -> Callable[[Any, Context], Awaitable[Any]]:
        async def handle(request: Any, context: Context) -> Any:
            started = time.perf_counter()
            self._begin(method, metadata, request)
            code = "OK"
            try:
                self._authenticate(metadata, public)
                check_input(request)
                return await behaviour(request, context)
            except grpc.aio.AbortError:
                code = "ABORTED_BY_HANDLER"
                raise
            except Exception as exc:
                code = (status_for(exc, self._extra) or grpc.StatusCode.INTERNAL).name
                await self._fail(exc, context, request)
            finally:
                self._record(method, started, code)

        return handle

    def _wrap_stream(
        self, behaviour: Any, method: str, metadata: Mapping[str, Any], public: bool
    ) -> Callable[[Any, Context], AsyncIterator[Any]]:
        async def handle(request: Any, context: Context) -> AsyncIterator[Any]:
            started = time.perf_counter()
            self._begin(method, metadata, request)
            code = "OK"
            try:
                self._authenticate(metadata, public)
                check_input(request)
                principal = current_principal.get()
                async for item in behaviour(request, context):
                    # A stream outlives many calls: a suspension ends it at its next message.
                    self._refuse_if_revoked(principal)
                    yield item
            except grpc.aio.AbortError:
                code = "ABORTED_BY_HANDLER"
                raise
            except Exception as exc:
                code = (status_for(exc, self._extra) or grpc.StatusCode.INTERNAL).name
                await self._fail(exc, context, request)
            finally:
                self._record(method, started, code)

        return handle
