"""Waiting for what crosses NATS in the background, without timing assertions."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable


async def eventually(check: Callable[[], Awaitable[object]], within: float = 30.0) -> None:
    """Poll ``check`` until it returns something true; fail after ``within`` seconds."""
    async with asyncio.timeout(within):
        while True:
            if await check():
                return
            await asyncio.sleep(0.05)
