"""Prometheus metrics shared by every service, labelled by service name.

Collectors are created once per process (prometheus_client's registry is process-wide);
each service exposes them on its own metrics port.
"""

from __future__ import annotations

from prometheus_client import Counter, Gauge, Histogram, start_http_server

RPC_TOTAL = Counter("tavolo_rpc_total", "gRPC calls handled", ["service", "method", "code"])
RPC_SECONDS = Histogram(
    "tavolo_rpc_seconds",
    "gRPC handling time",
    ["service", "method"],
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5),
)
EVENTS_HANDLED = Counter(
    "tavolo_events_handled_total", "NATS events handled", ["service", "consumer", "outcome"]
)

OUTBOX_BACKLOG = Gauge(
    "tavolo_outbox_backlog",
    "Events committed to the log but not yet confirmed by JetStream",
    ["service"],
)
TIMER_OVERDUE_SECONDS = Gauge(
    "tavolo_timer_overdue_seconds",
    "How long the oldest due turn timer has waited to be fired (0 when none waits)",
    ["service"],
)
TIMER_TAKEOVERS = Counter(
    "tavolo_timer_takeovers_total",
    "Due timers of another replica's tables fired here, that replica having stopped or"
    " fallen behind the others",
    ["service"],
)
TIMER_GAVE_WAY_SECONDS = Counter(
    "tavolo_timer_gave_way_seconds",
    "Time the timer loop paused its bots so that players' calls went first",
    ["service"],
)


def serve_metrics(port: int, host: str = "127.0.0.1") -> None:
    """Expose /metrics on ``port`` (0 disables it, as tests do)."""
    if port:
        start_http_server(port, addr=host)
