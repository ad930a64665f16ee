"""A migrated wallet schema on a fresh database, the use cases over it, and a clock to move."""

from __future__ import annotations

import datetime as dt
from collections.abc import AsyncIterator

import asyncpg
import pytest

from tavolo.servicekit.auth import Principal, Role
from tavolo.wallet import store
from tavolo.wallet.app import WalletApp
from tavolo.wallet.config import WalletConfig
from tavolo.wallet.settlement import Settlement

from .running import Running, wallet_on_nats

LOBBY = Principal("lobby", frozenset({Role.SERVICE}))
OPERATOR = Principal("op", frozenset({Role.OPERATOR}))
MODERATOR = Principal("mod", frozenset({Role.MODERATOR}))


class Clock:
    """Time that moves only when a test says so."""

    def __init__(self) -> None:
        self.now = dt.datetime(2026, 3, 2, 12, 0, tzinfo=dt.UTC)

    def __call__(self) -> dt.datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += dt.timedelta(seconds=seconds)


@pytest.fixture
async def pool(database_url: str) -> AsyncIterator[asyncpg.Pool]:
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=8)
    await store.migrate(pool)
    yield pool
    await pool.close()


@pytest.fixture
def clock() -> Clock:
    return Clock()


@pytest.fixture
def wallet(pool: asyncpg.Pool, clock: Clock) -> WalletApp:
    return WalletApp(pool, WalletConfig(), clock)


@pytest.fixture
def settlement(clock: Clock) -> Settlement:
    return Settlement(WalletConfig(), clock)


@pytest.fixture
async def running(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Running]:
    """The wallet service consuming events, with short ack and sweep intervals."""
    config = WalletConfig(ack_wait=2.0, sweep_seconds=0.2)
    async with wallet_on_nats(database_url, nats_url, namespace, config) as wallet:
        yield wallet
