"""A rummy game at a real engine table: `tavolo play scala40 --server` against a bot,
then the audit of its log. The lobby, engine, wallet and leaderboard know games only
through the registry, so this is the one place a new game's table is exercised end to
end; Scala 40 stands for both rummy games (they share the meld core and the contract)."""

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

CHOICE = re.compile(r"^  (\d+)\) ", re.MULTILINE)


async def test_a_terminal_player_finishes_scala40_at_the_engine(
    database_url: str,
    nats_url: str,
    namespace: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: object,
) -> None:
    monkeypatch.setenv("TAVOLO_CLIENT_DIR", str(tmp_path))  # no saved login: --token only
    out = io.StringIO()

    def last_choice(prompt: str) -> str:
        """The last move offered: the pozzo, taking an opening back, the last discard."""
        offered = CHOICE.findall(out.getvalue().rsplit("your turn", 1)[-1])
        return offered[-1] if offered else "1"

    async with running_engine(settings(database_url, nats_url, namespace)) as engine:
        server = f"127.0.0.1:{engine.port}"
        player = "giulia"
        token = session_token(player)  # a player's token, as the lobby issues at login
        code = await asyncio.wait_for(
            play_at_server(
                server, token, player, "scala40", 2, "medium", last_choice, out, bot_think_millis=0
            ),
            timeout=600,
        )
        text = out.getvalue()
        assert code == 0, text[-3000:]
        assert "Melds on the table:" in text and "Pozzo: " in text
        assert "Hand 1 is over:" in text and "--- Final places" in text
        match = re.search(r"tavolo audit verify (?:--receipt \w+ )?(\S+)", text)
        assert match is not None, text[-3000:]
        capsys.readouterr()
        verdict = await asyncio.to_thread(
            tavolo, ["audit", "verify", match.group(1), "--server", server, "--token", token]
        )
        assert verdict == 0
        assert "verdict: OK" in capsys.readouterr().out
