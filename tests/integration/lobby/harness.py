"""Start the lobby in-process on a real PostgreSQL and NATS, and talk to it over real gRPC."""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator, Callable
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta
from typing import Any

import grpc
from google.protobuf.message import Message
from nats.aio.client import Client as NATS

from tavolo.lobby.accounts.passwords import fast_passwords
from tavolo.lobby.bootstrap import Assembled, LobbyOverrides, make_assemble
from tavolo.lobby.clients import EnginePort, WalletPort
from tavolo.lobby.context import LobbyConfig
from tavolo.lobby.play.policy import MatchPolicy
from tavolo.messaging import Topology
from tavolo.servicekit.runtime import RunningService, start_service
from tavolo.servicekit.settings import Settings
from tavolo.v1 import lobby_pb2, lobby_pb2_grpc
from tests.secret import TEST_CHECKPOINT_KEY, TEST_TOKEN_SECRET

from .twins import MemoryEngine, MemoryWallet

PASSWORD = "correct horse battery"


class ManualClock:
    """A clock the test moves by hand: waits are simulated, never slept."""

    def __init__(self) -> None:
        self.now = datetime(2026, 6, 1, 18, 0, tzinfo=UTC)

    def __call__(self) -> datetime:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += timedelta(seconds=seconds)


def bearer(token: str) -> tuple[tuple[str, str]]:
    return (("authorization", f"Bearer {token}"),)


@dataclass
class Player:
    """A registered player and a stub that sends their token."""

    session: lobby_pb2.Session
    metadata: tuple[tuple[str, str]]

    @property
    def id(self) -> str:
        return self.session.player_id

    @property
    def nickname(self) -> str:
        return self.session.nickname


@dataclass
class Lobby:
    service: RunningService
    assembled: Assembled
    channel: grpc.aio.Channel
    stub: lobby_pb2_grpc.LobbyStub
    wallet: Any
    engine: Any
    clock: ManualClock
    settings: Settings
    topology: Topology
    extra: list[RunningService] = field(default_factory=list)

    @property
    def app(self) -> Any:
        return self.assembled.app

    async def register(self, nickname: str, *, linked: Player | None = None) -> Player:
        metadata = linked.metadata if linked else None
        session = await self.stub.Register(
            lobby_pb2.RegisterRequest(nickname=nickname, password=PASSWORD), metadata=metadata
        )
        return Player(session, bearer(session.access_token))


def settings_for(database_url: str, nats_url: str, namespace: str, **extra: Any) -> Settings:
    return Settings(
        database_url=database_url,
        nats_url=nats_url,
        namespace=namespace,
        token_secret=TEST_TOKEN_SECRET,
        checkpoint_key=TEST_CHECKPOINT_KEY,
        **extra,
    )


def quick_config(**policy: Any) -> LobbyConfig:
    defaults: dict[str, Any] = {
        "bot_fill_after": timedelta(seconds=30),
        "stake_timeout": timedelta(seconds=60),
    }
    defaults.update(policy)
    return LobbyConfig(
        policy=MatchPolicy(**defaults), matchmaker_interval=0.05, hold_release_interval=0.1
    )


async def start_lobby(
    settings: Settings,
    *,
    wallet: WalletPort | None = None,
    engine: EnginePort | None = None,
    config: LobbyConfig | None = None,
    clock: Callable[[], datetime] | None = None,
    run_matchmaker: bool = False,
    operator: tuple[str, str] | None = None,
) -> tuple[RunningService, Assembled]:
    holder: list[Assembled] = []
    overrides = LobbyOverrides(
        config=config or quick_config(),
        passwords=fast_passwords(),
        wallet=(lambda infra: wallet) if wallet is not None else None,
        engine=(lambda infra: engine) if engine is not None else None,
        run_matchmaker=run_matchmaker,
        clock=clock,
        operator=operator,
    )
    service = await start_service(
        "lobby", make_assemble(overrides, built=holder.append), settings, port=0
    )
    return service, holder[0]


@contextlib.asynccontextmanager
async def running_lobby(
    database_url: str,
    nats_url: str,
    namespace: str,
    *,
    run_matchmaker: bool = False,
    config: LobbyConfig | None = None,
    operator: tuple[str, str] | None = None,
) -> AsyncIterator[Lobby]:
    settings = settings_for(database_url, nats_url, namespace)
    wallet, engine, clock = MemoryWallet(), MemoryEngine(), ManualClock()
    service, assembled = await start_lobby(
        settings,
        wallet=wallet,
        engine=engine,
        config=config,
        clock=clock,
        run_matchmaker=run_matchmaker,
        operator=operator,
    )
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{service.port}")
    lobby = Lobby(
        service,
        assembled,
        channel,
        lobby_pb2_grpc.LobbyStub(channel),
        wallet,
        engine,
        clock,
        settings,
        assembled.topology,
    )
    try:
        yield lobby
    finally:
        await channel.close()
        for other in lobby.extra:
            await other.stop(0)
        await service.stop(0)


# -- reading what crossed NATS ------------------------------------------------------------


class EventTap:
    """Every message on the namespace's events stream, decoded on demand."""

    def __init__(self, nc: NATS, topology: Topology) -> None:
        self._nc = nc
        self._topology = topology
        self.messages: list[Any] = []
        self._sub: Any = None

    async def start(self) -> None:
        js = self._nc.jetstream()
        self._sub = await js.subscribe(
            self._topology.all_events, stream=self._topology.events_stream, ordered_consumer=True
        )

        async def pump() -> None:
            async for msg in self._sub.messages:
                self.messages.append(msg)

        self._task = asyncio.create_task(pump())

    async def stop(self) -> None:
        self._task.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await self._task
        with contextlib.suppress(Exception):
            await self._sub.unsubscribe()

    def of(self, event_type: str, message: type[Message]) -> list[Any]:
        subject = self._topology.subject_for(event_type)
        return [message.FromString(m.data) for m in self.messages if m.subject == subject]

    async def wait_for(
        self, event_type: str, message: type[Message], count: int = 1, within: float = 10.0
    ) -> list[Any]:
        deadline = asyncio.get_running_loop().time() + within
        while True:
            found = self.of(event_type, message)
            if len(found) >= count:
                return found
            if asyncio.get_running_loop().time() > deadline:
                raise AssertionError(
                    f"{len(found)} {event_type} events after {within}s, wanted {count}"
                )
            await asyncio.sleep(0.05)


@contextlib.asynccontextmanager
async def event_tap(nats_url: str, topology: Topology) -> AsyncIterator[EventTap]:
    nc = NATS()
    await nc.connect(nats_url)
    tap = EventTap(nc, topology)
    await tap.start()
    try:
        yield tap
    finally:
        await tap.stop()
        await nc.close()


async def next_update(stream: Any, within: float = 10.0) -> lobby_pb2.LobbyUpdate:
    update: lobby_pb2.LobbyUpdate = await asyncio.wait_for(stream.read(), within)
    return update


async def update_where(
    stream: Any, predicate: Callable[[lobby_pb2.LobbyUpdate], bool], within: float = 10.0
) -> lobby_pb2.LobbyUpdate:
    """The first update that matches; a snapshot may repeat what a live update also says."""
    async with asyncio.timeout(within):
        while True:
            update: lobby_pb2.LobbyUpdate = await stream.read()
            if predicate(update):
                return update


def ticket_in(state: int) -> Callable[[lobby_pb2.LobbyUpdate], bool]:
    return lambda u: u.WhichOneof("update") == "ticket" and u.ticket.state == state
