"""`tavolo play solitario --server`: one seat plays Klondike at the engine, with no
opponents, and the recorded table replays under `tavolo audit verify` (SOLITARIO, PCG-8)."""

from __future__ import annotations

import asyncio
import io
import re

import pytest

from tavolo.cli.main import main as tavolo
from tavolo.cli.play.remote import play_at_server
from tests.integration.engine.helpers import running_engine, settings
from tests.integration.engine.helpers import token as session_token

pytestmark = pytest.mark.e2e


async def test_a_lone_player_plays_solitario_at_the_engine_and_the_table_verifies(
    database_url: str,
    nats_url: str,
    namespace: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: object,
) -> None:
    monkeypatch.setenv("TAVOLO_CLIENT_DIR", str(tmp_path))  # no saved login: --token only
    out = io.StringIO()
    asked: list[str] = []

    def first_then_stop(prompt: str) -> str:
        asked.append(prompt)
        if len(asked) <= 8:
            return "1"
        return re.findall(r"(\d+)\) stop here", out.getvalue())[-1]

    async with running_engine(settings(database_url, nats_url, namespace)) as engine:
        server = f"127.0.0.1:{engine.port}"
        player = "giulia"
        token = session_token(player)  # a player's token, as the lobby issues at login
        code = await asyncio.wait_for(
            play_at_server(
                server,
                token,
                player,
                "solitario",
                1,
                "medium",
                first_then_stop,
                out,
                bot_think_millis=0,
            ),
            timeout=120,
        )
        text = out.getvalue()
        assert code == 0, text
        assert "you alone" in text and "--- Solitario, draw 1, standard scoring" in text
        assert "You stopped with " in text and re.search(r" 1st  You \(\d+ points", text), text
        match = re.search(r"tavolo audit verify (?:--receipt \w+ )?(\S+)", text)
        assert match is not None, text
        capsys.readouterr()
        verdict = await asyncio.to_thread(
            tavolo, ["audit", "verify", match.group(1), "--server", server, "--token", token]
        )
        assert verdict == 0
        assert "verdict: OK" in capsys.readouterr().out
