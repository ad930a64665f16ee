"""The lobby with the real wallet and engine (and optionally the leaderboard), in-process,
on one PostgreSQL database and one NATS namespace, for the end-to-end suite."""

from __future__ import annotations

import asyncio
import contextlib
import random
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field, replace
from datetime import timedelta
from typing import Any

import grpc

from tavolo.engine.bootstrap import assemble as engine_assemble
from tavolo.lobby.context import LobbyConfig
from tavolo.lobby.play.policy import MatchPolicy
from tavolo.servicekit.runtime import RunningService, start_service
from tavolo.v1 import (
    common_pb2,
    engine_pb2,
    engine_pb2_grpc,
    lobby_pb2,
    lobby_pb2_grpc,
    wallet_pb2,
    wallet_pb2_grpc,
)
from tavolo.wallet import store as wallet_store
from tavolo.wallet.bootstrap import make_assemble as wallet_make_assemble
from tavolo.wallet.config import WalletConfig
from tests.waiting import eventually

from .harness import PASSWORD, Player, bearer, settings_for, start_lobby

OPERATOR = ("Operatore", PASSWORD)
# The wallet as deployed (a welcome grant included), sweeping expired holds every second.
PLATFORM_WALLET = WalletConfig(sweep_seconds=1.0)


@dataclass
class Platform:
    lobby: lobby_pb2_grpc.LobbyStub
    engine: engine_pb2_grpc.EngineStub
    wallet: wallet_pb2_grpc.WalletStub
    services: dict[str, RunningService]
    channels: list[grpc.aio.Channel] = field(default_factory=list)

    async def register(self, nickname: str, *, linked: Player | None = None) -> Player:
        """A new account; with ``linked``, another account of that player's person."""
        session = await self.lobby.Register(
            lobby_pb2.RegisterRequest(nickname=nickname, password=PASSWORD),
            metadata=linked.metadata if linked else None,
        )
        await self.wallet_knows(session.player_id)
        return Player(session, bearer(session.access_token))

    async def wallet_knows(self, player_id: str) -> None:
        """Wait until the wallet has opened the account from the lobby's PlayerRegistered:
        until then it refuses coins for it (NOT_FOUND), as for an account nobody has."""
        pool = self.services["wallet"].infra.pool

        async def opened() -> bool:
            async with pool.acquire() as conn:
                return await wallet_store.player_account_exists(conn, player_id)

        await eventually(opened, f"the wallet to open the account of {player_id}")

    async def operator(self) -> Player:
        nickname, password = OPERATOR
        session = await self.lobby.Login(
            lobby_pb2.LoginRequest(nickname=nickname, password=password)
        )
        return Player(session, bearer(session.access_token))


def platform_config(**policy: float) -> LobbyConfig:
    """Short real waits, and bots that move at once so tables finish quickly."""
    waits = {"bot_fill_after": 1.0, "stake_timeout": 1.5, **policy}
    return LobbyConfig(
        policy=MatchPolicy(
            bot_fill_after=timedelta(seconds=waits["bot_fill_after"]),
            stake_timeout=timedelta(seconds=waits["stake_timeout"]),
        ),
        matchmaker_interval=0.1,
        hold_release_interval=0.2,
        engine_options={"bot_think_millis": 0, "turn_seconds": 60},
    )


@contextlib.asynccontextmanager
async def running_platform(
    database_url: str,
    nats_url: str,
    namespace: str,
    *,
    config: LobbyConfig | None = None,
    wallet: WalletConfig = PLATFORM_WALLET,
    with_leaderboard: bool = False,
    stream_replicas: int = 1,
) -> AsyncIterator[Platform]:
    settings = settings_for(database_url, nats_url, namespace, stream_replicas=stream_replicas)
    services: dict[str, RunningService] = {}
    channels: list[grpc.aio.Channel] = []
    try:
        services["wallet"] = await start_service(
            "wallet", wallet_make_assemble(wallet), settings, port=0
        )
        services["engine"] = await start_service("engine", engine_assemble, settings, port=0)
        if with_leaderboard:
            from tavolo.leaderboard.bootstrap import make_assemble as board_assemble
            from tavolo.leaderboard.config import LeaderboardConfig

            services["leaderboard"] = await start_service(
                "leaderboard", board_assemble(LeaderboardConfig()), settings, port=0
            )
        addresses = {name: f"127.0.0.1:{s.port}" for name, s in services.items()}
        lobby_settings = replace(settings, addresses=addresses)
        services["lobby"], _ = await start_lobby(
            lobby_settings,
            config=config or platform_config(),
            run_matchmaker=True,
            operator=OPERATOR,
        )

        def open_channel(name: str) -> grpc.aio.Channel:
            channel = grpc.aio.insecure_channel(f"127.0.0.1:{services[name].port}")
            channels.append(channel)
            return channel

        yield Platform(
            lobby_pb2_grpc.LobbyStub(open_channel("lobby")),
            engine_pb2_grpc.EngineStub(open_channel("engine")),
            wallet_pb2_grpc.WalletStub(open_channel("wallet")),
            services,
            channels,
        )
    finally:
        for channel in channels:
            await channel.close()
        for name in ("lobby", "leaderboard", "engine", "wallet"):
            if name in services:
                await services[name].stop(0.5)


async def seated_at(platform: Platform, player: Player, within: float = 30.0) -> Any:
    """Wait on the player's WatchLobby for the table they were seated at (TableStarted)."""
    stream = platform.lobby.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=player.metadata)
    try:
        async with asyncio.timeout(within):
            while True:
                update = await stream.read()
                if update.WhichOneof("update") == "seated":
                    return update.seated
    finally:
        stream.cancel()


Chooser = Callable[[engine_pb2.TableView, random.Random], common_pb2.Action]


def any_legal(view: engine_pb2.TableView, rng: random.Random) -> common_pb2.Action:
    return rng.choice(list(view.legal_actions))


async def play_seat(
    platform: Platform,
    table_id: str,
    player: Player,
    rng: random.Random,
    within: float = 240.0,
    choose: Chooser = any_legal,
) -> engine_pb2.TableView:
    """Play one seat until the table ends, with random legal actions unless ``choose``
    says otherwise; its last view."""
    request = engine_pb2.GetTableRequest(table_id=table_id)
    async with asyncio.timeout(within):
        while True:
            try:
                view = await platform.engine.GetTable(request, metadata=player.metadata)
            except grpc.aio.AioRpcError as exc:
                if exc.code() != grpc.StatusCode.NOT_FOUND:  # not opened yet
                    raise
                await asyncio.sleep(0.05)
                continue
            if view.status != engine_pb2.TABLE_STATUS_PLAYING:
                return view
            if not view.legal_actions:
                await asyncio.sleep(0.02)
                continue
            try:
                await platform.engine.Act(
                    engine_pb2.ActRequest(
                        table_id=table_id,
                        action=choose(view, rng),
                        expected_version=view.version,
                    ),
                    metadata=player.metadata,
                )
            except grpc.aio.AioRpcError as exc:  # someone moved first: look again
                if exc.code() not in (
                    grpc.StatusCode.ABORTED,
                    grpc.StatusCode.FAILED_PRECONDITION,
                ):
                    raise


async def balance(platform: Platform, player: Player) -> wallet_pb2.Balance:
    """The player's wallet balance, asked as the player."""
    found: wallet_pb2.Balance = await platform.wallet.GetBalance(
        wallet_pb2.GetBalanceRequest(), metadata=player.metadata
    )
    return found
