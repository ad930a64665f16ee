"""Bad settings stop a service with one clear sentence, not a driver's traceback."""

from __future__ import annotations

import asyncio
import socket
import subprocess
import time
from collections.abc import AsyncIterator, Iterator
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

import pytest

from tavolo.servicekit.connect import StartupError, connect_nats, create_pool, redact_url
from tavolo.servicekit.embedded import free_port, nats_server_binary

pytestmark = pytest.mark.integration


def closed_port() -> int:
    """A port nothing listens on (it was free a moment ago)."""
    return free_port()


def assert_plain(error: StartupError) -> None:
    """No driver exception chained behind it: the message is the whole story."""
    assert error.__cause__ is None and error.__suppress_context__


async def test_unreachable_postgres_is_named_with_the_reason() -> None:
    port = closed_port()
    with pytest.raises(StartupError) as caught:
        await create_pool(f"postgresql://tavolo@127.0.0.1:{port}/tavolo", connect_timeout=2)
    assert str(caught.value) == (
        f"cannot reach PostgreSQL at postgresql://tavolo@127.0.0.1:{port}/tavolo:"
        " connection refused (is the server running, and on that port?)"
    )
    assert_plain(caught.value)


async def test_a_missing_database_is_named(postgres_server_url: str) -> None:
    url = urlunsplit(urlsplit(postgres_server_url)._replace(path="/no_such_db"))
    with pytest.raises(StartupError, match='database "no_such_db" does not exist') as caught:
        await create_pool(url)
    assert str(caught.value).startswith("cannot reach PostgreSQL at ")
    assert_plain(caught.value)


async def test_unknown_host_and_malformed_urls_are_explained() -> None:
    with pytest.raises(StartupError, match="host name not found"):
        await create_pool("postgresql://tavolo@no-such-host.invalid/tavolo", connect_timeout=2)
    with pytest.raises(StartupError, match="port"):
        await create_pool("postgresql://tavolo@127.0.0.1:99999/tavolo")


async def test_passwords_never_appear_in_the_message() -> None:
    port = closed_port()
    with pytest.raises(StartupError) as caught:
        await create_pool(f"postgresql://ada:hunter2@127.0.0.1:{port}/tavolo", connect_timeout=2)
    assert "hunter2" not in str(caught.value)
    assert f"ada:***@127.0.0.1:{port}" in str(caught.value)
    assert redact_url("nats://u:p@h:4222") == "nats://u:***@h:4222"


async def test_a_good_postgres_url_gives_a_working_pool(database_url: str) -> None:
    pool = await create_pool(database_url)
    try:
        assert await pool.fetchval("SELECT 41 + 1") == 42
    finally:
        await pool.close()


async def test_unreachable_nats_is_named_with_the_reason() -> None:
    port = closed_port()
    with pytest.raises(StartupError) as caught:
        await connect_nats(f"nats://127.0.0.1:{port}", connect_timeout=2)
    assert str(caught.value) == (
        f"cannot reach NATS at nats://127.0.0.1:{port}:"
        " connection refused (is the server running, and on that port?)"
    )
    assert_plain(caught.value)


@pytest.fixture
async def silent_server() -> AsyncIterator[int]:
    """A TCP port that accepts connections and never says a word (not a NATS server)."""

    async def ignore(reader: asyncio.StreamReader, writer: asyncio.StreamWriter) -> None:
        await reader.read()
        writer.close()

    server = await asyncio.start_server(ignore, "127.0.0.1", 0)
    yield server.sockets[0].getsockname()[1]
    server.close()


async def test_something_that_is_not_nats_is_reported(silent_server: int) -> None:
    with pytest.raises(StartupError, match="no answer within 1s"):
        await connect_nats(f"nats://127.0.0.1:{silent_server}", connect_timeout=1)


@pytest.fixture
def nats_without_jetstream(tmp_path: Path) -> Iterator[str]:
    port = free_port()
    process = subprocess.Popen(
        [nats_server_binary(), "-a", "127.0.0.1", "-p", str(port), "-l", str(tmp_path / "log")],
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    try:
        deadline = time.monotonic() + 15
        while True:
            try:
                socket.create_connection(("127.0.0.1", port), timeout=0.2).close()
                break
            except OSError:
                if process.poll() is not None or time.monotonic() > deadline:
                    raise RuntimeError("nats-server without JetStream did not start") from None
                time.sleep(0.05)
        yield f"nats://127.0.0.1:{port}"
    finally:
        process.terminate()
        process.wait(10)


async def test_nats_without_jetstream_is_refused(nats_without_jetstream: str) -> None:
    with pytest.raises(StartupError, match="does not offer JetStream") as caught:
        await connect_nats(nats_without_jetstream, connect_timeout=2)
    assert "-js" in str(caught.value)


async def test_a_nats_server_older_than_required_is_refused(nats_url: str) -> None:
    # The embedded server is recent; asking for a future version shows the refusal.
    with pytest.raises(StartupError, match=r"is nats-server \d+\.\d+\.\d+; Tavolo needs 99\.0"):
        await connect_nats(nats_url, connect_timeout=2, min_version=(99, 0))


async def test_a_good_nats_url_gives_a_connection_with_jetstream(nats_url: str) -> None:
    nc = await connect_nats(nats_url, name="probe")
    try:
        assert nc.is_connected
        await nc.jetstream().account_info()
    finally:
        await nc.close()
