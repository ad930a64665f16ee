"""OpenTelemetry tracing: one player's action followed across the services and the events
between them (OPS-1).

Off unless ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set; then spans go over OTLP/gRPC to that
address, one trace in ``OTEL_TRACES_SAMPLER_ARG`` (a ratio, 1.0 when unset) is kept, and
a call or an event continues the sampling decision of whatever caused it. What is traced:

- every gRPC call, on both sides (the maintained aio interceptors, here ``server_
  interceptors`` and ``client_interceptors``), the W3C ``traceparent`` in the metadata;
- every PostgreSQL statement, as a child of the span that ran it (the asyncpg
  instrumentation); a statement outside any span (a relay's poll) starts no trace;
- every event: the event log stamps the ``traceparent`` of the span that appends an event
  into its metadata (``stamped``), in the transaction that commits it; the outbox relay
  publishes it later, maybe from another replica, in a span continuing that one
  (``publishing``) and puts the ``traceparent`` in the NATS message's headers; a consumer
  handles it in a span continuing the publisher's (``consuming``).

structlog lines written inside a span carry its ``trace_id`` and ``span_id``
(``add_trace_ids``, in every service's logging set-up).

Tests switch tracing on with `enable` and their own provider (the SDK's in-memory
exporter) and off with `disable`; nothing else reads the module's provider.
"""

from __future__ import annotations

import os
from collections.abc import Iterator, Mapping, MutableMapping, Sequence
from contextlib import contextmanager
from typing import Any

from opentelemetry import context as otel_context
from opentelemetry import trace
from opentelemetry.propagate import extract, inject
from opentelemetry.sdk.resources import Resource
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import BatchSpanProcessor
from opentelemetry.sdk.trace.sampling import (
    Decision,
    ParentBased,
    Sampler,
    SamplingResult,
    TraceIdRatioBased,
)
from opentelemetry.trace import Link, SpanKind, Tracer
from opentelemetry.util.types import Attributes

from tavolo.servicekit.settings import SettingsError

TRACEPARENT = "traceparent"
"""The W3C header, in gRPC metadata, NATS headers and an event's metadata alike."""

_provider: TracerProvider | None = None


def enabled() -> bool:
    return _provider is not None


def sampling_ratio(environ: Mapping[str, str]) -> float:
    raw = environ.get("OTEL_TRACES_SAMPLER_ARG", "")
    if not raw:
        return 1.0
    try:
        ratio = float(raw)
    except ValueError:
        raise SettingsError(f"OTEL_TRACES_SAMPLER_ARG must be a ratio, not {raw!r}") from None
    if not 0.0 <= ratio <= 1.0:
        raise SettingsError(f"OTEL_TRACES_SAMPLER_ARG must be from 0 to 1, not {raw}")
    return ratio


class NoStatementRoots(Sampler):
    """``ParentBased(TraceIdRatioBased(ratio))``, except that a database statement run
    outside any span (the relays' and timers' polls) starts no trace of its own."""

    def __init__(self, ratio: float) -> None:
        self._inner = ParentBased(TraceIdRatioBased(ratio))
        self._ratio = ratio

    def should_sample(
        self,
        parent_context: otel_context.Context | None,
        trace_id: int,
        name: str,
        kind: SpanKind | None = None,
        attributes: Attributes = None,
        links: Sequence[Link] | None = None,
        trace_state: trace.TraceState | None = None,
    ) -> SamplingResult:
        parent = trace.get_current_span(parent_context).get_span_context()
        if not parent.is_valid and attributes and "db.system" in attributes:
            return SamplingResult(Decision.DROP)
        return self._inner.should_sample(
            parent_context, trace_id, name, kind, attributes, links, trace_state
        )

    def get_description(self) -> str:
        return f"NoStatementRoots({self._ratio})"


def configure_tracing(service: str, environ: Mapping[str, str] | None = None) -> bool:
    """Turn tracing on for this process when ``OTEL_EXPORTER_OTLP_ENDPOINT`` is set (the
    exporter reads the endpoint and its other ``OTEL_EXPORTER_OTLP_*`` settings itself);
    whether it did."""
    env = os.environ if environ is None else environ
    if not env.get("OTEL_EXPORTER_OTLP_ENDPOINT"):
        return False
    from opentelemetry.exporter.otlp.proto.grpc.trace_exporter import OTLPSpanExporter

    name = env.get("OTEL_SERVICE_NAME") or f"tavolo-{service}"
    provider = TracerProvider(
        resource=Resource.create({"service.name": name}),
        sampler=NoStatementRoots(sampling_ratio(env)),
    )
    provider.add_span_processor(BatchSpanProcessor(OTLPSpanExporter()))
    enable(provider)
    return True


def enable(provider: TracerProvider) -> None:
    """Trace with ``provider`` from now on (gRPC servers and channels made from now on)."""
    from opentelemetry.instrumentation.asyncpg import AsyncPGInstrumentor

    global _provider
    disable()
    _provider = provider
    AsyncPGInstrumentor().instrument(tracer_provider=provider)  # type: ignore[no-untyped-call]


def disable() -> None:
    """Stop tracing; spans already ended stay with the provider's processors."""
    from opentelemetry.instrumentation.asyncpg import AsyncPGInstrumentor

    global _provider
    if _provider is None:
        return
    AsyncPGInstrumentor().uninstrument()  # type: ignore[no-untyped-call]
    _provider = None


def shutdown() -> None:
    """Send the spans still buffered, at the process's end."""
    if _provider is not None:
        _provider.shutdown()


def tracer() -> Tracer:
    return trace.get_tracer("tavolo", tracer_provider=_provider)


def server_interceptors() -> list[Any]:
    """The server side of gRPC tracing, to put first among a server's interceptors."""
    if _provider is None:
        return []
    from opentelemetry.instrumentation.grpc import aio_server_interceptor

    return [aio_server_interceptor(tracer_provider=_provider)]  # type: ignore[no-untyped-call]


def client_interceptors() -> list[Any]:
    """The client side of gRPC tracing, for a channel to another service."""
    if _provider is None:
        return []
    from opentelemetry.instrumentation.grpc import aio_client_interceptors

    return list(aio_client_interceptors(tracer_provider=_provider))  # type: ignore[no-untyped-call]


def current_traceparent() -> str | None:
    """The ``traceparent`` of the span running now; None without one (or tracing off)."""
    if _provider is None:
        return None
    carrier: dict[str, str] = {}
    inject(carrier)
    return carrier.get(TRACEPARENT)


@contextmanager
def publishing(
    subject: str, traceparent: str | None, headers: MutableMapping[str, str]
) -> Iterator[None]:
    """A span for publishing an event, continuing the span that committed it
    (``traceparent``, from the event's metadata), whose context goes into ``headers``."""
    if _provider is None or traceparent is None:
        yield
        return
    parent = extract({TRACEPARENT: traceparent})
    with tracer().start_as_current_span(
        f"{subject} publish",
        context=parent,
        kind=SpanKind.PRODUCER,
        attributes={"messaging.system": "nats", "messaging.destination.name": subject},
    ):
        inject(headers)
        yield


@contextmanager
def consuming(
    subject: str, headers: Mapping[str, str] | None, consumer: str, message_id: str | None
) -> Iterator[None]:
    """A span for handling an event, continuing the span that published it."""
    if _provider is None:
        yield
        return
    parent = extract(dict(headers or {}))
    attributes = {
        "messaging.system": "nats",
        "messaging.destination.name": subject,
        "messaging.consumer.group.name": consumer,
    }
    if message_id is not None:
        attributes["messaging.message.id"] = message_id
    with tracer().start_as_current_span(
        f"{subject} process", context=parent, kind=SpanKind.CONSUMER, attributes=attributes
    ):
        yield


@contextmanager
def span(name: str, **attributes: str | int) -> Iterator[None]:
    """A span of the service's own work outside any call or event (a matchmaking round,
    a timer firing), so what it causes is traced too."""
    if _provider is None:
        yield
        return
    with tracer().start_as_current_span(name, attributes=attributes):
        yield


@contextmanager
def linked(
    name: str, traceparents: Sequence[str | None], **attributes: str | int
) -> Iterator[None]:
    """A span of the current trace linked to the spans of ``traceparents`` (what started
    the thing this work is about: a move links to the match that made its table, the
    match to the calls that queued its players)."""
    if _provider is None:
        yield
        return
    links = []
    for traceparent in traceparents:
        if traceparent is None:
            continue
        context = trace.get_current_span(extract({TRACEPARENT: traceparent})).get_span_context()
        if context.is_valid:
            links.append(Link(context))
    with tracer().start_as_current_span(name, links=links, attributes=attributes):
        yield


def add_trace_ids(
    _logger: Any, _method: str, event_dict: MutableMapping[str, Any]
) -> MutableMapping[str, Any]:
    """structlog processor: the current span's ids on every line written inside it."""
    context = trace.get_current_span().get_span_context()
    if context.is_valid:
        event_dict["trace_id"] = format(context.trace_id, "032x")
        event_dict["span_id"] = format(context.span_id, "016x")
    return event_dict
