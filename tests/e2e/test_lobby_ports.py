"""The lobby's ports (wallet, engine): one contract, passed by the in-memory twins the lobby's
own tests use and by the gRPC clients talking to the real services.

If the real wallet or engine ever behaves differently from what the twins promise, this
suite says so, and the lobby's integration tests stop being trusted.
"""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator, Awaitable, Callable
from dataclasses import dataclass

import grpc
import pytest

from tavolo.engine.bootstrap import assemble as engine_assemble
from tavolo.lobby.clients import EnginePort, GrpcEngine, GrpcWallet, ServiceToken, WalletPort
from tavolo.lobby.play.tables import BotLevel, Mode, Seat, bot_seats, table_spec
from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.servicekit.errors import DomainError, FailedPrecondition, Unavailable
from tavolo.servicekit.runtime import start_service
from tavolo.servicekit.settings import Settings
from tavolo.v1 import engine_pb2, engine_pb2_grpc, wallet_pb2, wallet_pb2_grpc
from tavolo.wallet.bootstrap import make_assemble as wallet_assemble
from tests.integration.lobby.twins import MemoryEngine, MemoryWallet
from tests.integration.wallet.registered import register
from tests.secret import TEST_CHECKPOINT_KEY, TEST_TOKEN_SECRET

pytestmark = pytest.mark.e2e

SIGNER = TokenSigner(TEST_TOKEN_SECRET)


def as_role(role: Role) -> tuple[tuple[str, str]]:
    token, _ = SIGNER.issue(f"test-{role.value}", [role])
    return (("authorization", f"Bearer {token}"),)


@dataclass
class Ports:
    wallet: WalletPort
    engine: EnginePort
    fund: Callable[[str, int], Awaitable[None]]
    available: Callable[[str], Awaitable[int]]
    seats_of: Callable[[str], Awaitable[list[str]]]


@pytest.fixture(params=["twin", "real"])
async def ports(
    request: pytest.FixtureRequest, database_url: str, nats_url: str, namespace: str
) -> AsyncIterator[Ports]:
    if request.param == "twin":
        wallet, engine = MemoryWallet(starting_coins=0), MemoryEngine()

        async def fund(player: str, amount: int) -> None:
            wallet.balances[player] = wallet.available(player) + amount

        async def available(player: str) -> int:
            return wallet.available(player)

        async def seats_of(table_id: str) -> list[str]:
            return [s.player_id or "bot" for s in engine.tables[table_id].seats]

        yield Ports(wallet, engine, fund, available, seats_of)
        return
    settings = Settings(
        database_url=database_url,
        nats_url=nats_url,
        namespace=namespace,
        token_secret=TEST_TOKEN_SECRET,
        checkpoint_key=TEST_CHECKPOINT_KEY,
    )
    services = [
        await start_service("wallet", wallet_assemble(), settings, port=0),
        await start_service("engine", engine_assemble, settings, port=0),
    ]
    channels = [grpc.aio.insecure_channel(f"127.0.0.1:{s.port}") for s in services]
    token = ServiceToken(TokenSigner(settings.token_secret))
    wallet_stub = wallet_pb2_grpc.WalletStub(channels[0])
    engine_stub = engine_pb2_grpc.EngineStub(channels[1])

    async def real_fund(player: str, amount: int) -> None:
        await register(services[0].infra.pool, player)  # the lobby registered them
        await wallet_stub.Grant(
            wallet_pb2.GrantRequest(
                transfer_id=f"fund-{uuid.uuid4()}", player_id=player, amount=amount, reason="test"
            ),
            metadata=as_role(Role.OPERATOR),
        )

    async def real_available(player: str) -> int:
        balance = await wallet_stub.GetBalance(
            wallet_pb2.GetBalanceRequest(player_id=player), metadata=as_role(Role.OPERATOR)
        )
        coins: int = balance.available
        return coins

    async def real_seats(table_id: str) -> list[str]:
        view = await engine_stub.GetTable(
            engine_pb2.GetTableRequest(table_id=table_id), metadata=as_role(Role.OPERATOR)
        )
        return [s.player_id or "bot" for s in view.seats]

    try:
        yield Ports(
            GrpcWallet(channels[0], token),
            GrpcEngine(channels[1], token),
            real_fund,
            real_available,
            real_seats,
        )
    finally:
        for channel in channels:
            await channel.close()
        for service in reversed(services):
            await service.stop(0.5)


def new_id() -> str:
    return str(uuid.uuid4())


async def test_a_hold_takes_the_stake_once_and_a_release_gives_it_back(ports: Ports) -> None:
    player, hold = new_id(), new_id()
    await ports.fund(player, 300)
    await ports.wallet.hold_stake(hold, player, 250, "ticket")
    await ports.wallet.hold_stake(hold, player, 250, "ticket")  # a retry holds once
    assert await ports.available(player) == 50
    await ports.wallet.release_hold(hold)
    await ports.wallet.release_hold(hold)  # and releasing twice is harmless
    assert await ports.available(player) == 300


async def test_mode_4_short_of_coins_is_a_failed_precondition(ports: Ports) -> None:
    player = new_id()
    await ports.fund(player, 50)
    with pytest.raises(FailedPrecondition):
        await ports.wallet.hold_stake(new_id(), player, 100, "ticket")
    assert await ports.available(player) == 50


async def test_releasing_an_unknown_hold_is_a_final_refusal(ports: Ports) -> None:
    with pytest.raises(DomainError) as refused:
        await ports.wallet.release_hold(new_id())
    assert not isinstance(refused.value, Unavailable)  # the lobby stops retrying it


async def test_opening_a_table_twice_opens_it_once(ports: Ports) -> None:
    player, table_id = new_id(), new_id()
    spec = table_spec("pika", 2, {})
    seats = [Seat(0, player, "Ada"), *bot_seats(1, 1, BotLevel.EASY)]
    await ports.engine.open_table(table_id, spec, seats, Mode.VERSUS_COMPUTER)
    await ports.engine.open_table(table_id, spec, seats, Mode.VERSUS_COMPUTER)
    assert await ports.seats_of(table_id) == [player, "bot"]
