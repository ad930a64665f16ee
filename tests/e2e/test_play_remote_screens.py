"""``tavolo play GAME --server`` shares the offline client's screens: partners and sides
named from the first line, sides ranked among sides, table options and the partner's
level sent to the engine, one table id form, every line within 80 columns (MODE-1)."""

from __future__ import annotations

import asyncio
import io
import re
import uuid

import pytest

from tavolo.cli.play.remote import play_at_server
from tests.integration.engine.helpers import running_engine, settings, token

pytestmark = pytest.mark.e2e


async def test_mode_1_a_partnership_game_at_the_engine_reads_as_offline(
    database_url: str,
    nats_url: str,
    namespace: str,
    monkeypatch: pytest.MonkeyPatch,
    tmp_path: object,
) -> None:
    monkeypatch.setenv("TAVOLO_CLIENT_DIR", str(tmp_path))
    prompts: list[str] = []

    def always_first(prompt: str) -> str:
        prompts.append(prompt)
        return "1"

    async with running_engine(settings(database_url, nats_url, namespace)) as engine:
        out = io.StringIO()
        code = await asyncio.wait_for(
            play_at_server(
                f"127.0.0.1:{engine.port}",
                token("giulia"),
                "giulia",
                "briscola",
                4,
                "easy",
                always_first,
                out,
                bot_think_millis=0,
                partner="medium",
                options={"match_length": "hands:3"},
            ),
            timeout=180,
        )
    text = out.getvalue()
    assert code == 0, text
    first = " ".join(text.split("\nThe deal is committed")[0].split())
    found = re.match(r"^Table (\S+) at \S+: (.*)\.$", first)
    assert found is not None, first
    assert found[1] == str(uuid.UUID(found[1])), "a table id reads as the lobby's, with dashes"
    assert found[2] == "you and Bot 2 (medium) against Bot 1 (easy) & Bot 3 (easy)"
    assert "(3 hands)" in text or "hands won" in text.lower()
    assert all("'sort'" not in p for p in prompts) and prompts
    final = text.split("--- Final places")[1].splitlines()[1:3]
    assert [line[:4] for line in final] in ([" 1st", " 2nd"], [" 1st", " 1st"]), final
    # The typed answers are not echoed here: a prompt's line ends where a terminal's would.
    screen = text.replace("'quit'): ", "'quit'):\n")
    wide = [line for line in screen.splitlines() if len(line) > 80]
    assert [line for line in wide if not line.startswith("  tavolo audit verify")] == []
