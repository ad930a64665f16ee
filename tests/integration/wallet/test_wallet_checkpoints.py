"""The wallet, like the lobby and the engine, publishes signed checkpoints of its log's
head on NATS (the log of what happens to stake holds), so an auditor who keeps them can
later show a rewritten wallet log for what it is."""

from __future__ import annotations

import asyncio

import nats
import pytest

from tavolo.eventlog import PostgresEventStore
from tavolo.eventlog.checkpoint import Checkpoint, checkpoint_subject, public_hex, signing_key
from tavolo.eventlog.integrity import EMPTY_DIGEST, fold_digest
from tavolo.servicekit.runtime import start_service
from tavolo.servicekit.settings import Settings
from tavolo.wallet import store
from tavolo.wallet.bootstrap import make_assemble
from tavolo.wallet.config import WalletConfig
from tests.secret import TEST_CHECKPOINT_KEY, TEST_TOKEN_SECRET
from tests.waiting import eventually

from . import wire
from .conftest import LOBBY, OPERATOR
from .running import Running

pytestmark = pytest.mark.integration


async def test_the_wallet_signs_checkpoints_of_its_log_head(
    database_url: str, nats_url: str, namespace: str, running: Running
) -> None:
    await wire.publish(running.js, running.topology, wire.player_registered("cleo", "person-x"))

    async def held() -> bool:
        try:
            await running.wallet.grant(OPERATOR, "g-cleo", "cleo", 500, "t")
        except Exception:
            return False
        await running.wallet.hold_stake(LOBBY, "h-cleo", "cleo", 250, "ticket", 0)
        return True

    await eventually(held, "cleo's account, a grant and a hold")
    settings = Settings(
        database_url=database_url,
        nats_url=nats_url,
        namespace=namespace,
        token_secret=TEST_TOKEN_SECRET,
        checkpoint_key=TEST_CHECKPOINT_KEY,
        checkpoint_seconds=0.2,
    )
    kept: list[Checkpoint] = []
    past_the_hold = asyncio.Event()
    client = await nats.connect(nats_url)

    async def keep(message: object) -> None:
        kept.append(Checkpoint.from_json(message.data))  # type: ignore[attr-defined]
        if kept[-1].position > 0:
            past_the_hold.set()

    await client.subscribe(checkpoint_subject(namespace, "wallet"), cb=keep)
    service = await start_service("wallet", make_assemble(WalletConfig()), settings, port=0)
    try:
        await asyncio.wait_for(past_the_hold.wait(), 20)
    finally:
        await service.stop(0.5)
        await client.drain()
    checkpoint = max(kept, key=lambda c: c.position)
    assert checkpoint.service == "wallet"
    assert checkpoint.signature_ok(public_hex(signing_key(TEST_CHECKPOINT_KEY)))
    assert not checkpoint.signature_ok(public_hex(signing_key()))  # not the source's key
    events = await PostgresEventStore(running.pool, store.SCHEMA).read_all(0, 1000)
    digest = EMPTY_DIGEST
    for event in events:
        if event.position > checkpoint.position:
            break
        digest = fold_digest(digest, event.hash)
    assert digest == checkpoint.digest
