"""structlog set-up: JSON lines in production, readable console locally.

Request-scoped values (service, request id, player id, table id) are bound with
``structlog.contextvars`` by the gRPC interceptor and by consumers, so every log line a
handler writes carries them without passing a logger around.
"""

from __future__ import annotations

import logging
import sys

import structlog

from tavolo.servicekit.tracing import add_trace_ids

_LEVELS = {
    "debug": logging.DEBUG,
    "info": logging.INFO,
    "warning": logging.WARNING,
    "error": logging.ERROR,
}


def configure_logging(log_format: str = "console", level: str = "info") -> None:
    """Configure structlog and the standard library's root logger once, at start-up."""
    numeric = _LEVELS.get(level, logging.INFO)
    shared: list[structlog.types.Processor] = [
        structlog.contextvars.merge_contextvars,
        add_trace_ids,
        structlog.processors.add_log_level,
        structlog.processors.TimeStamper(fmt="iso", utc=True),
        structlog.processors.StackInfoRenderer(),
    ]
    renderer: structlog.types.Processor
    if log_format == "json":
        shared.append(structlog.processors.format_exc_info)
        renderer = structlog.processors.JSONRenderer()
    else:
        renderer = structlog.dev.ConsoleRenderer(colors=sys.stderr.isatty())
    structlog.configure(
        processors=[*shared, renderer],
        wrapper_class=structlog.make_filtering_bound_logger(numeric),
        logger_factory=structlog.PrintLoggerFactory(file=sys.stderr),
        cache_logger_on_first_use=True,
    )
    logging.basicConfig(level=max(numeric, logging.WARNING), stream=sys.stderr)
