"""One simulated player's connection to the platform: its own account, its own tokens.

A client app holds an access token that lives minutes (15) and a refresh token it rotates
(``Lobby.Refresh``); so does each simulated player, renewing a minute before expiry. A
refresh lost in an outage (sent, answer never seen) leaves a refresh token the lobby has
already rotated; presenting it again ends the login, so the player logs in again with its
password, as a person would.

Calls are retried only where a client app may retry them safely: UNAVAILABLE (the call
never reached a service: one restarting, NATS or PostgreSQL restarting behind it), with a
back-off, for up to :data:`OUTAGE_SECONDS`. Every answer, retried or not, is counted in
:class:`~tavolo.cli.simulate.stats.Stats` under its status.
"""

from __future__ import annotations

import asyncio
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, TypeVar

import grpc

from tavolo.cli.session import seconds_left
from tavolo.cli.simulate.stats import Stats
from tavolo.v1 import (
    engine_pb2_grpc,
    leaderboard_pb2_grpc,
    lobby_pb2,
    lobby_pb2_grpc,
    wallet_pb2_grpc,
)

T = TypeVar("T")
RENEW_MARGIN = 60.0
OUTAGE_SECONDS = 180.0
"""How long a client keeps retrying an unreachable platform before giving the call up."""
CALL_TIMEOUT = 20.0
SIGN_UP_TIMEOUT = 60.0
"""Register and Login hash a password on purpose slowly; many at once queue up."""
RETRIED = frozenset({grpc.StatusCode.UNAVAILABLE})
PASSWORD = "simulated-player-password"
"""Every simulated player's password: the accounts belong to a throwaway platform."""


@dataclass
class Stubs:
    """One channel per service, shared by the population (as one process's clients are)."""

    lobby: lobby_pb2_grpc.LobbyAsyncStub
    engine: engine_pb2_grpc.EngineAsyncStub
    wallet: wallet_pb2_grpc.WalletAsyncStub
    leaderboard: leaderboard_pb2_grpc.LeaderboardAsyncStub
    channels: list[grpc.aio.Channel]

    @classmethod
    def connect(cls, addresses: dict[str, str]) -> Stubs:
        channels = {name: grpc.aio.insecure_channel(address) for name, address in addresses.items()}
        return cls(
            lobby_pb2_grpc.LobbyStub(channels["lobby"]),
            engine_pb2_grpc.EngineStub(channels["engine"]),
            wallet_pb2_grpc.WalletStub(channels["wallet"]),
            leaderboard_pb2_grpc.LeaderboardStub(channels["leaderboard"]),
            list(channels.values()),
        )

    async def close(self) -> None:
        for channel in self.channels:
            await channel.close()


class Client:
    """A player's session and every call it makes, counted."""

    def __init__(self, stubs: Stubs, stats: Stats, nickname: str, password: str = PASSWORD) -> None:
        self.stubs, self.stats, self.nickname = stubs, stats, nickname
        self.password = password
        self.player_id = ""
        self.access = ""
        self.refresh = ""

    # -- the session ---------------------------------------------------------------------

    async def register(self) -> None:
        request = lobby_pb2.RegisterRequest(nickname=self.nickname, password=self.password)
        try:
            session = await self.call(
                "Register", self.stubs.lobby.Register, request, auth=False, seconds=SIGN_UP_TIMEOUT
            )
        except grpc.aio.AioRpcError as exc:
            # A Register whose answer was lost in an outage: the account exists already.
            if exc.code() != grpc.StatusCode.ALREADY_EXISTS:
                raise
            await self.login()
            return
        self._keep(session)

    async def login(self) -> None:
        request = lobby_pb2.LoginRequest(nickname=self.nickname, password=self.password)
        login = self.stubs.lobby.Login
        self._keep(await self.call("Login", login, request, auth=False, seconds=SIGN_UP_TIMEOUT))

    async def logout(self) -> None:
        request = lobby_pb2.LogoutRequest(refresh_token=self.refresh)
        await self.call("Logout", self.stubs.lobby.Logout, request, auth=False)
        self.access = self.refresh = ""

    def _keep(self, session: lobby_pb2.Session) -> None:
        self.player_id = session.player_id
        self.access, self.refresh = session.access_token, session.refresh_token

    async def metadata(self) -> tuple[tuple[str, str], ...]:
        """The bearer header, renewing the access token shortly before it runs out."""
        if not self.access:
            await self.login()
        elif seconds_left(self.access) < RENEW_MARGIN:
            request = lobby_pb2.RefreshRequest(refresh_token=self.refresh)
            try:
                session = await self.call("Refresh", self.stubs.lobby.Refresh, request, auth=False)
                self._keep(session)
                self.stats.refreshes += 1
            except grpc.aio.AioRpcError as exc:
                if exc.code() != grpc.StatusCode.UNAUTHENTICATED:
                    raise
                await self.login()  # the rotated token was lost: log in again
        return (("authorization", f"Bearer {self.access}"),)

    # -- calls ---------------------------------------------------------------------------

    async def call(
        self,
        method: str,
        fn: Callable[..., Awaitable[T]],
        request: Any,
        *,
        auth: bool = True,
        retry: bool = True,
        seconds: float = CALL_TIMEOUT,
    ) -> T:
        """``fn(request)`` with the session, counted; UNAVAILABLE retried if ``retry``."""
        give_up = time.monotonic() + OUTAGE_SECONDS
        delay = 0.5
        logged_in_again = False
        while True:
            metadata = await self.metadata() if auth else None
            began = time.monotonic()
            try:
                reply = await fn(request, metadata=metadata, timeout=seconds)
            except grpc.aio.AioRpcError as exc:
                code = exc.code()
                took = time.monotonic() - began
                self.stats.call_done(method, took, code.name, exc.details() or "")
                if code == grpc.StatusCode.UNAUTHENTICATED and auth and not logged_in_again:
                    self.access = ""  # the session was ended (a reused refresh): log in again
                    logged_in_again = True
                    continue
                if not retry or code not in RETRIED or time.monotonic() > give_up:
                    raise
                await asyncio.sleep(delay)
                delay = min(delay * 2, 8.0)
                continue
            self.stats.call_done(method, time.monotonic() - began, "OK")
            return reply
