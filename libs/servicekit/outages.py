"""A call that failed because PostgreSQL or NATS went away under it is UNAVAILABLE.

While the database restarts, a handler's query fails with a lost connection, a refused
connect or "the database system is shutting down"; while NATS restarts, a publish finds
no connection. None of these is a bug of the service or of the caller, and a client app
should wait and try again, which is what UNAVAILABLE tells it (``tavolo.cli.play.table_client``
retries it). Before this, they reached clients as INTERNAL, which says "a bug, do not
retry"; `tavolo simulate --chaos` found them. A transaction cut off this way is rolled
back by PostgreSQL, and the calls a client retries are idempotent by their request ids.
"""

from __future__ import annotations

import asyncpg
from nats import errors as nats_errors

MESSAGE = "a server this service depends on is restarting or slow to answer: try again"

OUTAGES: tuple[type[BaseException], ...] = (
    # The connection went away, or cannot be made yet.
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    # 57P01 admin shutdown, 57P03 cannot connect now: the server is stopping or starting.
    asyncpg.exceptions.OperatorInterventionError,
    # A Unix socket that is not there (yet) or a TCP connection refused or reset.
    ConnectionError,
    FileNotFoundError,
    # A connection that could not be made in time: a database starting again under load
    # (asyncpg's connect timeout), a publish NATS did not acknowledge.
    TimeoutError,
    # NATS is restarting.
    nats_errors.ConnectionClosedError,
    nats_errors.NoServersError,
    nats_errors.OutboundBufferLimitError,
    nats_errors.StaleConnectionError,
)


def is_outage(exc: BaseException) -> bool:
    """Whether ``exc`` is a dependency restarting rather than a bug."""
    return isinstance(exc, OUTAGES) or _terminated_while_idle(exc)


def _terminated_while_idle(exc: BaseException) -> bool:
    """A pooled connection whose server process was terminated while it sat idle (the
    database stopping, ``pg_terminate_backend``): asyncpg reads the server's farewell
    only at the connection's next use, which then fails with this internal error rather
    than a lost connection (asyncpg issue 1069). The statement was never sent, and the
    pool drops the connection when it comes back."""
    return isinstance(exc, asyncpg.InternalClientError) and "another operation" in str(exc)
