"""Tracing's settings and sampling (OPS-1): off unless an OTLP endpoint is set, the ratio
from OTEL_TRACES_SAMPLER_ARG, a call or event following the decision of what caused it,
and no trace started by a database statement alone."""

from __future__ import annotations

import itertools

import pytest
from opentelemetry import trace
from opentelemetry.sdk.trace.sampling import Decision
from opentelemetry.trace import NonRecordingSpan, SpanContext, SpanKind, TraceFlags

from tavolo.servicekit import tracing
from tavolo.servicekit.settings import SettingsError


def test_tracing_is_off_unless_an_otlp_endpoint_is_set() -> None:
    assert tracing.configure_tracing("engine", {}) is False
    assert tracing.configure_tracing("engine", {"OTEL_TRACES_SAMPLER_ARG": "1"}) is False
    assert not tracing.enabled()
    assert tracing.server_interceptors() == [] and tracing.client_interceptors() == []
    assert tracing.current_traceparent() is None


def test_an_otlp_endpoint_turns_tracing_on() -> None:
    env = {"OTEL_EXPORTER_OTLP_ENDPOINT": "http://127.0.0.1:9", "OTEL_TRACES_SAMPLER_ARG": "1"}
    try:
        assert tracing.configure_tracing("engine", env) is True
        assert tracing.enabled()
        assert len(tracing.server_interceptors()) == 1
        assert len(tracing.client_interceptors()) == 4  # one per kind of call
    finally:
        # No span was made, so nothing waits to be sent to the unreachable endpoint (the
        # exporter's retries would draw from `random` in their thread for seconds).
        tracing.shutdown()
        tracing.disable()
    assert not tracing.enabled()


@pytest.mark.parametrize(
    ("raw", "ratio"), [("", 1.0), ("0", 0.0), ("0.1", 0.1), ("1", 1.0), ("1.0", 1.0)]
)
def test_the_sampling_ratio_comes_from_the_standard_variable(raw: str, ratio: float) -> None:
    assert tracing.sampling_ratio({"OTEL_TRACES_SAMPLER_ARG": raw}) == ratio


@pytest.mark.parametrize("raw", ["half", "-0.1", "1.5", "nan"])
def test_a_bad_sampling_ratio_is_refused_by_name(raw: str) -> None:
    with pytest.raises(SettingsError, match="OTEL_TRACES_SAMPLER_ARG"):
        tracing.sampling_ratio({"OTEL_TRACES_SAMPLER_ARG": raw})


def _parent(sampled: bool | None) -> object:
    if sampled is None:
        return None
    flags = TraceFlags(TraceFlags.SAMPLED if sampled else TraceFlags.DEFAULT)
    context = SpanContext(trace_id=7, span_id=9, is_remote=True, trace_flags=flags)
    return trace.set_span_in_context(NonRecordingSpan(context))


@pytest.mark.parametrize(
    ("ratio", "parent", "statement"),
    list(itertools.product([0.0, 1.0], [None, True, False], [True, False])),
)
def test_sampling_follows_the_parent_and_never_starts_at_a_statement(
    ratio: float, parent: bool | None, statement: bool
) -> None:
    sampler = tracing.NoStatementRoots(ratio)
    attributes = {"db.system": "postgresql"} if statement else {"rpc.system": "grpc"}
    result = sampler.should_sample(
        _parent(parent),  # type: ignore[arg-type]
        trace_id=2**100,
        name="statement" if statement else "call",
        kind=SpanKind.CLIENT,
        attributes=attributes,
    )
    # A root is sampled at the ratio unless it is a statement; a child follows its parent.
    wanted = (not statement and ratio == 1.0) if parent is None else parent
    assert (result.decision == Decision.RECORD_AND_SAMPLE) is wanted
