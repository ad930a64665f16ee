"""A new player's welcome grant across the platform: the lobby's PlayerRegistered crosses
NATS, the wallet pays the person's first account from issuance, a linked second account
gets nothing, and the new player can sit at a stake table with no operator's grant.

The lobby, engine and wallet run in-process on one database and one NATS namespace, the
wallet configured as deployed.
"""

from __future__ import annotations

from collections.abc import AsyncIterator

import asyncpg
import grpc
import pytest

from tavolo.messaging import Topology
from tavolo.servicekit.error_details import refusal_from_error
from tavolo.v1 import events_pb2, lobby_pb2
from tests.integration.lobby.harness import event_tap
from tests.integration.lobby.platform import PLATFORM_WALLET, Platform, balance, running_platform
from tests.integration.wallet.ledger_audit import audit
from tests.waiting import eventually

pytestmark = pytest.mark.e2e

WELCOME = PLATFORM_WALLET.welcome_coins


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    async with running_platform(database_url, nats_url, namespace) as running:
        yield running


async def test_a_new_person_is_welcomed_once_and_can_sit_at_a_stake_table(
    platform: Platform, database_url: str, nats_url: str, namespace: str
) -> None:
    operator = await platform.operator()
    async with event_tap(nats_url, Topology(namespace)) as tap:
        ada = await platform.register("Benvenuta")
        alt = await platform.register("Benvenuta_Bis", linked=ada)
        registered = await tap.wait_for("PlayerRegistered", events_pb2.PlayerRegistered, 3)

    async def welcomed() -> bool:
        return (await balance(platform, ada)).available == WELCOME

    await eventually(welcomed)
    conn = await asyncpg.connect(database_url)
    try:
        alt_event = next(r.header.event_id for r in registered if r.player_id == alt.id)

        async def alt_handled() -> bool:
            return bool(
                await conn.fetchval(
                    "SELECT count(*) FROM wallet.processed_messages WHERE message_id = $1",
                    alt_event,
                )
            )

        await eventually(alt_handled)
        welcomes = await conn.fetch(
            "SELECT credit_account, amount FROM wallet.transfers WHERE cause = 'welcome'"
        )
        found = await audit(conn)
    finally:
        await conn.close()
    assert (await balance(platform, alt)).available == 0  # the same person, linked
    assert sorted((r["credit_account"], r["amount"]) for r in welcomes) == sorted(
        [(f"player:{operator.id}", WELCOME), (f"player:{ada.id}", WELCOME)]
    )
    assert found.problems == []

    # The grant is what lets a new player stake, with no operator involved.
    await platform.lobby.JoinQueue(
        lobby_pb2.JoinQueueRequest(game="pika", players=4, stake=WELCOME),
        metadata=ada.metadata,
    )
    held = await balance(platform, ada)
    assert (held.available, held.held) == (0, WELCOME)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await platform.lobby.JoinQueue(
            lobby_pb2.JoinQueueRequest(game="pika", players=4, stake=100),
            metadata=alt.metadata,
        )
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "insufficient coins: 0 available" in (refused.value.details() or "")
    # The wallet's reason and values reach the player through the lobby unchanged (API-1).
    passed_on = refusal_from_error(refused.value)
    assert passed_on is not None and passed_on.reason == "INSUFFICIENT_COINS"
    assert dict(passed_on.metadata) == {"available": "0", "needed": "100"}
