"""Prometheus metrics shared by every service, labelled by service name.

Collectors are created once per process (prometheus_client's registry is process-wide);
each service exposes them on its own metrics port.
"""

from __future__ import annotations

from typing import Protocol

from prometheus_client import Counter, Gauge, Histogram, start_http_server


class PoolSizes(Protocol):
    """What of an asyncpg pool the metrics read."""

    def get_size(self) -> int: ...
    def get_idle_size(self) -> int: ...
    def get_max_size(self) -> int: ...


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
TABLES_IN_PLAY = Gauge(
    "tavolo_tables_in_play",
    "Tables being played whose latest move this replica committed (summed over the"
    " replicas: every table in play, each counted once)",
    ["service"],
)
DB_POOL_IN_USE = Gauge(
    "tavolo_db_pool_in_use", "PostgreSQL connections of the pool lent out now", ["service"]
)
DB_POOL_MAX = Gauge(
    "tavolo_db_pool_max", "PostgreSQL connections the pool may open at most", ["service"]
)


def watch_pool(service: str, pool: PoolSizes) -> None:
    """Export ``pool``'s use as read at each scrape (saturation: in use over max)."""
    DB_POOL_IN_USE.labels(service).set_function(lambda: pool.get_size() - pool.get_idle_size())
    DB_POOL_MAX.labels(service).set_function(pool.get_max_size)


def serve_metrics(port: int, host: str = "127.0.0.1") -> None:
    """Expose /metrics on ``port`` (0 disables it, as tests do)."""
    if port:
        start_http_server(port, addr=host)
