"""Saved logins for the command-line client, one file per nickname.

``tavolo account login NICK`` saves the session under ``TAVOLO_CLIENT_DIR`` (default
``~/.tavolo``); every other command picks it with ``--as NICK`` (or the last login), so two
accounts can be driven from one terminal. Files are private to the user (mode 0600).
"""

from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass
from pathlib import Path

import grpc

from tavolo.servicekit.settings import DEFAULT_GRPC_PORTS


class NoSession(Exception):
    """No saved login for the nickname asked for."""


@dataclass(frozen=True, slots=True)
class SavedSession:
    """What a login returned, enough to call any service."""

    player_id: str
    nickname: str
    access_token: str
    refresh_token: str

    def metadata(self) -> tuple[tuple[str, str | bytes], ...]:
        return (("authorization", f"Bearer {self.access_token}"),)


def client_dir() -> Path:
    return Path(os.environ.get("TAVOLO_CLIENT_DIR", Path.home() / ".tavolo"))


def save(session: SavedSession) -> None:
    folder = client_dir() / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{session.nickname.casefold()}.json"
    path.write_text(json.dumps(asdict(session)))
    path.chmod(0o600)
    (client_dir() / "current").write_text(session.nickname.casefold())


def load(nickname: str | None) -> SavedSession:
    folder = client_dir() / "sessions"
    if nickname is None:
        current = client_dir() / "current"
        if not current.exists():
            raise NoSession("nobody is logged in: run `tavolo account login NICK` first")
        nickname = current.read_text().strip()
    path = folder / f"{nickname.casefold()}.json"
    if not path.exists():
        raise NoSession(f"{nickname} is not logged in here: run `tavolo account login {nickname}`")
    return SavedSession(**json.loads(path.read_text()))


def address(service: str) -> str:
    """Where the client finds ``service``: TAVOLO_<SERVICE>_ADDRESS or the local default."""
    return os.environ.get(
        f"TAVOLO_{service.upper()}_ADDRESS", f"127.0.0.1:{DEFAULT_GRPC_PORTS[service]}"
    )


def channel(service: str) -> grpc.Channel:
    return grpc.insecure_channel(address(service))


def rpc_error_text(error: grpc.RpcError) -> str:
    """A one-line message for a refused call, as the service worded it."""
    code = error.code() if isinstance(error, grpc.Call) else None
    details = error.details() if isinstance(error, grpc.Call) else str(error)
    if code is grpc.StatusCode.UNAVAILABLE:
        return "the platform is not reachable: is `make run` running?"
    name = code.name if code is not None else "ERROR"
    return f"{details} ({name})"
