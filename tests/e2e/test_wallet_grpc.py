"""The ``Wallet`` service over real gRPC: roles (guarantee 9), status codes and messages
(guarantee 8), and the "two tables, funds for one" refusal (MODE-4)."""

from __future__ import annotations

from collections.abc import AsyncIterator
from dataclasses import dataclass

import grpc
import pytest

from tavolo.servicekit.auth import Role, TokenSigner
from tavolo.servicekit.error_details import refusal_from_error
from tavolo.servicekit.runtime import start_service
from tavolo.servicekit.settings import Settings
from tavolo.v1 import common_pb2
from tavolo.v1 import wallet_pb2 as pb
from tavolo.v1 import wallet_pb2_grpc as pb_grpc
from tavolo.wallet.bootstrap import make_assemble
from tavolo.wallet.config import WalletConfig
from tests.integration.wallet.registered import register
from tests.secret import TEST_CHECKPOINT_KEY, TEST_TOKEN_SECRET

pytestmark = pytest.mark.e2e

Metadata = tuple[tuple[str, str], ...]


@dataclass
class Client:
    stub: pb_grpc.WalletAsyncStub
    signer: TokenSigner

    def as_(self, player: str, *roles: Role) -> Metadata:
        token, _ = self.signer.issue(player, roles or (Role.PLAYER,))
        return (("authorization", f"Bearer {token}"),)

    @property
    def lobby(self) -> Metadata:
        return self.as_("lobby", Role.SERVICE)

    @property
    def operator(self) -> Metadata:
        return self.as_("op", Role.OPERATOR)


@pytest.fixture
async def client(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Client]:
    settings = Settings(
        database_url=database_url,
        nats_url=nats_url,
        namespace=namespace,
        token_secret=TEST_TOKEN_SECRET,
        checkpoint_key=TEST_CHECKPOINT_KEY,
    )
    service = await start_service("wallet", make_assemble(WalletConfig()), settings, port=0)
    await register(service.infra.pool, "ann", "bob")
    try:
        async with grpc.aio.insecure_channel(f"127.0.0.1:{service.port}") as channel:
            yield Client(pb_grpc.WalletStub(channel), TokenSigner(settings.token_secret))  # type: ignore[arg-type]
    finally:
        await service.stop(0.5)


def _reason(error: grpc.aio.AioRpcError) -> str:
    """The refusal's reason (API-1); an error without one fails the test."""
    refusal = refusal_from_error(error)
    assert refusal is not None and refusal.domain == "tavolo.v1", error.details()
    return refusal.reason


async def refused(call: object) -> grpc.aio.AioRpcError:
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await call  # type: ignore[misc]
    return error.value


async def test_mode4_two_tables_with_funds_for_one_fails_precondition_and_changes_nothing(
    client: Client,
) -> None:
    await client.stub.Grant(
        pb.GrantRequest(transfer_id="w-ann", player_id="ann", amount=900, reason="welcome"),
        metadata=client.operator,
    )
    first = await client.stub.HoldStake(
        pb.HoldStakeRequest(hold_id="ticket-1", player_id="ann", amount=500, cause="pika"),
        metadata=client.lobby,
    )
    assert first.state == pb.TRANSFER_STATE_PENDING
    before = await client.stub.GetBalance(pb.GetBalanceRequest(), metadata=client.as_("ann"))
    error = await refused(
        client.stub.HoldStake(
            pb.HoldStakeRequest(hold_id="ticket-2", player_id="ann", amount=500, cause="spades"),
            metadata=client.lobby,
        )
    )
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert error.details() == "insufficient coins: 400 available, 500 needed"
    refusal = refusal_from_error(error)  # API-1: what an app needs to say it in its words
    assert refusal is not None and refusal.reason == "INSUFFICIENT_COINS"
    assert dict(refusal.metadata) == {"available": "400", "needed": "500"}
    after = await client.stub.GetBalance(pb.GetBalanceRequest(), metadata=client.as_("ann"))
    assert after == before
    assert (after.available, after.held) == (400, 500)
    listed = await client.stub.ListTransfers(pb.ListTransfersRequest(), metadata=client.as_("ann"))
    assert [t.transfer_id for t in listed.transfers] == ["ticket-1", "w-ann"]


async def test_coins_for_an_account_nobody_registered_are_refused_not_found(
    client: Client,
) -> None:
    """A grant used to mint coins into any id at all, opening an account for nobody."""
    for call in (
        client.stub.Grant(
            pb.GrantRequest(transfer_id="g-ghost", player_id="ghost", amount=900, reason="r"),
            metadata=client.operator,
        ),
        client.stub.HoldStake(
            pb.HoldStakeRequest(hold_id="h-ghost", player_id="ghost", amount=100),
            metadata=client.lobby,
        ),
    ):
        error = await refused(call)
        assert error.code() == grpc.StatusCode.NOT_FOUND, error.details()
        assert "no account for player 'ghost'" in (error.details() or "")
        assert _reason(error) == "WALLET_ACCOUNT_NOT_FOUND"
    ghost = await client.stub.GetBalance(
        pb.GetBalanceRequest(player_id="ghost"), metadata=client.operator
    )
    assert (ghost.available, ghost.held) == (0, 0)
    listed = await client.stub.ListTransfers(
        pb.ListTransfersRequest(player_id="ghost"), metadata=client.operator
    )
    assert list(listed.transfers) == []


async def test_guarantee9_every_call_needs_a_token_and_the_right_role(client: Client) -> None:
    error = await refused(client.stub.GetBalance(pb.GetBalanceRequest()))
    assert error.code() == grpc.StatusCode.UNAUTHENTICATED
    assert _reason(error) == "TOKEN_MISSING"
    denied = [
        client.stub.GetBalance(pb.GetBalanceRequest(player_id="bob"), metadata=client.as_("ann")),
        client.stub.ListTransfers(
            pb.ListTransfersRequest(player_id="bob"), metadata=client.as_("ann")
        ),
        client.stub.HoldStake(
            pb.HoldStakeRequest(hold_id="h", player_id="ann", amount=100),
            metadata=client.as_("ann"),
        ),
        client.stub.ReleaseHold(pb.ReleaseHoldRequest(hold_id="h"), metadata=client.as_("ann")),
        client.stub.Grant(
            pb.GrantRequest(transfer_id="g", player_id="ann", amount=5, reason="r"),
            metadata=client.lobby,
        ),
        client.stub.Freeze(
            pb.FreezeRequest(player_id="bob", reason="r"), metadata=client.as_("ann")
        ),
        client.stub.Unfreeze(pb.UnfreezeRequest(player_id="bob"), metadata=client.lobby),
    ]
    for call in denied:
        error = await refused(call)
        assert error.code() == grpc.StatusCode.PERMISSION_DENIED
        assert _reason(error) in {"OWN_ACCOUNT_ONLY", "ROLE_REQUIRED"}
    moderator = client.as_("mod", Role.MODERATOR)
    frozen = await client.stub.Freeze(
        pb.FreezeRequest(player_id="bob", reason="chargeback"), metadata=moderator
    )
    assert frozen.frozen and frozen.frozen_reason == "chargeback"
    read = await client.stub.GetBalance(pb.GetBalanceRequest(player_id="bob"), metadata=moderator)
    assert read.frozen
    error = await refused(
        client.stub.HoldStake(
            pb.HoldStakeRequest(hold_id="h", player_id="bob", amount=100), metadata=client.lobby
        )
    )
    assert error.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "frozen (chargeback)" in (error.details() or "")
    assert _reason(error) == "ACCOUNT_FROZEN"


async def test_guarantee8_bad_input_and_reused_ids_get_clear_statuses(client: Client) -> None:
    cases = [
        (
            client.stub.HoldStake(
                pb.HoldStakeRequest(hold_id="h1", player_id="ann", amount=300),
                metadata=client.lobby,
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "100, 250, 500, 1000",
            "STAKE_INVALID",
        ),
        (
            client.stub.ReleaseHold(pb.ReleaseHoldRequest(hold_id="nope"), metadata=client.lobby),
            grpc.StatusCode.NOT_FOUND,
            "no hold",
            "HOLD_NOT_FOUND",
        ),
        (
            client.stub.ListTransfers(
                pb.ListTransfersRequest(page=common_pb2.PageRequest(page_size=9999)),
                metadata=client.as_("ann"),
            ),
            grpc.StatusCode.INVALID_ARGUMENT,
            "page_size",
            "FIELD_INVALID",
        ),
    ]
    for call, code, says, reason in cases:
        error = await refused(call)
        assert error.code() == code and says in (error.details() or "")
        assert _reason(error) == reason, error.details()
    grant = pb.GrantRequest(transfer_id="g1", player_id="ann", amount=10, reason="r")
    first = await client.stub.Grant(grant, metadata=client.operator)
    assert await client.stub.Grant(grant, metadata=client.operator) == first
    grant.amount = 11
    error = await refused(client.stub.Grant(grant, metadata=client.operator))
    assert error.code() == grpc.StatusCode.ALREADY_EXISTS
    assert _reason(error) == "TRANSFER_ID_USED"
    balance = await client.stub.GetBalance(pb.GetBalanceRequest(), metadata=client.as_("ann"))
    assert balance.available == 10


async def test_a_hold_released_twice_answers_the_same_and_expiry_is_reported(
    client: Client,
) -> None:
    await client.stub.Grant(
        pb.GrantRequest(transfer_id="w", player_id="ann", amount=100, reason="welcome"),
        metadata=client.operator,
    )
    held = await client.stub.HoldStake(
        pb.HoldStakeRequest(hold_id="h1", player_id="ann", amount=100, expires_in_seconds=600),
        metadata=client.lobby,
    )
    assert held.HasField("expires_at")
    first = await client.stub.ReleaseHold(
        pb.ReleaseHoldRequest(hold_id="h1"), metadata=client.lobby
    )
    again = await client.stub.ReleaseHold(
        pb.ReleaseHoldRequest(hold_id="h1"), metadata=client.lobby
    )
    assert first == again and first.state == pb.TRANSFER_STATE_VOIDED
