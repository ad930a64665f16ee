"""The terminal client names its installation on every call (PCG-3): two accounts used
from one client folder share an installation id the lobby records, from registration,
login and every renewal, and another folder is another installation."""

from __future__ import annotations

import asyncio
from pathlib import Path

import pytest

from tavolo.cli.main import main as tavolo
from tavolo.lobby.social.conduct.collusion_signals import CLAIMED_INSTALLATION
from tavolo.v1 import lobby_pb2

from .harness import PASSWORD, Lobby
from .staff import moderator, staffed

pytestmark = pytest.mark.integration
__all__ = ["staffed"]


async def test_pcg_3_accounts_of_one_terminal_share_its_installation_and_others_do_not(
    staffed: Lobby, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    lobby = staffed
    monkeypatch.setenv("TAVOLO_LOBBY_ADDRESS", f"127.0.0.1:{lobby.service.port}")

    async def run(folder: Path, *argv: str) -> None:
        monkeypatch.setenv("TAVOLO_CLIENT_DIR", str(folder))
        assert await asyncio.to_thread(tavolo, list(argv)) == 0

    home, other = tmp_path / "home", tmp_path / "other"
    await run(home, "account", "register", "Ada", "--password", PASSWORD)
    await run(home, "account", "register", "Bea", "--password", PASSWORD)
    await run(home, "account", "whoami", "--as", "Ada")
    await run(other, "account", "register", "Cleo", "--password", PASSWORD)
    await run(other, "account", "login", "Bea", "--password", PASSWORD)  # Bea elsewhere too
    installation = (home / "installation").read_text().strip()
    assert len(installation) == 32 and (home / "installation").stat().st_mode & 0o777 == 0o600
    assert (other / "installation").read_text().strip() != installation

    mod = await moderator(lobby)
    found = await lobby.stub.ListCollusionSignals(
        lobby_pb2.ListCollusionSignalsRequest(), metadata=mod.metadata
    )
    ids = {
        (
            await lobby.stub.FindPlayer(
                lobby_pb2.FindPlayerRequest(nickname=n), metadata=mod.metadata
            )
        ).player_id: n
        for n in ("Ada", "Bea", "Cleo")
    }
    pairs = {
        tuple(sorted(ids[p] for p in pair.player_ids)): [
            (s.kind, s.score, s.summary) for s in pair.signals
        ]
        for pair in found.pairs
    }
    # Ada and Bea on the home terminal; Bea and Cleo on the other one. All from loopback,
    # the platform's own address: no same_address, and the claim weighs as a claim.
    assert set(pairs) == {("Ada", "Bea"), ("Bea", "Cleo")}
    [(kind, score, summary)] = pairs[("Ada", "Bea")]
    assert (kind, score) == ("same_installation", CLAIMED_INSTALLATION)
    assert installation in summary
    assert [k for k, _, _ in pairs[("Bea", "Cleo")]] == ["same_installation"]
