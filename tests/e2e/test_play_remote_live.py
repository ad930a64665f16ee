"""The terminal seat at the engine keeps up with the table while its player thinks, and
rides out an engine restart instead of giving up."""

from __future__ import annotations

import asyncio
import io
import queue
import re

import pytest

from tavolo.cli.play.remote import play_at_server
from tavolo.engine.bootstrap import assemble
from tavolo.servicekit.embedded import free_port
from tavolo.servicekit.runtime import start_service
from tests.integration.engine.helpers import settings, token

pytestmark = pytest.mark.e2e

PROMPT = "Your choice"


class Typist:
    """A player at the keyboard: each read waits until the test types a line."""

    def __init__(self) -> None:
        self.lines: queue.Queue[str | None] = queue.Queue()
        self.reads = 0

    def __call__(self, prompt: str) -> str | None:
        self.reads += 1
        return self.lines.get(timeout=300)


async def _until(out: io.StringIO, check: object, limit: float = 90) -> str:
    assert callable(check)
    for _ in range(int(limit * 10)):
        if check(out.getvalue()):
            return out.getvalue()
        await asyncio.sleep(0.1)
    raise AssertionError(f"the screen never showed it:\n{out.getvalue()}")


async def test_news_keeps_coming_while_the_player_is_at_a_prompt(
    database_url: str, nats_url: str, namespace: str
) -> None:
    typist = Typist()
    cfg = settings(database_url, nats_url, namespace)
    service = await start_service("engine", assemble, cfg, port=0)
    try:
        out = io.StringIO()
        game = asyncio.create_task(
            play_at_server(
                f"127.0.0.1:{service.port}",
                token("p-slow"),
                "p-slow",
                "pika",
                2,
                "easy",
                typist,
                out,
                bot_think_millis=200,  # the table waits for the bot: seat 0 is told
                turn_seconds=1,
            )
        )
        # The player never answers: the turn clock plays for them, the bot plays, and
        # each new turn is shown with its prompt while the first read is still waiting.
        text = await _until(out, lambda t: t.count(PROMPT) >= 3)
        assert typist.reads == 1
        after_first = text.split(PROMPT, 1)[1]
        assert re.search(r"^You (drew|kept|took)", after_first, re.MULTILINE), text
        assert re.search(r"^Bot 1 \(easy\) ", after_first, re.MULTILINE), text
        assert after_first.count("\nWaiting for Bot 1 (easy) to play") >= 2  # seat 0 is told
        typist.lines.put("quit")
        assert await asyncio.wait_for(game, 60) == 1
        assert "You left table" in out.getvalue()
    finally:
        await service.stop(grace=0.5)


async def test_the_client_comes_back_after_the_engine_restarts(
    database_url: str, nats_url: str, namespace: str
) -> None:
    typist = Typist()
    cfg = settings(database_url, nats_url, namespace)
    port = free_port()
    service = await start_service("engine", assemble, cfg, port=port)
    out = io.StringIO()
    game = asyncio.create_task(
        play_at_server(
            f"127.0.0.1:{port}",
            token("p-back"),
            "p-back",
            "pika",
            2,
            "easy",
            typist,
            out,
            bot_think_millis=0,
            nickname="Back",
        )
    )
    try:
        await _until(out, lambda t: PROMPT in t)
        await service.stop(grace=0.5)
        await _until(out, lambda t: "not reachable" in t or "closed the table's stream" in t)
        service = await start_service("engine", assemble, cfg, port=port)
        await _until(out, lambda t: "Back at table" in t)
        for _ in range(2000):  # always the first choice, to the end of the game
            typist.lines.put("1")
        code = await asyncio.wait_for(game, 240)
        assert code == 0, out.getvalue()
        assert re.search(
            r"tavolo audit verify (?:--receipt \w+ )?\S+ --as Back$", out.getvalue(), re.MULTILINE
        )
    finally:
        game.cancel()
        await service.stop(grace=0.5)
