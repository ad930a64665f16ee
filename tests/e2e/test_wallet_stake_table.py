"""A stake table played end to end over the platform (MODE-4, AUDIT-5, guarantee 7): four
players stake 250 coins through the lobby, the engine plays the table to its end, and the
wallet pays the whole pot to the winners from the engine's TableFinished.

The lobby, engine and wallet run in-process on one database and one NATS namespace; the
players are driven over real gRPC with random legal actions.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import replace

import asyncpg
import pytest

from tavolo.v1 import engine_pb2, lobby_pb2, wallet_pb2
from tavolo.wallet.payouts import split_pot
from tests.integration.lobby.harness import Player
from tests.integration.lobby.platform import (
    PLATFORM_WALLET,
    Platform,
    play_seat,
    running_platform,
    seated_at,
)
from tests.integration.wallet.ledger_audit import audit

pytestmark = pytest.mark.e2e

# Every player starts with exactly the operator's GRANT, so the welcome grant is off here;
# it is tested end to end in test_wallet_welcome.py.
NO_WELCOME = replace(PLATFORM_WALLET, welcome_coins=0)

STAKE = 250
GRANT = 1000


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    async with running_platform(database_url, nats_url, namespace, wallet=NO_WELCOME) as running:
        yield running


async def available(platform: Platform, player: Player) -> int:
    balance = await platform.wallet.GetBalance(
        wallet_pb2.GetBalanceRequest(), metadata=player.metadata
    )
    return int(balance.available)


async def test_mode4_a_stake_table_pays_the_winners_exactly_the_pot_and_the_ledger_sums_to_zero(
    platform: Platform, database_url: str
) -> None:
    operator = await platform.operator()
    players = [await platform.register(f"Puntatore{i}") for i in range(4)]
    for player in players:
        await platform.wallet.Grant(
            wallet_pb2.GrantRequest(
                transfer_id=f"welcome-{player.id}", player_id=player.id, amount=GRANT, reason="w"
            ),
            metadata=operator.metadata,
        )
    watchers = [asyncio.create_task(seated_at(platform, p)) for p in players]
    await asyncio.sleep(0.2)  # the lobby streams are open before anyone is seated
    for player in players:
        await platform.lobby.JoinQueue(
            lobby_pb2.JoinQueueRequest(game="pika", players=4, stake=STAKE),
            metadata=player.metadata,
        )
    seats = await asyncio.gather(*watchers)
    table_id = seats[0].table_id
    assert {s.table_id for s in seats} == {table_id}

    rng = random.Random(11)
    views = await asyncio.gather(
        *(play_seat(platform, table_id, p, random.Random(rng.random())) for p in players)
    )
    assert all(v.status == engine_pb2.TABLE_STATUS_FINISHED for v in views)
    places = list(views[0].outcome.places)
    seat_of = {p.id: s.seat for s, p in zip(seats, players, strict=True)}
    shares = split_pot(STAKE * 4, [seat for seat, place in enumerate(places) if place == 1])
    expected = {p.id: GRANT - STAKE + shares.get(seat_of[p.id], 0) for p in players}

    async with asyncio.timeout(30):  # TableFinished crosses NATS to the wallet
        while True:
            if [await available(platform, p) for p in players] == list(expected.values()):
                break
            await asyncio.sleep(0.1)

    conn = await asyncpg.connect(database_url)
    try:
        found = await audit(conn)
        payouts = await conn.fetch(
            "SELECT transfer_id, amount, event_id FROM wallet.transfers"
            " WHERE debit_account = $1 ORDER BY transfer_id",
            f"escrow:{table_id}",
        )
        escrow = await conn.fetchval(
            "SELECT credits_posted - debits_posted FROM wallet.accounts WHERE account_id = $1",
            f"escrow:{table_id}",
        )
    finally:
        await conn.close()
    assert found.problems == []
    assert escrow == 0
    assert sum(r["amount"] for r in payouts) == STAKE * 4  # the whole pot, no commission
    assert [r["transfer_id"] for r in payouts] == [
        f"payout:{table_id}:{seat}" for seat in sorted(shares)
    ]
    assert all(r["event_id"] for r in payouts)  # AUDIT-5: each names the TableFinished
