"""Waiting for an event with a time limit, without losing a cancellation."""

from __future__ import annotations

import asyncio


async def wait_event(event: asyncio.Event, seconds: float) -> bool:
    """Wait until ``event`` is set or ``seconds`` have passed; whether it was set.

    Through ``asyncio.timeout``, not ``asyncio.wait_for``: on Python 3.11 ``wait_for``
    returns its inner result when that completes in the same turn of the loop as a
    cancellation, and the cancellation is lost. A loop that sleeps on a wake-up event is
    woken exactly when something happens, shutdown included: the engine's timer loop,
    poked by a commit made as it was being stopped, carried on and held the stop for ever.
    """
    try:
        async with asyncio.timeout(seconds):
            await event.wait()
    except TimeoutError:
        return False
    return True
