"""The trace context goes into the outbox with the event (OPS-1): an event appended inside
a span carries that span's ``traceparent`` in its metadata, committed in the same
transaction, so the relay's publish continues the span whatever replica publishes and
however late; appends sharing one group commit keep each its own; a retry from another
span is still recognised as the retry it is."""

from __future__ import annotations

import asyncio
import uuid
from collections.abc import AsyncIterator, Iterator

import pytest
from opentelemetry.sdk.trace import TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter

from tavolo.eventlog import NewEvent, PostgresEventStore
from tavolo.servicekit import tracing
from tavolo.servicekit.connect import create_pool


@pytest.fixture
def traced() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider(sampler=tracing.NoStatementRoots(1.0))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.enable(provider)
    try:
        yield exporter
    finally:
        tracing.disable()


@pytest.fixture
async def store(database_url: str) -> AsyncIterator[PostgresEventStore]:
    pool = await create_pool(database_url)
    try:
        store = PostgresEventStore(pool, "traced")
        await store.install()
        yield store
    finally:
        await pool.close()


def _ids(exporter: InMemorySpanExporter, name: str) -> list[str]:
    """The trace and span ids of the span named ``name``, as a traceparent writes them."""
    (span,) = [s for s in exporter.get_finished_spans() if s.name == name]
    return [f"{span.context.trace_id:032x}", f"{span.context.span_id:016x}"]


def _ids_in(metadata: object) -> list[str]:
    assert isinstance(metadata, dict)
    version, trace_id, span_id, _flags = metadata["traceparent"].split("-")
    assert version == "00"
    return [trace_id, span_id]


async def test_an_event_carries_the_span_that_appended_it_to_the_relay(
    traced: InMemorySpanExporter, store: PostgresEventStore
) -> None:
    with tracing.span("append"):
        await store.append_events("s", 0, [NewEvent("A", {"n": 1}, metadata={"k": "v"})])
    await store.append_events("s", 1, [NewEvent("B", {"n": 2})])  # outside any span
    tracing.disable()
    await store.append_events("s", 2, [NewEvent("C", {"n": 3})])  # tracing off

    published = await store.read_all(0, 10)  # what the relay reads
    assert [sorted(e.metadata) for e in published] == [["k", "traceparent"], [], []]
    assert published[0].metadata["k"] == "v"
    assert _ids_in(published[0].metadata) == _ids(traced, "append")
    assert (await store.verify_stream("s")).ok


async def test_appends_committed_together_keep_each_their_own_span(
    traced: InMemorySpanExporter, store: PostgresEventStore
) -> None:
    async def append(n: int) -> None:
        with tracing.span(f"append {n}"):
            await store.append_events(f"s{n}", 0, [NewEvent("A", {"n": n})])

    await asyncio.gather(*(append(n) for n in range(40)))
    for n in range(40):
        (event,) = await store.read_stream(f"s{n}")
        assert _ids_in(event.metadata) == _ids(traced, f"append {n}")


async def test_a_retry_from_another_span_is_still_a_retry(
    traced: InMemorySpanExporter, store: PostgresEventStore
) -> None:
    batch = [NewEvent("Bet", {"coins": 5}, event_id=uuid.uuid4())]
    with tracing.span("first"):
        first = await store.append_events("t", 0, batch)
    with tracing.span("retry"):
        again = await store.append_events("t", 0, batch)
    assert again == first
    assert _ids_in(first[0].metadata) == _ids(traced, "first")
