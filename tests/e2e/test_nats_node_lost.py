"""Losing one node of a three-node NATS cluster loses nothing (OPS-3).

Three nats-server processes run as one JetStream cluster and the platform keeps its
events stream on all three (``TAVOLO_NATS_REPLICAS=3``); the services are given the
three URLs. Four players play a stake table; mid-play the node leading the events stream
is killed with SIGKILL, and restarted after the table has ended. Checked then: the table
finished (the other two nodes elected a new leader) and the pot was paid once, to the
winners; the ledger balances; every event each service committed reached JetStream
(each outbox relay's checkpoint is its log's head); the wallet and the leaderboard each
handled the table's TableFinished once; the restarted node is a current replica again.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Iterator
from dataclasses import replace
from pathlib import Path

import asyncpg
import grpc
import nats.errors
import nats.js.errors
import pytest

from tavolo.messaging import Topology
from tavolo.servicekit.connect import connect_nats
from tavolo.servicekit.embedded import EmbeddedNatsCluster, wait_for_placement
from tavolo.v1 import engine_pb2, lobby_pb2, wallet_pb2
from tavolo.wallet.payouts import split_pot
from tests.integration.lobby.platform import (
    PLATFORM_WALLET,
    Platform,
    Player,
    play_seat,
    running_platform,
    seated_at,
)
from tests.integration.wallet.ledger_audit import audit

pytestmark = [pytest.mark.e2e, pytest.mark.fault]

STAKE = 100
WELCOME = 1000


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[EmbeddedNatsCluster]:
    nodes = EmbeddedNatsCluster(tmp_path / "nats", size=3)
    nodes.start()
    try:
        yield nodes
    finally:
        nodes.stop()


@pytest.fixture
async def platform(
    cluster: EmbeddedNatsCluster, database_url: str, namespace: str
) -> AsyncIterator[Platform]:
    await wait_for_placement(cluster.url, 3)
    async with running_platform(
        database_url,
        cluster.url,
        namespace,
        wallet=replace(PLATFORM_WALLET, welcome_coins=WELCOME),
        with_leaderboard=True,
        stream_replicas=3,
    ) as running:
        yield running


async def _stream_leader(url: str, stream: str, within: float = 30.0) -> str:
    """The node leading ``stream``, asked of the nodes in ``url`` until one answers with
    a leader (after a node is lost, once the others have elected one)."""
    nc = await connect_nats(url, require_jetstream=False)
    try:
        async with asyncio.timeout(within):
            while True:
                try:
                    info = await nc.jetstream().stream_info(stream)
                except (nats.errors.TimeoutError, nats.js.errors.APIError):
                    await asyncio.sleep(0.2)
                    continue
                if info.cluster is not None and info.cluster.leader:
                    assert info.config.num_replicas == 3
                    return info.cluster.leader
                await asyncio.sleep(0.2)
    finally:
        await nc.close()


async def _caught_up(url: str, stream: str, node: str, within: float = 60.0) -> None:
    """Wait until ``node``, restarted, is again a current replica of ``stream``."""
    nc = await connect_nats(url, require_jetstream=False)
    try:
        async with asyncio.timeout(within):
            while True:
                try:
                    info = await nc.jetstream().stream_info(stream)
                except (nats.errors.TimeoutError, nats.js.errors.APIError):
                    info = None
                cluster = info.cluster if info is not None else None
                if cluster is not None:
                    peers = {cluster.leader: True} | {
                        p.name: bool(p.current) and not p.offline for p in cluster.replicas or []
                    }
                    if len(peers) == 3 and peers.get(node):
                        return
                await asyncio.sleep(0.2)
    finally:
        await nc.close()


async def _moved(platform: Platform, table_id: str, player: Player, versions: int) -> None:
    """Wait until the table has made its first few moves (polled, not slept for)."""
    request = engine_pb2.GetTableRequest(table_id=table_id)
    async with asyncio.timeout(60):
        while True:
            try:
                view = await platform.engine.GetTable(request, metadata=player.metadata)
            except grpc.aio.AioRpcError as exc:
                if exc.code() != grpc.StatusCode.NOT_FOUND:
                    raise
            else:
                if view.version >= versions:
                    return
            await asyncio.sleep(0.01)


async def test_ops3_the_events_stream_leader_killed_mid_play_loses_nothing(
    platform: Platform, cluster: EmbeddedNatsCluster, database_url: str, namespace: str
) -> None:
    players = [await platform.register(f"Nodo{i}") for i in range(4)]
    watchers = [asyncio.create_task(seated_at(platform, p)) for p in players]
    await asyncio.sleep(0.2)
    for player in players:
        await platform.lobby.JoinQueue(
            lobby_pb2.JoinQueueRequest(game="pika", players=4, stake=STAKE),
            metadata=player.metadata,
        )
    seats = await asyncio.gather(*watchers)
    table_id = seats[0].table_id
    # The leader is found before play starts and killed at the first moves: random players
    # on an idle machine finish a Pika table in well under a second.
    leader = await _stream_leader(cluster.url, Topology(namespace).events_stream)
    lost = cluster.node(leader)
    plays = [
        asyncio.create_task(play_seat(platform, table_id, p, random.Random(i)))
        for i, p in enumerate(players)
    ]
    await _moved(platform, table_id, players[0], versions=3)
    assert not all(p.done() for p in plays), "the table ended before the node was lost"
    lost.kill()

    views = await asyncio.wait_for(asyncio.gather(*plays), timeout=240)
    assert all(v.status == engine_pb2.TABLE_STATUS_FINISHED for v in views)
    new_leader = await _stream_leader(
        ",".join(n.url for n in cluster.nodes if n is not lost), Topology(namespace).events_stream
    )
    assert new_leader != leader
    lost.start()

    places = list(views[0].outcome.places)
    seat_of = {p.id: s.seat for s, p in zip(seats, players, strict=True)}
    shares = split_pot(STAKE * 4, [seat for seat, place in enumerate(places) if place == 1])
    expected = [WELCOME - STAKE + shares.get(seat_of[p.id], 0) for p in players]

    async def balances() -> list[int]:
        found = []
        for player in players:
            balance = await platform.wallet.GetBalance(
                wallet_pb2.GetBalanceRequest(), metadata=player.metadata
            )
            found.append(int(balance.available))
        return found

    conn = await asyncpg.connect(database_url)
    try:
        async with asyncio.timeout(60):
            while True:
                if await balances() == expected:
                    break
                await asyncio.sleep(0.2)
            while True:  # every committed event reached JetStream
                behind = [
                    schema
                    for schema in ("lobby", "engine", "wallet")
                    if await conn.fetchval(
                        f"SELECT (SELECT position FROM {schema}.event_log_head)"
                        f" - coalesce((SELECT max(position) FROM {schema}.relay_checkpoints), 0)"
                    )
                ]
                if not behind:
                    break
                await asyncio.sleep(0.2)
            finished_id = await conn.fetchval(
                "SELECT event_id::text FROM engine.events WHERE stream_id = $1"
                " AND type = 'table_finished'",
                f"table-{table_id}",
            )
            assert finished_id is not None
            while True:
                handled = {
                    schema: await conn.fetchval(
                        f"SELECT count(*) FROM {schema}.processed_messages WHERE message_id = $1",
                        finished_id,
                    )
                    for schema in ("wallet", "leaderboard")
                }
                if all(handled.values()):
                    break
                await asyncio.sleep(0.2)
        assert handled == {"wallet": 1, "leaderboard": 1}
        await _caught_up(cluster.url, Topology(namespace).events_stream, leader)
        found = await audit(conn)
        payouts = await conn.fetch(
            "SELECT transfer_id, amount FROM wallet.transfers WHERE debit_account = $1",
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
    assert sorted(r["transfer_id"] for r in payouts) == sorted(
        f"payout:{table_id}:{seat}" for seat in shares
    )
    assert sum(r["amount"] for r in payouts) == STAKE * 4
