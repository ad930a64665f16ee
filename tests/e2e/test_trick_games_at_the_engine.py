"""`tavolo play briscola --server`: a trick game at a real engine table, with bots and
timers, verified by `tavolo audit verify` like Pika (the engine is game-agnostic through
the registry; this shows a trick game goes through it unchanged), and the games in
table chips whose bets are actions with an amount: Sette e mezzo and Poker all'italiana."""

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


@pytest.mark.parametrize(("game", "players"), [("briscola", 2), ("settemezzo", 3), ("poker", 4)])
async def test_a_terminal_player_finishes_a_trick_game_at_the_engine(
    game: str,
    players: int,
    database_url: str,
    nats_url: str,
    namespace: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: object,
) -> None:
    monkeypatch.setenv("TAVOLO_CLIENT_DIR", str(tmp_path))
    asked: list[str] = []

    def always_first(prompt: str) -> str:
        asked.append(prompt)
        return "1"

    async with running_engine(settings(database_url, nats_url, namespace)) as engine:
        server = f"127.0.0.1:{engine.port}"
        player = "giulia"
        token = session_token(player)  # a player's token, as the lobby issues at login
        out = io.StringIO()
        code = await asyncio.wait_for(
            play_at_server(
                server, token, player, game, players, "hard", always_first, out, bot_think_millis=0
            ),
            timeout=120,
        )
        text = out.getvalue()
        assert code == 0, text
        assert asked, "the player was never asked to choose"
        assert "--- Final places" in text
        match = re.search(r"tavolo audit verify (?:--receipt \w+ )?(\S+)", text)
        assert match is not None, text
        capsys.readouterr()
        verdict = await asyncio.to_thread(
            tavolo, ["audit", "verify", match.group(1), "--server", server, "--token", token]
        )
        assert verdict == 0
        assert "verdict: OK" in capsys.readouterr().out
