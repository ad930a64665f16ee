"""`tavolo play pika --server`: a person plays Pika against bots at the engine over gRPC,
then checks the game with `tavolo audit verify` with their own login (the engine's "done
when"; a player may check the tables they sat at once they have ended)."""

from __future__ import annotations

import asyncio
import io
import re

import pytest

from tavolo.cli.main import main as tavolo
from tavolo.cli.play.remote import play_at_server
from tests.integration.engine.helpers import running_engine, settings, token

pytestmark = pytest.mark.e2e


async def test_a_terminal_player_finishes_a_game_at_the_engine_and_verifies_it(
    database_url: str,
    nats_url: str,
    namespace: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: object,
) -> None:
    monkeypatch.setenv("TAVOLO_CLIENT_DIR", str(tmp_path))  # no saved login: --token only
    answers: list[str] = []

    def always_first(prompt: str) -> str:
        answers.append(prompt)
        return "1"

    async with running_engine(settings(database_url, nats_url, namespace)) as engine:
        server = f"127.0.0.1:{engine.port}"
        player = "giulia"
        session = token(player)  # a player's token, as the lobby issues at login
        out = io.StringIO()
        code = await asyncio.wait_for(
            play_at_server(
                server, session, player, "pika", 3, "medium", always_first, out, bot_think_millis=0
            ),
            timeout=120,
        )
        text = out.getvalue()
        assert code == 0, text
        assert answers, "the player was never asked to choose"
        # AUDIT-3: the player is shown the receipt and the whole command that checks it.
        receipt = re.search(
            r"Your receipt, the hash of the log as the table ended:\s+(\w{64})", text
        )
        assert receipt is not None, text
        match = re.search(r"tavolo audit verify --receipt (\w{64}) (\S+)", text)
        assert match is not None, text
        assert match.group(1) == receipt.group(1)
        capsys.readouterr()
        verify = ["audit", "verify", "--receipt", match.group(1), match.group(2)]
        verdict = await asyncio.to_thread(tavolo, [*verify, "--server", server, "--token", session])
        assert verdict == 0
        shown = capsys.readouterr().out
        assert "verdict: OK" in shown
        assert "the stored log is the one the players were given" in shown
