"""The welcome grant from the lobby's PlayerRegistered, on a real NATS JetStream and
PostgreSQL: paid once per person, never twice for a replay, off at 0, and the ledger still
sums to zero."""

from __future__ import annotations

import asyncio

import asyncpg
import pytest

from tavolo.messaging import DeadLetters
from tavolo.servicekit.errors import NotFound
from tavolo.wallet import store
from tavolo.wallet.accounts import issuance_account
from tavolo.wallet.config import WalletConfig
from tavolo.wallet.facts import PlayerRegistered
from tavolo.wallet.store import Connection
from tavolo.wallet.welcome import Welcome
from tests.waiting import eventually

from . import wire
from .conftest import LOBBY, OPERATOR
from .ledger_audit import audit_pool, balance, issued
from .running import Running, wallet_on_nats

pytestmark = pytest.mark.integration

WELCOME = WalletConfig().welcome_coins


async def transfers_to(pool: asyncpg.Pool, player: str) -> list[asyncpg.Record]:
    async with pool.acquire() as conn:
        rows: list[asyncpg.Record] = await conn.fetch(
            "SELECT transfer_id, debit_account, amount, cause, event_id FROM wallet.transfers"
            " WHERE credit_account = $1 ORDER BY seq",
            f"player:{player}",
        )
    return rows


async def test_a_new_player_is_welcomed_once_whatever_replays_the_registration(
    running: Running,
) -> None:
    registered = wire.player_registered("ann", "ann")
    await wire.publish(running.js, running.topology, registered)
    await running.handled(registered.header.event_id)
    assert await balance(running.pool, "player:ann") == WELCOME == 1000

    # JetStream drops the same id; under a new id the wallet handles it and pays nothing.
    again = await wire.publish(running.js, running.topology, registered)
    assert again.duplicate
    await wire.publish(running.js, running.topology, registered, msg_id="replayed-registration")
    await running.handled("replayed-registration")
    assert await balance(running.pool, "player:ann") == WELCOME
    [grant] = await transfers_to(running.pool, "ann")
    assert dict(grant) == {
        "transfer_id": "welcome:ann",
        "debit_account": issuance_account("welcome:ann"),
        "amount": WELCOME,
        "cause": "welcome",
        "event_id": registered.header.event_id,
    }
    assert await issued(running.pool) == -WELCOME
    assert (await audit_pool(running.pool)).problems == []

    # What the grant is for: a seat at a stake table without waiting for an operator.
    await running.wallet.hold_stake(LOBBY, "ticket-1", "ann", 1000, "queue", 0)


async def test_a_linked_account_of_the_same_person_gets_no_second_welcome(
    running: Running,
) -> None:
    first = wire.player_registered("ann", "ann")
    linked = wire.player_registered("ann-alt", "ann")
    older_lobby = wire.player_registered("bob", "")  # recorded before events named the person
    for event in (first, linked, older_lobby):
        await wire.publish(running.js, running.topology, event)
    await running.handled(*(e.header.event_id for e in (first, linked, older_lobby)))
    assert [await balance(running.pool, f"player:{p}") for p in ("ann", "ann-alt", "bob")] == [
        WELCOME,
        0,
        WELCOME,
    ]
    assert await transfers_to(running.pool, "ann-alt") == []
    assert (await audit_pool(running.pool)).problems == []


async def test_a_welcome_of_0_coins_grants_nothing(
    database_url: str, nats_url: str, namespace: str
) -> None:
    config = WalletConfig(ack_wait=2.0, sweep_seconds=0.2, welcome_coins=0)
    async with wallet_on_nats(database_url, nats_url, namespace, config) as running:
        registered = wire.player_registered("ann", "ann")
        await wire.publish(running.js, running.topology, registered)
        await running.handled(registered.header.event_id)
        assert await balance(running.pool, "player:ann") == 0
        async with running.pool.acquire() as conn:
            assert await conn.fetchval("SELECT count(*) FROM wallet.transfers") == 0
        assert (await audit_pool(running.pool)).problems == []


async def test_pcg4_a_frozen_account_is_not_welcomed_and_the_event_is_not_retried(
    running: Running,
) -> None:
    frozen = wire.account_frozen("bob", "s1")
    registered = wire.player_registered("bob", "bob")
    await wire.publish(running.js, running.topology, frozen)
    await wire.publish(running.js, running.topology, registered)
    await running.handled(frozen.header.event_id, registered.header.event_id)
    bob = await running.wallet.get_balance(OPERATOR, "bob")
    assert (bob.available, bob.frozen) == (0, True)
    durable = running.topology.consumer_name("wallet", "events")
    info = await running.js.consumer_info(running.topology.events_stream, durable)
    assert info.num_redelivered == 0  # skipped, as a frozen seat's reward is, not retried


async def test_a_malformed_registration_is_dead_lettered_not_retried(running: Running) -> None:
    nameless = wire.player_registered("", "")
    await wire.publish(running.js, running.topology, nameless)
    letters = DeadLetters(running.js, running.topology)

    async def dead_lettered() -> bool:
        return [x.message_id for x in await letters.latest(5)] == [nameless.header.event_id]

    await eventually(dead_lettered, "the nameless registration kept as a dead letter")
    (letter,) = await letters.latest(5)
    assert letter.deliveries == 1 and "player_id is empty" in letter.error
    assert await issued(running.pool) == 0


async def welcome_in_transaction(
    pool: asyncpg.Pool, welcome: Welcome, fact: PlayerRegistered
) -> None:
    async def work(conn: Connection) -> None:
        await welcome.registered(conn, fact)

    await store.in_transaction(pool, work)


async def test_replicas_and_a_changed_amount_never_pay_an_account_twice(
    pool: asyncpg.Pool,
) -> None:
    fact = PlayerRegistered(event_id="e1", player_id="cy", person_id="cy")
    # Two replicas handling the same registration under two message ids at once.
    await asyncio.gather(
        welcome_in_transaction(pool, Welcome(WELCOME), fact),
        welcome_in_transaction(pool, Welcome(WELCOME), fact),
    )
    # A replay after the configured amount changed: the first payment stands.
    await welcome_in_transaction(pool, Welcome(WELCOME // 2), fact)
    assert await balance(pool, "player:cy") == WELCOME
    assert (await audit_pool(pool)).problems == []


async def test_an_account_opens_when_its_registration_arrives_and_not_before(
    database_url: str, nats_url: str, namespace: str
) -> None:
    """Coins move only into accounts the lobby registered; with no welcome grant the
    registration still opens the account."""
    config = WalletConfig(ack_wait=2.0, sweep_seconds=0.2, welcome_coins=0)
    async with wallet_on_nats(database_url, nats_url, namespace, config) as running:
        with pytest.raises(NotFound, match="no account for player 'ann'"):
            await running.wallet.grant(OPERATOR, "g-ann", "ann", 100, "goodwill")
        registered = wire.player_registered("ann", "ann")
        await wire.publish(running.js, running.topology, registered)
        await running.handled(registered.header.event_id)
        await running.wallet.grant(OPERATOR, "g-ann", "ann", 100, "goodwill")
        assert await balance(running.pool, "player:ann") == 100
        assert (await audit_pool(running.pool)).problems == []
