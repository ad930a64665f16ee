"""Waiting for what crosses NATS in the background, without timing assertions."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable


async def eventually(
    check: Callable[[], Awaitable[object]], what: str = "the condition", within: float = 30.0
) -> None:
    """Poll ``check`` until it returns something true; fail naming ``what`` after
    ``within`` seconds."""
    loop = asyncio.get_running_loop()
    deadline = loop.time() + within
    while not await check():
        if loop.time() > deadline:
            raise AssertionError(f"gave up waiting after {within:.0f}s: {what}")
        await asyncio.sleep(0.02)
