"""The four services in-process on their own event loop thread, for blocking clients.

Hypothesis drives synchronous test functions, so the fuzz test calls the services with
blocking gRPC stubs while the platform (the same one the e2e suite runs in-process) keeps
serving on a loop of its own.
"""

from __future__ import annotations

import asyncio
import threading
from collections.abc import Coroutine
from types import TracebackType
from typing import Any, TypeVar

from tests.integration.lobby.platform import Platform, running_platform

T = TypeVar("T")


class BackgroundPlatform:
    """``with BackgroundPlatform(...) as running:`` then ``running.ports['engine']``."""

    def __init__(self, database_url: str, nats_url: str, namespace: str) -> None:
        self._loop = asyncio.new_event_loop()
        self._thread = threading.Thread(target=self._loop.run_forever, daemon=True)
        self._context = running_platform(database_url, nats_url, namespace, with_leaderboard=True)
        self.ports: dict[str, int] = {}

    def _run(self, work: Coroutine[Any, Any, T]) -> T:
        return asyncio.run_coroutine_threadsafe(work, self._loop).result(timeout=180)

    def __enter__(self) -> BackgroundPlatform:
        self._thread.start()
        try:
            platform: Platform = self._run(self._context.__aenter__())
        except BaseException:
            self._stop_loop()
            raise
        self.ports = {name: service.port for name, service in platform.services.items()}
        return self

    def __exit__(
        self,
        kind: type[BaseException] | None,
        error: BaseException | None,
        trace: TracebackType | None,
    ) -> None:
        try:
            self._run(self._context.__aexit__(kind, error, trace))
        finally:
            self._stop_loop()

    def _stop_loop(self) -> None:
        self._loop.call_soon_threadsafe(self._loop.stop)
        self._thread.join(timeout=30)
        self._loop.close()
