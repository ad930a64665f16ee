"""A lobby per test, on its own database and NATS namespace."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from .harness import Lobby, running_lobby


@pytest.fixture
async def lobby(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Lobby]:
    async with running_lobby(database_url, nats_url, namespace) as running:
        yield running
