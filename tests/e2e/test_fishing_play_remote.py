"""`tavolo play scopa --server`: a fishing game at a real engine table over gRPC, shown
with its end-of-hand count, and verified by `tavolo audit verify` like any other game."""

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


async def test_scopa_is_played_to_the_end_at_the_engine_and_verifies(
    database_url: str,
    nats_url: str,
    namespace: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: object,
) -> None:
    monkeypatch.setenv("TAVOLO_CLIENT_DIR", str(tmp_path))

    def always_first(prompt: str) -> str:
        return "1"

    async with running_engine(settings(database_url, nats_url, namespace)) as engine:
        server = f"127.0.0.1:{engine.port}"
        player = "giulia"
        token = session_token(player)  # a player's token, as the lobby issues at login
        out = io.StringIO()
        code = await asyncio.wait_for(
            play_at_server(
                server, token, player, "scopa", 2, "easy", always_first, out, bot_think_millis=0
            ),
            timeout=180,
        )
        text = out.getvalue()
        assert code == 0, text
        assert "The hand is over. The count:" in text
        assert re.search(r"^ +You +Bot 1$", text, re.M), text  # the count's columns
        assert re.search(r"^  primiera +\d+( \+1)? +\d+( \+1)?$", text, re.M), text
        assert "--- Final places" in text
        match = re.search(r"tavolo audit verify (?:--receipt \w+ )?(\S+)", text)
        assert match is not None, text
        capsys.readouterr()
        verdict = await asyncio.to_thread(
            tavolo, ["audit", "verify", match.group(1), "--server", server, "--token", token]
        )
        assert verdict == 0
        assert "verdict: OK" in capsys.readouterr().out
