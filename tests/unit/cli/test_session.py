"""Saved logins renew their access token as they are loaded, without a new login."""

from __future__ import annotations

import json
import time
from pathlib import Path
from typing import Any

import jwt
import pytest

from tavolo.cli import session
from tavolo.cli.main import main as tavolo
from tavolo.v1 import lobby_pb2


def _token(seconds_left: float) -> str:
    return jwt.encode(
        {"sub": "p1", "exp": int(time.time() + seconds_left)},
        "a test secret, long enough for HS256 keys",
    )


class FakeLobby:
    """Answers Refresh as the lobby would, and counts the calls."""

    calls: list[str] = []

    def __init__(self, channel: Any) -> None:
        pass

    def Logout(self, request: lobby_pb2.LogoutRequest) -> lobby_pb2.LogoutResponse:
        FakeLobby.calls.append(f"logout {request.refresh_token}")
        return lobby_pb2.LogoutResponse()

    def Refresh(self, request: lobby_pb2.RefreshRequest) -> lobby_pb2.Session:
        FakeLobby.calls.append(request.refresh_token)
        return lobby_pb2.Session(
            player_id="p1", nickname="Marco", access_token=_token(900), refresh_token="r2"
        )


@pytest.fixture
def client_dir(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.setenv("TAVOLO_CLIENT_DIR", str(tmp_path))
    monkeypatch.setattr(session.lobby_pb2_grpc, "LobbyStub", FakeLobby)
    FakeLobby.calls = []
    return tmp_path


def test_a_run_out_access_token_is_renewed_and_kept(client_dir: Path) -> None:
    session.save(session.SavedSession("p1", "Marco", _token(-5), "r1"))
    session.save(session.SavedSession("p2", "Giulia", _token(900), "g1"))
    renewed = session.load("marco")
    assert FakeLobby.calls == ["r1"]
    assert session.seconds_left(renewed.access_token) > 800 and renewed.refresh_token == "r2"
    kept = json.loads((client_dir / "sessions" / "marco.json").read_text())
    assert kept["access_token"] == renewed.access_token
    assert (client_dir / "current").read_text() == "giulia"  # renewing is not logging in
    assert session.load("Marco") == renewed and FakeLobby.calls == ["r1"]


def test_a_fresh_token_is_used_as_it_is(client_dir: Path) -> None:
    fresh = session.SavedSession("p2", "Giulia", _token(900), "g1")
    session.save(fresh)
    assert session.load(None) == fresh and FakeLobby.calls == []


def test_an_unreadable_token_counts_as_run_out() -> None:
    assert session.seconds_left("not a token") == 0.0


def test_logout_ends_the_login_at_the_lobby_and_forgets_it_here(
    client_dir: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    session.save(session.SavedSession("p2", "Giulia", _token(900), "g1"))
    assert tavolo(["account", "logout", "--as", "Giulia"]) == 0
    assert FakeLobby.calls == ["logout g1"]
    assert "logged out Giulia" in capsys.readouterr().out
    assert not (client_dir / "sessions" / "giulia.json").exists()
    with pytest.raises(session.NoSession):
        session.load(None)
