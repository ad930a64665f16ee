"""Saved logins for the command-line client, one file per nickname.

``tavolo account login NICK`` saves the session under ``TAVOLO_CLIENT_DIR`` (default
``~/.tavolo``); every other command picks it with ``--as NICK`` (or the last login), so two
accounts can be driven from one terminal. Files are private to the user (mode 0600).

An access token lives minutes, a login weeks: a saved login whose access token is about
to run out is renewed with its refresh token (``Lobby.Refresh``) as it is loaded, so a
player who comes back later is not sent to log in again.

Every call the client makes carries ``x-tavolo-installation``: a random id made once and
kept beside the saved logins (``installation`` in the same folder). It names this copy of
the client, not the person; the lobby's collusion signals (PCG-3) note two accounts that
share it. Channels come from :func:`channel` and :func:`aio_channel`, which add it.
"""

from __future__ import annotations

import json
import os
import re
import time
import uuid
from collections.abc import Callable, Sequence
from dataclasses import asdict, dataclass
from pathlib import Path
from typing import Any, NamedTuple

import grpc
import jwt

from tavolo.cli.i18n import _
from tavolo.servicekit.error_details import refusal_from_error
from tavolo.servicekit.settings import DEFAULT_GRPC_PORTS
from tavolo.v1 import lobby_pb2, lobby_pb2_grpc

RENEW_MARGIN_SECONDS = 60
"""An access token with less than this left is renewed before use."""
INSTALLATION_HEADER = "x-tavolo-installation"
_INSTALLATION = re.compile(r"[A-Za-z0-9._:-]{1,100}")


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


def save(session: SavedSession, *, current: bool = True) -> None:
    """Keep ``session``; with ``current`` it also becomes the login used without ``--as``."""
    folder = client_dir() / "sessions"
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{session.nickname.casefold()}.json"
    path.write_text(json.dumps(asdict(session)))
    path.chmod(0o600)
    if current:
        (client_dir() / "current").write_text(session.nickname.casefold())


def load(nickname: str | None) -> SavedSession:
    folder = client_dir() / "sessions"
    if nickname is None:
        current = client_dir() / "current"
        if not current.exists():
            raise NoSession(_("nobody is logged in: run `tavolo account login NICK` first"))
        nickname = current.read_text().strip()
    path = folder / f"{nickname.casefold()}.json"
    if not path.exists():
        raise NoSession(
            _("{nick} is not logged in here: run `tavolo account login {nick}`").format(
                nick=nickname
            )
        )
    saved = SavedSession(**json.loads(path.read_text()))
    if seconds_left(saved.access_token) < RENEW_MARGIN_SECONDS:
        saved = renew(saved)
    return saved


def forget(nickname: str | None) -> SavedSession:
    """Remove a saved login (the current one without ``nickname``) and return it."""
    if nickname is None:
        current = client_dir() / "current"
        if not current.exists():
            raise NoSession(_("nobody is logged in here"))
        nickname = current.read_text().strip()
    path = client_dir() / "sessions" / f"{nickname.casefold()}.json"
    if not path.exists():
        raise NoSession(_("{nick} is not logged in here").format(nick=nickname))
    saved = SavedSession(**json.loads(path.read_text()))
    path.unlink()
    current = client_dir() / "current"
    if current.exists() and current.read_text().strip() == nickname.casefold():
        current.unlink()
    return saved


def seconds_left(token: str) -> float:
    """How long a token is still good for, from its own ``exp`` claim. The signature is
    not checked: that is the services' business; the client only needs to know when to
    renew (an unreadable token counts as run out)."""
    try:
        claims = jwt.decode(token, options={"verify_signature": False})
        return float(claims["exp"]) - time.time()
    except (jwt.InvalidTokenError, KeyError, TypeError, ValueError):
        return 0.0


def renew(saved: SavedSession) -> SavedSession:
    """A fresh access token for a saved login, kept in its file (the current login stays)."""
    stub = lobby_pb2_grpc.LobbyStub(channel("lobby"))
    try:
        reply = stub.Refresh(lobby_pb2.RefreshRequest(refresh_token=saved.refresh_token))
    except grpc.RpcError as exc:
        if isinstance(exc, grpc.Call) and exc.code() is grpc.StatusCode.UNAUTHENTICATED:
            raise NoSession(
                _("the login of {nick} has run out: run `tavolo account login {nick}`").format(
                    nick=saved.nickname
                )
            ) from None
        raise
    renewed = SavedSession(reply.player_id, reply.nickname, reply.access_token, reply.refresh_token)
    save(renewed, current=False)
    return renewed


def address(service: str) -> str:
    """Where the client finds ``service``: TAVOLO_<SERVICE>_ADDRESS or the local default."""
    return os.environ.get(
        f"TAVOLO_{service.upper()}_ADDRESS", f"127.0.0.1:{DEFAULT_GRPC_PORTS[service]}"
    )


def installation_id() -> str:
    """This installation's id: read from the client folder, or made there on first use
    (created exclusively, so two commands started at once agree on one id)."""
    path = client_dir() / "installation"
    for _attempt in range(2):
        try:
            found = path.read_text().strip()
        except FileNotFoundError:
            found = ""
        if _INSTALLATION.fullmatch(found):
            return found
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            handle = os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o600)
        except FileExistsError:
            continue  # another command is writing it, or it is unreadable: read again
        with os.fdopen(handle, "w") as out:
            out.write(uuid.uuid4().hex)
    path.write_text(uuid.uuid4().hex)  # an unreadable file: replace it
    path.chmod(0o600)
    return path.read_text().strip()


class _Details(NamedTuple):
    method: str
    timeout: float | None
    metadata: Any
    credentials: grpc.CallCredentials | None
    wait_for_ready: bool | None
    compression: grpc.Compression | None


class _CallDetails(_Details, grpc.ClientCallDetails):
    """The details of a call with one more metadata pair."""


class _SendsInstallation(
    grpc.UnaryUnaryClientInterceptor,
    grpc.UnaryStreamClientInterceptor,
    grpc.StreamUnaryClientInterceptor,
    grpc.StreamStreamClientInterceptor,
):
    """Adds the installation id to every call of a blocking channel."""

    def __init__(self, installation: str) -> None:
        self.pair = (INSTALLATION_HEADER, installation)

    def _details(self, details: Any) -> _CallDetails:
        metadata = (*(details.metadata or ()), self.pair)
        return _CallDetails(
            details.method,
            details.timeout,
            metadata,
            details.credentials,
            getattr(details, "wait_for_ready", None),
            getattr(details, "compression", None),
        )

    def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        return continuation(self._details(details), request)

    def intercept_unary_stream(self, continuation: Any, details: Any, request: Any) -> Any:
        return continuation(self._details(details), request)

    def intercept_stream_unary(self, continuation: Any, details: Any, requests: Any) -> Any:
        return continuation(self._details(details), requests)

    def intercept_stream_stream(self, continuation: Any, details: Any, requests: Any) -> Any:
        return continuation(self._details(details), requests)


class _SendsInstallationAio(
    grpc.aio.UnaryUnaryClientInterceptor,
    grpc.aio.UnaryStreamClientInterceptor,
):
    """The same for an asyncio channel (the calls the client makes are unary or
    server-streaming)."""

    def __init__(self, installation: str) -> None:
        self.pair = (INSTALLATION_HEADER, installation)

    def _details(self, details: grpc.aio.ClientCallDetails) -> grpc.aio.ClientCallDetails:
        metadata = grpc.aio.Metadata(*(details.metadata or ()), self.pair)
        return grpc.aio.ClientCallDetails(
            details.method,
            details.timeout,
            metadata,
            details.credentials,
            details.wait_for_ready,
        )

    async def intercept_unary_unary(self, continuation: Any, details: Any, request: Any) -> Any:
        return await continuation(self._details(details), request)

    async def intercept_unary_stream(self, continuation: Any, details: Any, request: Any) -> Any:
        return await continuation(self._details(details), request)


def channel(service: str) -> grpc.Channel:
    """A blocking channel to ``service`` whose every call carries the installation id."""
    return grpc.intercept_channel(
        grpc.insecure_channel(address(service)), _SendsInstallation(installation_id())
    )


def aio_channel(target: str, options: Sequence[tuple[str, Any]] = ()) -> grpc.aio.Channel:
    """An asyncio channel to ``target`` whose every call carries the installation id."""
    return grpc.aio.insecure_channel(
        target, options=list(options), interceptors=[_SendsInstallationAio(installation_id())]
    )


def rpc_error_text(error: grpc.RpcError) -> str:
    """A one-line message for a refused call, as the service worded it, with the
    refusal's reason (API-1) that scripts and bug reports can quote."""
    code: grpc.StatusCode | None = None
    details = str(error)
    if isinstance(error, grpc.Call | grpc.aio.AioRpcError):  # a sync or an asyncio stub's
        code, details = error.code(), error.details() or ""
    if code is grpc.StatusCode.UNAVAILABLE:
        return _("the platform is not reachable: is `make run` running?")
    name = code.name if code is not None else "ERROR"
    refusal = refusal_from_error(error)
    reason = f" [{refusal.reason}]" if refusal is not None and refusal.reason else ""
    return f"{details} ({name}){reason}"


def run_call(fn: Callable[[], None]) -> int:
    """Run a command's calls; a refusal is printed as the service worded it (exit 1), a
    missing login with how to log in (exit 2), never as a traceback."""
    try:
        fn()
    except NoSession as exc:
        print(exc)
        return 2
    except grpc.RpcError as exc:
        print(rpc_error_text(exc))
        return 1
    return 0
