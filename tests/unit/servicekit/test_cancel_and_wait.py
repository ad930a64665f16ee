"""A service's stop ends every background task, even one that lost its cancellation.

On Python 3.11 ``asyncio.wait_for`` (inside nats-py's ``next_msg``) returns its inner
result when that completes in the same turn as a cancellation, and the task carries on
as if never cancelled; a stop that cancels once and awaits then waits for ever.
"""

from __future__ import annotations

import asyncio

from tavolo.servicekit.runtime import cancel_and_wait


async def _loses_its_first_cancellation(ended: list[str]) -> None:
    swallowed = False
    while True:
        try:
            await asyncio.sleep(0.01)
        except asyncio.CancelledError:
            if swallowed:
                ended.append("cancelled")
                raise
            swallowed = True  # as a wait_for that returned its result instead


async def test_a_task_that_swallows_the_first_cancel_is_cancelled_again() -> None:
    ended: list[str] = []
    task = asyncio.create_task(_loses_its_first_cancellation(ended))
    await asyncio.sleep(0.02)
    await asyncio.wait_for(cancel_and_wait([task], resend=0.05), timeout=10)
    assert task.cancelled() and ended == ["cancelled"]


async def test_tasks_that_ended_or_failed_are_collected_without_raising() -> None:
    async def fails() -> None:
        raise RuntimeError("crashed before the stop")

    async def waits() -> None:
        await asyncio.Event().wait()

    failed = asyncio.create_task(fails())
    waiting = asyncio.create_task(waits())
    await asyncio.sleep(0)
    await asyncio.wait_for(cancel_and_wait([failed, waiting]), timeout=10)
    assert isinstance(failed.exception(), RuntimeError)
    assert waiting.cancelled()
