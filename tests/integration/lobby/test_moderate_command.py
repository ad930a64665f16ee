"""``tavolo moderate`` against a running lobby (PCG-3, PCG-4): the report queue, bulk
decisions, finding a player, applying every length of sanction, the history, lifting."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tavolo.cli.lobby.moderate import LENGTHS
from tavolo.cli.main import main as tavolo

from .harness import PASSWORD, Lobby
from .staff import MODERATOR, moderator, staffed
from .test_reports import queue, report

pytestmark = pytest.mark.integration
__all__ = ["staffed"]


async def test_pcg_4_a_moderator_works_the_queue_and_sanctions_from_the_terminal(
    staffed: Lobby,
    tmp_path: Path,
    monkeypatch: pytest.MonkeyPatch,
    capsys: pytest.CaptureFixture[str],
) -> None:
    lobby = staffed
    monkeypatch.setenv("TAVOLO_LOBBY_ADDRESS", f"127.0.0.1:{lobby.service.port}")
    monkeypatch.setenv("TAVOLO_CLIENT_DIR", str(tmp_path))

    async def run(*argv: str) -> tuple[int, str]:
        capsys.readouterr()
        code = await asyncio.to_thread(tavolo, list(argv))
        return code, capsys.readouterr().out

    eve, troll, spammer = [await lobby.register(n) for n in ("Eve", "Troll", "Spammer")]
    ada = await lobby.register("Ada")
    await report(lobby, eve, "insults", player_id=troll.id)
    await report(lobby, ada, "insults too", player_id=troll.id)
    await report(lobby, eve, "spam", player_id=spammer.id)

    assert (await run("account", "login", MODERATOR, "--password", PASSWORD))[0] == 0
    code, out = await run("moderate", "reports")
    assert code == 0
    assert "2 report(s)" in out and "about Troll (" in out and "first reported by Eve (" in out
    assert "about Spammer (" in out and out.count("report(s)") == 2

    ids = [r.report_id for r in await queue(lobby, await moderator(lobby))]
    code, out = await run("moderate", "resolve", *ids, "--note", "warned in chat")
    assert (code, out.strip()) == (0, "decided 2 case(s), 3 report(s); every reporter is told")
    assert (await run("moderate", "reports"))[1].strip() == "no open reports"

    code, out = await run("moderate", "find", "TROLL")
    assert code == 0 and out.startswith(f"Troll ({troll.id})") and "no sanction in force" in out
    for length in LENGTHS:
        code, out = await run("moderate", "sanction", "troll", "chat", length, "--reason", "r")
        assert code == 0 and f"chat {length}" in out, out
    code, out = await run("moderate", "sanctions", "Troll")
    assert code == 0 and f"{len(LENGTHS)} sanction(s)" in out
    newest = out.splitlines()[1].split()[0]
    code, out = await run("moderate", "lift", newest)
    assert code == 0 and "lifted" in out

    code, out = await run("moderate", "find", "Nessuno")
    assert code == 1 and "no player is called 'Nessuno' (NOT_FOUND)" in out
    assert (await run("account", "login", "Eve", "--password", PASSWORD))[0] == 0
    code, out = await run("moderate", "reports")
    assert code == 1 and "PERMISSION_DENIED" in out
