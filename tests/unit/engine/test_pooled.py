"""A statement's connection goes back to the pool without holding its caller up, and one
whose statement failed goes back before the error reaches the caller."""

from __future__ import annotations

import asyncio
from typing import Any

import pytest

from tavolo.engine.pooled import one_statement


class FakeConnection:
    def __init__(self) -> None:
        self.in_transaction = False

    def is_in_transaction(self) -> bool:
        return self.in_transaction


class FakePool:
    """Counts acquires and releases; a release takes a turn of the loop, as asyncpg's."""

    def __init__(self) -> None:
        self.conn = FakeConnection()
        self.out = 0
        self.released = 0

    async def acquire(self) -> FakeConnection:
        self.out += 1
        return self.conn

    async def release(self, conn: Any) -> None:
        await asyncio.sleep(0)
        self.out -= 1
        self.released += 1


async def test_the_caller_carries_on_before_the_release_and_the_release_follows() -> None:
    pool = FakePool()
    async with one_statement(pool) as conn:
        assert conn is pool.conn
    assert pool.released == 0  # not waited for
    for _ in range(3):
        await asyncio.sleep(0)
    assert (pool.out, pool.released) == (0, 1)


async def test_a_failed_statement_gives_its_connection_back_before_raising() -> None:
    pool = FakePool()
    with pytest.raises(RuntimeError):
        async with one_statement(pool):
            raise RuntimeError("the statement failed")
    assert (pool.out, pool.released) == (0, 1)


async def test_a_connection_left_in_a_transaction_is_given_back_at_once() -> None:
    pool = FakePool()
    async with one_statement(pool) as conn:
        conn.in_transaction = True
    assert (pool.out, pool.released) == (0, 1)
