"""One online stake table followed by its traces across the four services (OPS-1).

The platform runs with tracing on (the SDK's in-memory exporter, every trace kept): four
players join a stake queue (the lobby holds each stake at the wallet), the matchmaker
forms the table (MatchFormed crosses NATS to the engine, which opens it; TableStarted
crosses back), the players play it to the end over gRPC, and the last move's
TableFinished crosses NATS to the wallet (payout), the leaderboard (league) and the lobby.

The checks: every event handled continues the span that published it, and every publish
continues the span whose transaction committed the event (through the outbox, so no trace
breaks where an event crosses NATS); each gRPC call has its client and server spans in
one trace; PostgreSQL statements are children of the span that ran them; and the traces
of the join, the match and the last move cover what the table went through, the last one
spanning all four services; the match links to the four joins, every move to the match.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace

import pytest
import structlog
from opentelemetry.sdk.trace import ReadableSpan, TracerProvider
from opentelemetry.sdk.trace.export import SimpleSpanProcessor
from opentelemetry.sdk.trace.export.in_memory_span_exporter import InMemorySpanExporter
from opentelemetry.trace import SpanKind

from tavolo.servicekit import tracing
from tavolo.v1 import engine_pb2, lobby_pb2, wallet_pb2
from tests.integration.lobby.platform import (
    PLATFORM_WALLET,
    Platform,
    play_seat,
    running_platform,
    seated_at,
)

pytestmark = pytest.mark.e2e

STAKE = 100
SERVICES = ("lobby", "engine", "wallet", "leaderboard")


@pytest.fixture
def exporter() -> Iterator[InMemorySpanExporter]:
    exporter = InMemorySpanExporter()
    provider = TracerProvider(sampler=tracing.NoStatementRoots(1.0))
    provider.add_span_processor(SimpleSpanProcessor(exporter))
    tracing.enable(provider)
    try:
        yield exporter
    finally:
        tracing.disable()


@pytest.fixture
async def platform(
    exporter: InMemorySpanExporter, database_url: str, nats_url: str, namespace: str
) -> AsyncIterator[Platform]:
    wallet = replace(PLATFORM_WALLET, welcome_coins=1000)
    async with running_platform(
        database_url, nats_url, namespace, wallet=wallet, with_leaderboard=True
    ) as running:
        yield running


def _service(span: ReadableSpan, spans: dict[int, ReadableSpan]) -> str | None:
    """The service a span ran in: that of the call or event handling it belongs to."""
    current: ReadableSpan | None = span
    while current is not None:
        attributes = current.attributes or {}
        if current.kind == SpanKind.SERVER:
            return str(attributes.get("rpc.service", "")).rsplit(".", 1)[-1].lower()
        if current.kind == SpanKind.CONSUMER:
            return str(attributes["messaging.consumer.group.name"]).split("_", 1)[0]
        if current.name == "lobby matchmaking":
            return "lobby"
        parent = current.parent
        current = spans.get(parent.span_id) if parent is not None else None
    return None


def _subject_type(span: ReadableSpan) -> str:
    return str((span.attributes or {})["messaging.destination.name"]).rsplit(".", 1)[-1]


async def _until_handled(
    exporter: InMemorySpanExporter, wanted: set[tuple[str, str]], within: float = 60
) -> list[ReadableSpan]:
    """The spans once every (consumer prefix, event type) of ``wanted`` has been handled."""
    async with asyncio.timeout(within):
        while True:
            spans = list(exporter.get_finished_spans())
            handled = {
                (
                    str((s.attributes or {})["messaging.consumer.group.name"]).split("_")[0],
                    _subject_type(s),
                )
                for s in spans
                if s.kind == SpanKind.CONSUMER
            }
            if wanted <= handled:
                return spans
            await asyncio.sleep(0.1)


async def test_ops1_a_stake_table_is_followed_across_the_services_and_nats(
    platform: Platform, exporter: InMemorySpanExporter
) -> None:
    players = [await platform.register(f"Traccia{i}") for i in range(4)]
    watchers = [asyncio.create_task(seated_at(platform, p)) for p in players]
    await asyncio.sleep(0.2)
    for player in players:
        await platform.lobby.JoinQueue(
            lobby_pb2.JoinQueueRequest(game="pika", players=4, stake=STAKE),
            metadata=player.metadata,
        )
    seats = await asyncio.gather(*watchers)
    table_id = seats[0].table_id
    views = await asyncio.gather(
        *(play_seat(platform, table_id, p, random.Random(i)) for i, p in enumerate(players))
    )
    assert all(v.status == engine_pb2.TABLE_STATUS_FINISHED for v in views)
    spans = await _until_handled(
        exporter,
        {
            ("engine", "match_formed"),
            ("wallet", "table_finished"),
            ("leaderboard", "table_finished"),
            ("lobby", "table_finished"),
        },
    )
    balance = await platform.wallet.GetBalance(
        wallet_pb2.GetBalanceRequest(), metadata=players[0].metadata
    )
    assert balance.available >= 0
    by_id = {s.context.span_id: s for s in spans}

    # No gap at NATS: each handled event continues its publish, each publish continues
    # the span whose transaction committed the event.
    consumers = [s for s in spans if s.kind == SpanKind.CONSUMER]
    producers = [s for s in spans if s.kind == SpanKind.PRODUCER]
    assert consumers and producers
    # The operator account the lobby makes at start, outside any call, is the one event
    # committed without a span: its handling starts a trace of its own.
    untraced = [c for c in consumers if c.parent is None]
    assert [_subject_type(c) for c in untraced] == ["player_registered"]
    for consumer in consumers:
        if consumer in untraced:
            continue
        publish = by_id.get(consumer.parent.span_id)
        assert publish is not None and publish.kind == SpanKind.PRODUCER, consumer.name
        assert publish.context.trace_id == consumer.context.trace_id
        assert _subject_type(publish) == _subject_type(consumer)
    for publish in producers:
        assert publish.parent is not None, publish.name
        committed = by_id.get(publish.parent.span_id)
        assert committed is not None, publish.name
        assert committed.kind != SpanKind.PRODUCER

    # Every gRPC call between services: the client span and the server span it caused.
    clients = [s for s in spans if s.kind == SpanKind.CLIENT and s.name.startswith("/tavolo")]
    assert {c.name for c in clients} >= {"/tavolo.v1.Wallet/HoldStake"}
    for client in clients:
        (server,) = [
            s
            for s in spans
            if s.kind == SpanKind.SERVER and s.parent and s.parent.span_id == client.context.span_id
        ]
        assert server.name == client.name

    # PostgreSQL statements are children of the work that ran them, never roots.
    statements = [s for s in spans if "db.system" in (s.attributes or {})]
    assert statements
    assert all(s.parent is not None and s.parent.span_id in by_id for s in statements)

    def trace_of(span: ReadableSpan) -> list[ReadableSpan]:
        return [s for s in spans if s.context.trace_id == span.context.trace_id]

    def services(trace: list[ReadableSpan]) -> set[str | None]:
        return {_service(s, by_id) for s in trace}

    # The join: the lobby holds the stake at the wallet, in the JoinQueue call's trace.
    joins = [s for s in spans if s.kind == SpanKind.SERVER and s.name.endswith("/JoinQueue")]
    assert len(joins) == 4
    for join in joins:
        trace = trace_of(join)
        assert {"/tavolo.v1.Wallet/HoldStake"} <= {
            s.name for s in trace if s.kind == SpanKind.SERVER
        }
        assert {"lobby", "wallet"} <= services(trace)

    # The match: formed by the lobby, opened by the engine, announced back.
    (formed,) = [
        s
        for s in consumers
        if _subject_type(s) == "match_formed"
        and str((s.attributes or {})["messaging.consumer.group.name"]).startswith("engine_")
    ]
    match_trace = trace_of(formed)
    assert any(s.name == "lobby matchmaking" for s in match_trace)
    # ...linked to the JoinQueue calls of the four players it seated.
    (forming,) = [s for s in match_trace if s.name == "lobby form table"]
    assert (forming.attributes or {})["table_id"] == table_id
    assert sorted(link.context.trace_id for link in forming.links) == sorted(
        join.context.trace_id for join in joins
    )
    assert {"lobby", "engine"} <= services(match_trace)
    assert any(
        s.kind == SpanKind.PRODUCER and _subject_type(s) == "table_started" for s in match_trace
    )

    # The last move: its TableFinished reaches the wallet (payout), the leaderboard
    # (league) and the lobby, in the trace of the engine's Act call.
    finished = [s for s in consumers if _subject_type(s) == "table_finished"]
    (finish_trace_id,) = {s.context.trace_id for s in finished}
    finish_trace = [s for s in spans if s.context.trace_id == finish_trace_id]
    roots = [s for s in finish_trace if s.parent is None]
    assert [r.name for r in roots] == ["/tavolo.v1.Engine/Act"]
    # Every move, this last one included, links to the match that made the table.
    moves = [s for s in spans if s.name == "engine act"]
    assert any(m.context.trace_id == finish_trace_id for m in moves)
    for move in moves:
        assert [link.context.trace_id for link in move.links] == [formed.context.trace_id]
        assert (move.attributes or {})["table_id"] == table_id
    assert services(finish_trace) >= set(SERVICES)
    for prefix in ("wallet", "leaderboard"):
        (handled,) = [
            s
            for s in finished
            if str((s.attributes or {})["messaging.consumer.group.name"]).startswith(prefix)
        ]
        writes = [
            s
            for s in finish_trace
            if "db.system" in (s.attributes or {}) and _service(s, by_id) == prefix
        ]
        assert writes, prefix
        assert handled.context.trace_id == finish_trace_id


def test_log_lines_inside_a_span_carry_its_ids(exporter: InMemorySpanExporter) -> None:
    """OPS-1: a structlog line written inside a span names the trace and the span."""
    captured: list[dict[str, object]] = []

    def keep(_logger: object, _method: str, event: dict[str, object]) -> dict[str, object]:
        captured.append(dict(event))
        raise structlog.DropEvent

    structlog.configure(processors=[tracing.add_trace_ids, keep])
    try:
        log = structlog.get_logger("t")
        log.info("outside")
        with tracing.span("inside"):
            log.info("inside")
    finally:
        structlog.reset_defaults()
    (span,) = exporter.get_finished_spans()
    assert "trace_id" not in captured[0]
    assert captured[1]["trace_id"] == format(span.context.trace_id, "032x")
    assert captured[1]["span_id"] == format(span.context.span_id, "016x")
