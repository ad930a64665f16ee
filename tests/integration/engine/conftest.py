"""Fixtures for the engine's integration tests: a running engine and a stub to call it."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tavolo.servicekit.runtime import RunningService
from tavolo.servicekit.settings import Settings
from tavolo.v1 import engine_pb2_grpc
from tests.integration.engine.helpers import channel, running_engine, settings


@pytest.fixture
def engine_settings(database_url: str, nats_url: str, namespace: str) -> Settings:
    return settings(database_url, nats_url, namespace)


@pytest.fixture
async def engine(engine_settings: Settings) -> AsyncIterator[RunningService]:
    async with running_engine(engine_settings) as service:
        yield service


@pytest.fixture
async def stub(engine: RunningService) -> AsyncIterator[engine_pb2_grpc.EngineStub]:
    async with channel(engine.port) as s:
        yield s
