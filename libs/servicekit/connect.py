"""Open the PostgreSQL pool and the NATS connection, or say plainly why not.

A wrong URL or a server that is down must stop a service at start with one line a person
can act on ("cannot reach PostgreSQL at postgresql://app:***@db:5432/tavolo: connection
refused"), not with a driver's traceback. Passwords never appear in these messages.
"""

from __future__ import annotations

import asyncio
import socket
import ssl
from typing import Any, Final
from urllib.parse import urlsplit, urlunsplit

import asyncpg
import structlog
from nats.aio.client import Client as NATS

log = structlog.get_logger("tavolo.connect")

MIN_NATS_VERSION: Final = (2, 10)
"""The oldest nats-server the platform runs on: consumers that filter several subjects
need 2.10, and an older server ignores that filter and delivers the whole stream."""


class StartupError(Exception):
    """A dependency cannot be reached or used; the message says which, where and why."""


def redact_url(url: str) -> str:
    """``url`` with any password replaced by ``***``."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return "<unparseable URL>"
    if parts.password is None:
        return url
    user = parts.username or ""
    host = parts.hostname or ""
    if parts.port is not None:
        host = f"{host}:{parts.port}"
    return urlunsplit(parts._replace(netloc=f"{user}:***@{host}"))


def describe(exc: BaseException, timeout: float) -> str:
    """A short, human reason for a failed connection."""
    if isinstance(exc, ConnectionRefusedError):
        return "connection refused (is the server running, and on that port?)"
    if isinstance(exc, socket.gaierror):
        return "host name not found"
    if isinstance(exc, TimeoutError | asyncio.TimeoutError):
        return f"no answer within {timeout:g}s"
    if isinstance(exc, ssl.SSLError):
        return f"TLS failed: {exc.reason or exc}"
    text = str(exc).strip()
    return text or type(exc).__name__


async def create_pool(
    url: str,
    *,
    min_size: int = 1,
    max_size: int = 10,
    connect_timeout: float = 5.0,
    **options: Any,
) -> asyncpg.Pool:
    """An asyncpg pool on ``url``; StartupError if the database cannot be reached or entered.

    A connection goes back to the pool without asyncpg's reset query (``RESET ALL``,
    ``UNLISTEN *``, unlocking advisory locks...): that is one more round trip on every
    release, on every command's path, to undo session state the services do not leave
    behind (they use ``SET LOCAL`` and transaction-scoped locks; the two holders of
    session state, the relay's lock and the notice listener, undo it themselves or close
    their connection). asyncpg still rolls back a transaction left open.
    """
    where = redact_url(url)
    options.setdefault("reset", _keep_session)
    try:
        pool = await asyncpg.create_pool(
            url, min_size=min_size, max_size=max_size, timeout=connect_timeout, **options
        )
    except Exception as exc:  # refused, unknown host, auth, no such database, bad DSN...
        raise StartupError(
            f"cannot reach PostgreSQL at {where}: {describe(exc, connect_timeout)}"
        ) from None
    return pool


async def _keep_session(_conn: asyncpg.Connection) -> None:
    """The pool's reset: nothing beyond the rollback asyncpg always does (see create_pool)."""


async def connect_nats(
    url: str,
    *,
    name: str | None = None,
    connect_timeout: int = 5,
    require_jetstream: bool = True,
    min_version: tuple[int, int] = MIN_NATS_VERSION,
) -> NATS:
    """A NATS connection that reconnects for ever once up; StartupError if it never comes up.

    The first connection is tried briefly (nats.py would otherwise retry for minutes and
    then report only "no servers"); once connected, the client keeps reconnecting through
    server restarts. The server must be ``min_version`` or later and, with
    ``require_jetstream``, have JetStream enabled: a service refuses to start rather than
    run with consumers that cannot work.
    """
    where = redact_url(url)
    failures: list[BaseException] = []  # while starting: the reasons for the StartupError

    async def on_error(exc: Exception) -> None:
        if nc.is_connected:
            log.warning("nats connection error", url=where, error=str(exc) or repr(exc))
        else:
            failures.append(exc)

    async def on_disconnected() -> None:
        if not (nc.is_closed or nc.is_draining):
            log.warning("nats disconnected", url=where)

    async def on_reconnected() -> None:
        log.info("nats reconnected", url=where)

    nc = NATS()
    # A cluster is given as its nodes' URLs, comma separated: the client starts at any
    # of them and moves to another when its node goes.
    servers = [part.strip() for part in url.split(",") if part.strip()]
    try:
        await nc.connect(
            servers,
            name=name,
            connect_timeout=connect_timeout,
            max_reconnect_attempts=1,
            reconnect_time_wait=1,
            error_cb=on_error,
            disconnected_cb=on_disconnected,
            reconnected_cb=on_reconnected,
        )
    except Exception as exc:
        cause = failures[-1] if failures else exc
        raise StartupError(
            f"cannot reach NATS at {where}: {describe(cause, connect_timeout)}"
        ) from None
    # Connected: from now on ride out server restarts instead of giving up.
    nc.options["max_reconnect_attempts"] = -1
    nc.options["reconnect_time_wait"] = 2
    version = nc.connected_server_version
    if (version.major, version.minor) < min_version:
        await nc.close()
        raise StartupError(
            f"NATS at {where} is nats-server {version.major}.{version.minor}.{version.patch};"
            f" Tavolo needs {min_version[0]}.{min_version[1]} or later"
            " (its consumers filter several subjects)"
        )
    if require_jetstream:
        try:
            await nc.jetstream().account_info()
        except Exception as exc:
            await nc.close()
            raise StartupError(
                f"NATS at {where} does not offer JetStream ({describe(exc, connect_timeout)}):"
                " start nats-server with -js"
            ) from None
    return nc
