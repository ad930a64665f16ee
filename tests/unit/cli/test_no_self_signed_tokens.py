"""The client never signs a token of its own: with nobody logged in, the audit and a game
at the server say how to log in instead of calling the platform with a forged session."""

from __future__ import annotations

from pathlib import Path

import pytest

from tavolo.cli.main import main as tavolo
from tavolo.servicekit.embedded import free_port

NOBODY = "nobody is logged in: run `tavolo account login NICK` first"


@pytest.fixture(autouse=True)
def nobody_logged_in(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("TAVOLO_CLIENT_DIR", str(tmp_path))
    monkeypatch.delenv("TAVOLO_TOKEN", raising=False)
    monkeypatch.setenv("TAVOLO_TOKEN_SECRET", "a secret a client has no business using at all")


def test_audit_without_a_login_asks_for_one(capsys: pytest.CaptureFixture[str]) -> None:
    server = f"127.0.0.1:{free_port()}"  # nothing listens: no call may be needed to refuse
    assert tavolo(["audit", "verify", "some-table", "--server", server]) == 2
    assert NOBODY in capsys.readouterr().err


def test_a_game_at_the_server_without_a_login_asks_for_one(
    capsys: pytest.CaptureFixture[str],
) -> None:
    server = f"127.0.0.1:{free_port()}"
    assert tavolo(["play", "pika", "--server", server]) == 2
    assert NOBODY in capsys.readouterr().err
