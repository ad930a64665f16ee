"""A dependency restarting under a call is UNAVAILABLE (retry), never INTERNAL (a bug)."""

from __future__ import annotations

import asyncpg
import grpc
import pytest
from nats import errors as nats_errors

from tavolo.servicekit.interceptors import status_for
from tavolo.servicekit.outages import is_outage


@pytest.mark.parametrize(
    "error",
    [
        asyncpg.exceptions.CannotConnectNowError("the database system is shutting down"),
        asyncpg.exceptions.AdminShutdownError("terminating connection"),
        asyncpg.exceptions.ConnectionDoesNotExistError("connection was closed"),
        asyncpg.InterfaceError("connection has been released back to the pool"),
        # the next use of a pooled connection whose server process was terminated
        asyncpg.InternalClientError("cannot switch to state 12; another operation (2) is in"),
        FileNotFoundError(2, "No such file or directory"),
        ConnectionRefusedError(111, "Connection refused"),
        nats_errors.ConnectionClosedError(),
        TimeoutError(),  # asyncpg's connect timeout while the database starts again
    ],
)
def test_a_restarting_database_or_broker_is_unavailable(error: Exception) -> None:
    assert is_outage(error)
    assert status_for(error, {}) is grpc.StatusCode.UNAVAILABLE


@pytest.mark.parametrize(
    "error",
    [
        KeyError("x"),
        ValueError("bad"),
        ZeroDivisionError(),
        asyncpg.InternalClientError("got result for unknown protocol state 0"),
    ],
)
def test_a_bug_is_still_a_bug(error: Exception) -> None:
    assert not is_outage(error)
    assert status_for(error, {}) is None


def test_a_constraint_violation_is_no_outage() -> None:
    assert not is_outage(asyncpg.exceptions.UniqueViolationError("duplicate key"))
