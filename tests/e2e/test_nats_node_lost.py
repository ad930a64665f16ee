"""Losing one node of a three-node NATS cluster loses nothing (OPS-3).

Three nats-server processes run as one JetStream cluster and the platform keeps its
events stream on all three (``TAVOLO_NATS_REPLICAS=3``); the services are given the
three URLs. Players play in waves: stake tables of four players, tables of four players
with no stake, and a player against three bots (`PlayVersusComputer`). While they play,
the node leading the events stream is killed with SIGKILL; once the two others have a
new leader and every event committed before the kill has reached JetStream, the node is
restarted and must become a current replica again, and the next kill takes whichever
node leads then. Checked at the end: every table finished and every pot was paid once,
to the winners, so each player's balance is the welcome grant less their stakes plus
their shares; the ledger balances; every event each service committed reached JetStream
(each outbox relay's checkpoint is its log's head); the wallet and the leaderboard each
handled every stake table's TableFinished once.

Sized by `tests.scale`: one stake table and one bot table, one kill, inside `make test`;
under ``TAVOLO_SOAK=full`` six stake tables, four player tables and eight bot tables a
wave, at least four waves, the leader killed three times, 200 players' actions apart.
The figures (tables, actions, time to a new leader and to every earlier event published,
deliveries beyond the first, stakes paid and refunded) are printed.
"""

from __future__ import annotations

import asyncio
import random
import time
from collections import Counter, defaultdict
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

import asyncpg
import grpc
import nats.errors
import nats.js.errors
import pytest

from tavolo.messaging import Topology
from tavolo.servicekit.connect import connect_nats
from tavolo.servicekit.embedded import EmbeddedNatsCluster, wait_for_placement
from tavolo.v1 import common_pb2, engine_pb2, lobby_pb2, wallet_pb2
from tavolo.wallet.payouts import split_pot
from tests.integration.lobby.platform import (
    PLATFORM_WALLET,
    Platform,
    Player,
    play_seat,
    running_platform,
)
from tests.integration.wallet.ledger_audit import audit
from tests.scale import scaled
from tests.waiting import eventually

pytestmark = [pytest.mark.e2e, pytest.mark.fault]

STAKE = 100
WELCOME = 5000
STAKE_TABLES = scaled(1, 6)
PLAYER_TABLES = scaled(0, 4)
BOT_TABLES = scaled(1, 8)
KILLS = scaled(1, 3)
WAVES = scaled(1, 4)  # at least, and on until the last kill
KILL_EVERY = scaled(3, 200)  # players' actions before each kill
SCHEMAS = ("lobby", "engine", "wallet")


@pytest.fixture
def cluster(tmp_path: Path) -> Iterator[EmbeddedNatsCluster]:
    nodes = EmbeddedNatsCluster(tmp_path / "nats", size=3)
    try:  # a node that fails to start must not leave the others running
        nodes.start()
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


async def _stream_info(url: str, stream: str, within: float, ready: object) -> object:
    """The first ``stream_info`` of ``stream`` for which ``ready(info)`` holds, asked of
    the nodes in ``url`` until then (while a leader is being elected they time out)."""
    nc = await connect_nats(url, require_jetstream=False)
    try:
        async with asyncio.timeout(within):
            while True:
                try:
                    info = await nc.jetstream().stream_info(stream)
                except (nats.errors.TimeoutError, nats.js.errors.APIError):
                    info = None
                if info is not None and ready(info):  # type: ignore[operator]
                    return info
                await asyncio.sleep(0.1)
    finally:
        await nc.close()


async def _stream_leader(url: str, stream: str, within: float = 30.0) -> str:
    """The node leading ``stream``, once the nodes in ``url`` have one."""
    info = await _stream_info(
        url, stream, within, lambda i: i.cluster is not None and bool(i.cluster.leader)
    )
    assert info.config.num_replicas == 3  # type: ignore[attr-defined]
    return str(info.cluster.leader)  # type: ignore[attr-defined]


async def _caught_up(url: str, stream: str, node: str, within: float = 60.0) -> None:
    """Wait until ``node``, restarted, is again a current replica of ``stream``."""

    def current(info: object) -> bool:
        cluster = info.cluster  # type: ignore[attr-defined]
        if cluster is None:
            return False
        peers = {cluster.leader: True} | {
            p.name: bool(p.current) and not p.offline for p in cluster.replicas or []
        }
        return len(peers) == 3 and bool(peers.get(node))

    await _stream_info(url, stream, within, current)


async def _heads(conn: asyncpg.Connection) -> dict[str, int]:
    """Each service's log head: the positions handed out so far (sequenced first)."""
    heads = {}
    for schema in SCHEMAS:
        await conn.fetchval(f"SELECT {schema}.sequence_events(10000)")
        heads[schema] = int(await conn.fetchval(f"SELECT position FROM {schema}.event_log_head"))
    return heads


async def _published(conn: asyncpg.Connection) -> dict[str, int]:
    """Each service's outbox relay checkpoint: what JetStream has confirmed."""
    return {
        schema: int(
            await conn.fetchval(
                f"SELECT coalesce(max(position), 0) FROM {schema}.relay_checkpoints"
            )
        )
        for schema in SCHEMAS
    }


@dataclass
class Kill:
    """One node killed: when, and how long until the cluster had recovered."""

    node: str
    new_leader: str = ""
    to_new_leader: float = 0.0
    to_published: float = 0.0
    actions_before: int = 0


@dataclass
class Play:
    """What the players have done so far (counted by the test, the players' side)."""

    actions: int = 0
    tables: Counter[str] = field(default_factory=Counter)
    stake_results: list[tuple[str, list[Player], list[int], list[int]]] = field(
        default_factory=list
    )
    unfinished: list[str] = field(default_factory=list)
    played: defaultdict[str, set[str]] = field(default_factory=lambda: defaultdict(set))


class Counted:
    """An engine stub that counts the player's accepted `Act` calls."""

    def __init__(self, platform: Platform, play: Play) -> None:
        self._platform = platform
        self._play = play

    def __getattr__(self, name: str) -> object:
        return getattr(self._platform.engine, name)

    async def Act(self, request: engine_pb2.ActRequest, **kwargs: object) -> object:
        answer = await self._platform.engine.Act(request, **kwargs)
        self._play.actions += 1
        return answer


async def _seated_anew(platform: Platform, player: Player, played: set[str]) -> Any:
    """The player's next seat on WatchLobby, skipping tables already played."""
    stream = platform.lobby.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=player.metadata)
    try:
        async with asyncio.timeout(300):
            while True:
                update = await stream.read()
                seated = update.WhichOneof("update") == "seated"
                if seated and update.seated.table_id not in played:
                    return update.seated
    finally:
        stream.cancel()


async def _lobby_lets_go(call: Any) -> Any:
    """``call()`` once the lobby has let go of the player's last table: it learns that the
    table ended from TableFinished, which the node lost may hold up for a while (until
    then it answers FAILED_PRECONDITION, already seated)."""
    async with asyncio.timeout(240):
        while True:
            try:
                return await call()
            except grpc.aio.AioRpcError as exc:
                if exc.code() != grpc.StatusCode.FAILED_PRECONDITION:
                    raise
            await asyncio.sleep(0.2)


async def _join(platform: Platform, player: Player, stake: int) -> None:
    request = lobby_pb2.JoinQueueRequest(game="pika", players=4, stake=stake)
    await _lobby_lets_go(lambda: platform.lobby.JoinQueue(request, metadata=player.metadata))


async def _queue_tables(
    platform: Platform, players: list[Player], stake: int, play: Play, seed: int
) -> None:
    """Tables of four formed by the matchmaker from one queue (players of several tables
    join together, so who sits with whom is the matchmaker's choice), played to the end."""
    watchers = [asyncio.create_task(_seated_anew(platform, p, play.played[p.id])) for p in players]
    await asyncio.sleep(0.2)
    await asyncio.gather(*(_join(platform, p, stake) for p in players))
    seats = await asyncio.gather(*watchers)
    by_table: dict[str, list[tuple[Player, int]]] = {}
    for seat, player in zip(seats, players, strict=True):
        by_table.setdefault(seat.table_id, []).append((player, seat.seat))
        play.played[player.id].add(seat.table_id)

    async def finish(table_id: str, seated: list[tuple[Player, int]], seed: int) -> None:
        views = await _play_all(platform, table_id, [p for p, _ in seated], play, seed)
        play.tables["stake" if stake else "player"] += 1
        if views[0].status != engine_pb2.TABLE_STATUS_FINISHED:
            play.unfinished.append(table_id)
        elif stake:
            places = list(views[0].outcome.places)
            play.stake_results.append(
                (table_id, [p for p, _ in seated], [s for _, s in seated], places)
            )

    await asyncio.gather(
        *(finish(t, seated, seed + i) for i, (t, seated) in enumerate(by_table.items()))
    )


async def _bot_table(platform: Platform, player: Player, play: Play, seed: int) -> None:
    request = lobby_pb2.PlayVersusComputerRequest(
        game="pika", players=4, level=common_pb2.BOT_LEVEL_EASY
    )
    assignment = await _lobby_lets_go(
        lambda: platform.lobby.PlayVersusComputer(request, metadata=player.metadata)
    )
    await _finish(platform, assignment.table_id, [player], play, "bot", seed)


async def _finish(
    platform: Platform, table_id: str, players: list[Player], play: Play, kind: str, seed: int
) -> None:
    views = await _play_all(platform, table_id, players, play, seed)
    play.tables[kind] += 1
    if views[0].status != engine_pb2.TABLE_STATUS_FINISHED:
        play.unfinished.append(table_id)


async def _play_all(
    platform: Platform, table_id: str, players: list[Player], play: Play, seed: int
) -> list[engine_pb2.TableView]:
    counted = replace(platform, engine=Counted(platform, play))  # type: ignore[arg-type]
    return list(
        await asyncio.gather(
            *(
                play_seat(counted, table_id, p, random.Random(seed * 10 + i), within=600)
                for i, p in enumerate(players)
            )
        )
    )


async def _waves(
    platform: Platform, groups: dict[str, list[Player]], play: Play, stop: asyncio.Event
) -> int:
    """Every group plays a table a wave, waves on until ``stop`` is set and ``WAVES`` have
    been played; the waves played."""
    stake, people, bots = groups["stake"], groups["player"], groups["bot"]
    wave = 0
    while not stop.is_set() or wave < WAVES:
        seed = wave * 1000
        jobs = [_queue_tables(platform, stake, STAKE, play, seed)]
        if people:
            jobs.append(_queue_tables(platform, people, 0, play, seed + 500))
        jobs += [_bot_table(platform, p, play, seed + 700 + i) for i, p in enumerate(bots)]
        await asyncio.gather(*jobs)
        wave += 1
    return wave


async def _redelivered(url: str, stream: str) -> int:
    """Deliveries beyond the first, over every consumer of ``stream``: each consumer's
    delivery count less the messages its filters match (all delivered and acked by then)."""
    nc = await connect_nats(url, require_jetstream=False)
    try:
        js = nc.jetstream()
        counts = (await js.stream_info(stream, subjects_filter=">")).state.subjects or {}
        extra = 0
        for consumer in await js.consumers_info(stream):
            config = consumer.config
            filters = config.filter_subjects or [config.filter_subject or ">"]
            matched = sum(n for s, n in counts.items() if any(_matches(f, s) for f in filters))
            assert consumer.delivered is not None
            extra += consumer.delivered.consumer_seq - matched
        return extra
    finally:
        await nc.close()


def _matches(pattern: str, subject: str) -> bool:
    """NATS subject matching: ``*`` one token, ``>`` the rest."""
    wanted, tokens = pattern.split("."), subject.split(".")
    for i, token in enumerate(wanted):
        if token == ">":
            return len(tokens) > i
        if i >= len(tokens) or (token != "*" and token != tokens[i]):
            return False
    return len(tokens) == len(wanted)


async def _kill_leaders(
    cluster: EmbeddedNatsCluster,
    stream: str,
    conn: asyncpg.Connection,
    play: Play,
    stop: asyncio.Event,
) -> list[Kill]:
    """Kill the stream's leader ``KILLS`` times while tables are in play; each time wait for
    a new leader, for every event committed before the kill to be published, then restart
    the node and wait until it is a current replica again. After the last kill no new
    wave starts (``stop``); the one in play goes on through the recovery."""
    kills: list[Kill] = []
    for n in range(KILLS):
        before = play.actions

        async def playing(before: int = before) -> bool:
            return play.actions >= before + KILL_EVERY

        await eventually(playing, "the players to act", within=300)  # polled, not slept for
        leader = await _stream_leader(cluster.url, stream)
        lost = cluster.node(leader)
        heads = await _heads(conn)
        kill = Kill(leader, actions_before=play.actions)
        started = time.monotonic()
        lost.kill()
        if n == KILLS - 1:
            stop.set()
        others = ",".join(n.url for n in cluster.nodes if n is not lost)
        kill.new_leader = await _stream_leader(others, stream, within=60)
        kill.to_new_leader = time.monotonic() - started
        assert kill.new_leader != leader

        async def published(heads: dict[str, int] = heads) -> bool:
            return all(done >= heads[s] for s, done in (await _published(conn)).items())

        await eventually(published, "the events committed before the kill", within=120)
        kill.to_published = time.monotonic() - started
        lost.start()
        await _caught_up(cluster.url, stream, leader)
        kills.append(kill)
    return kills


async def test_ops3_the_events_stream_leader_killed_mid_play_loses_nothing(
    platform: Platform, cluster: EmbeddedNatsCluster, database_url: str, namespace: str
) -> None:
    stream = Topology(namespace).events_stream
    groups = {
        "stake": [await platform.register(f"Posta{i}") for i in range(4 * STAKE_TABLES)],
        "player": [await platform.register(f"Gente{i}") for i in range(4 * PLAYER_TABLES)],
        "bot": [await platform.register(f"Solo{i}") for i in range(BOT_TABLES)],
    }
    play = Play()
    stop = asyncio.Event()
    started = time.monotonic()
    waves = asyncio.create_task(_waves(platform, groups, play, stop))
    conn = await asyncpg.connect(database_url)
    try:
        try:
            kills = await _kill_leaders(cluster, stream, conn, play, stop)
        finally:
            stop.set()
        wave_count = await asyncio.wait_for(waves, timeout=900)
        seconds = time.monotonic() - started
        assert play.unfinished == []

        # Every pot paid once, to the winners: each stake player's balance says so.
        expected = dict.fromkeys((p.id for p in groups["stake"]), WELCOME)
        for _, players, seats, places in play.stake_results:
            shares = split_pot(STAKE * 4, [seat for seat, place in enumerate(places) if place == 1])
            for player, seat in zip(players, seats, strict=True):
                expected[player.id] += shares.get(seat, 0) - STAKE

        async def balances() -> dict[str, int]:
            found = {}
            for player in groups["stake"]:
                balance = await platform.wallet.GetBalance(
                    wallet_pb2.GetBalanceRequest(), metadata=player.metadata
                )
                found[player.id] = int(balance.available)
            return found

        async def paid() -> bool:
            return await balances() == expected

        await eventually(paid, "every pot paid", within=120)
        async with asyncio.timeout(120):
            while True:  # every committed event reached JetStream
                heads, published = await _heads(conn), await _published(conn)
                if all(published[s] >= heads[s] for s in SCHEMAS):
                    break
                await asyncio.sleep(0.2)
            finished = {
                row["stream_id"]: row["event_id"]
                for row in await conn.fetch(
                    "SELECT stream_id, event_id::text FROM engine.events"
                    " WHERE type = 'table_finished' AND stream_id = ANY($1)",
                    [f"table-{t}" for t, *_ in play.stake_results],
                )
            }
            assert len(finished) == len(play.stake_results)
            while True:
                handled = {
                    schema: await conn.fetchval(
                        f"SELECT count(*) FROM {schema}.processed_messages"
                        " WHERE message_id = ANY($1)",
                        list(finished.values()),
                    )
                    for schema in ("wallet", "leaderboard")
                }
                if all(n == len(finished) for n in handled.values()):
                    break
                await asyncio.sleep(0.2)
        found = await audit(conn)
        escrow = await conn.fetchval(
            "SELECT coalesce(sum(credits_posted - debits_posted), 0) FROM wallet.accounts"
            " WHERE account_id LIKE 'escrow:%'"
        )
        transfers = Counter(
            row["kind"]
            for row in await conn.fetch(
                "SELECT split_part(transfer_id, ':', 1) AS kind FROM wallet.transfers"
                " WHERE transfer_id LIKE 'payout:%' OR transfer_id LIKE 'refund:%'"
            )
        )
        versions = await conn.fetchval(
            "SELECT count(*) FROM engine.events WHERE stream_id LIKE 'table-%'"
        )
    finally:
        await conn.close()
    redelivered = await _redelivered(cluster.url, stream)
    assert found.problems == []
    assert escrow == 0

    tables = ", ".join(f"{n} {kind}" for kind, n in sorted(play.tables.items()))
    print(
        f"\nOPS-3 node lost: {wave_count} waves in {seconds:.0f} s, tables {tables};"
        f" {play.actions} player actions, {versions} table events;"
        f" {transfers['payout']} payouts and {transfers['refund']} refunds of stakes;"
        f" {redelivered} deliveries beyond the first"
    )
    for n, kill in enumerate(kills, 1):
        print(
            f"  kill {n}: {kill.node} (leader) after {kill.actions_before} actions;"
            f" new leader {kill.new_leader} in {kill.to_new_leader:.1f} s; every event"
            f" committed before the kill published {kill.to_published:.1f} s after it"
        )
