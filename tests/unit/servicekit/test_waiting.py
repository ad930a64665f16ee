"""`wait_event` keeps a cancellation that arrives in the very turn its event is set, where
Python 3.11's ``asyncio.wait_for`` returned the result and dropped it."""

from __future__ import annotations

import asyncio

import pytest

from tavolo.servicekit.waiting import wait_event


async def test_it_tells_whether_the_event_was_set_in_time() -> None:
    event = asyncio.Event()
    assert not await wait_event(event, 0.01)
    asyncio.get_running_loop().call_later(0.01, event.set)
    assert await wait_event(event, 5)


async def test_a_cancellation_in_the_turn_the_event_is_set_is_not_lost() -> None:
    event = asyncio.Event()
    waiting = asyncio.create_task(wait_event(event, 10))
    await asyncio.sleep(0)  # it is waiting now
    event.set()
    waiting.cancel()
    with pytest.raises(asyncio.CancelledError):
        await waiting
