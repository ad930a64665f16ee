"""Two processes of every service under `tavolo up --replicas`, and one of each killed with
SIGKILL mid-game (PLAT-5, guarantees 2 and 7): every stake table still finishes, every pot
is paid exactly once and every table ranked once, the wallet's consumer work is shared by
its two replicas, and no turn timer fires twice.

Clients reach each service through the one multi-address target `tavolo up` prints, as
the services themselves do. Two players per table play random legal moves; the second
seat lets its first turn lapse, so every table's turn timer fires at least once.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import time
from collections import defaultdict
from pathlib import Path
from typing import Any

import asyncpg
import grpc
import pytest

from tavolo.servicekit.settings import CLIENT_CHANNEL_OPTIONS
from tavolo.tablelog.convert import recorded_from_proto
from tavolo.tablelog.replay import audit_table
from tavolo.v1 import (
    engine_pb2,
    engine_pb2_grpc,
    lobby_pb2,
    lobby_pb2_grpc,
    wallet_pb2,
    wallet_pb2_grpc,
)
from tavolo.wallet import store as wallet_store
from tavolo.wallet.payouts import split_pot
from tests.e2e.replicated_platform import Running, events_handled, replicated_platform
from tests.integration.lobby.harness import PASSWORD, Player, bearer
from tests.integration.wallet.ledger_audit import audit
from tests.scale import scaled
from tests.secret import TEST_CHECKPOINT_KEY, TEST_TOKEN_SECRET
from tests.waiting import eventually

pytestmark = [pytest.mark.e2e, pytest.mark.fault]

TABLES = scaled(4, 24)
STAKE = 100
GRANT = 1000
TURN_SECONDS = 2
KILLED = ("lobby-1", "engine-1", "wallet-1", "leaderboard-1")
PASSING = (
    grpc.StatusCode.NOT_FOUND,  # the table is not opened yet
    grpc.StatusCode.ABORTED,  # someone (the timer) moved first
    grpc.StatusCode.FAILED_PRECONDITION,  # not this seat's turn any more
    grpc.StatusCode.UNAVAILABLE,  # the replica serving the call was killed under it
)


async def _register(
    lobby: lobby_pb2_grpc.LobbyStub, db: asyncpg.Connection, nickname: str
) -> Player:
    session = await lobby.Register(lobby_pb2.RegisterRequest(nickname=nickname, password=PASSWORD))

    async def opened() -> bool:  # the wallet consumed PlayerRegistered
        return await wallet_store.player_account_exists(db, session.player_id)

    await eventually(opened, f"the wallet to open {nickname}'s account", within=60)
    return Player(session, bearer(session.access_token))


async def _seated(lobby: lobby_pb2_grpc.LobbyStub, player: Player) -> Any:
    stream = lobby.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=player.metadata)
    try:
        async with asyncio.timeout(120):
            while True:
                update = await stream.read()
                if update.WhichOneof("update") == "seated":
                    return update.seated
    finally:
        stream.cancel()


async def _play(
    engine: engine_pb2_grpc.EngineStub, table_id: str, player: Player, seed: int, dawdle: bool
) -> engine_pb2.TableView:
    """Random legal moves until the table ends; with ``dawdle``, the first turn is left to
    the turn timer. Calls cut by a killed replica are asked again, as a client would."""
    rng = random.Random(seed)
    request = engine_pb2.GetTableRequest(table_id=table_id)
    lapsed_at: int | None = None
    async with asyncio.timeout(600):
        while True:
            try:
                view = await engine.GetTable(request, metadata=player.metadata)
                if view.status != engine_pb2.TABLE_STATUS_PLAYING:
                    return view
                if not view.legal_actions or view.version == lapsed_at:
                    await asyncio.sleep(0.05)
                    continue
                if dawdle:
                    dawdle, lapsed_at = False, view.version
                    continue
                await engine.Act(
                    engine_pb2.ActRequest(
                        table_id=table_id,
                        action=rng.choice(list(view.legal_actions)),
                        expected_version=view.version,
                    ),
                    metadata=player.metadata,
                )
            except grpc.aio.AioRpcError as exc:
                if exc.code() not in PASSING:
                    raise
                await asyncio.sleep(0.05)


async def _versions(
    engine: engine_pb2_grpc.EngineStub, operator: Player, tables: list[str]
) -> list[int]:
    views = [
        await engine.GetTable(engine_pb2.GetTableRequest(table_id=t), metadata=operator.metadata)
        for t in tables
    ]
    return [v.version if v.status == engine_pb2.TABLE_STATUS_PLAYING else -1 for v in views]


async def test_plat5_two_of_every_service_survive_losing_one_of_each_mid_game(
    tmp_path: Path, database_url: str, nats_url: str, namespace: str
) -> None:
    started = time.monotonic()
    env = {
        "TAVOLO_DATABASE_URL": database_url,
        "TAVOLO_NATS_URL": nats_url,
        "TAVOLO_NAMESPACE": namespace,
        "TAVOLO_TOKEN_SECRET": TEST_TOKEN_SECRET,
        "TAVOLO_CHECKPOINT_KEY": TEST_CHECKPOINT_KEY,
        "TAVOLO_LOBBY_OPERATOR": f"Operatore:{PASSWORD}",
        "TAVOLO_LOBBY_TURN_SECONDS": str(TURN_SECONDS),
        "TAVOLO_LOBBY_BOT_THINK_MILLIS": "0",
        "TAVOLO_LOBBY_MATCHMAKER_INTERVAL": "0.2",
        "TAVOLO_WALLET_WELCOME_COINS": "0",  # every player holds exactly the operator's GRANT
        "TAVOLO_WALLET_ACK_WAIT": "5",  # a killed replica's events go to the other sooner
    }
    replicas = "engine=2,wallet=2,lobby=2,leaderboard=2"
    with replicated_platform(tmp_path / "data", replicas, env) as running:
        assert set(running.targets) == {"lobby", "engine", "wallet", "leaderboard"}
        assert all(t.startswith("ipv4:") and t.count(",") == 1 for t in running.targets.values())
        report = await _play_through_kills(running, database_url)
    print(f"\nreplicas: {report}, {time.monotonic() - started:.0f}s in all")


async def _play_through_kills(running: Running, database_url: str) -> str:
    def channel(service: str) -> grpc.aio.Channel:
        return grpc.aio.insecure_channel(running.targets[service], options=CLIENT_CHANNEL_OPTIONS)

    db = await asyncpg.connect(database_url)
    async with channel("lobby") as lc, channel("engine") as ec, channel("wallet") as wc:
        lobby = lobby_pb2_grpc.LobbyStub(lc)
        engine = engine_pb2_grpc.EngineStub(ec)
        wallet = wallet_pb2_grpc.WalletStub(wc)
        try:
            login = await lobby.Login(
                lobby_pb2.LoginRequest(nickname="Operatore", password=PASSWORD)
            )
            operator = Player(login, bearer(login.access_token))
            players = [await _register(lobby, db, f"Replica{i}") for i in range(2 * TABLES)]
            for player in players:
                await wallet.Grant(
                    wallet_pb2.GrantRequest(
                        transfer_id=f"grant-{player.id}",
                        player_id=player.id,
                        amount=GRANT,
                        reason="r",
                    ),
                    metadata=operator.metadata,
                )
            wallet_work = [await events_handled(running.metrics[f"wallet-{i}"]) for i in (1, 2)]
            assert all(wallet_work), f"one wallet replica handled no event: {wallet_work}"

            watchers = [asyncio.create_task(_seated(lobby, p)) for p in players]
            await asyncio.sleep(0.5)  # the lobby streams are open before anyone is seated
            for player in players:
                await lobby.JoinQueue(
                    lobby_pb2.JoinQueueRequest(game="pika", players=2, stake=STAKE),
                    metadata=player.metadata,
                )
            seats = await asyncio.gather(*watchers)
            at_table: dict[str, list[tuple[int, Player]]] = defaultdict(list)
            for seat, player in zip(seats, players, strict=True):
                at_table[seat.table_id].append((seat.seat, player))
            assert len(at_table) == TABLES and all(len(s) == 2 for s in at_table.values())
            tables = sorted(at_table)
            plays = {
                (table_id, seat): asyncio.create_task(
                    _play(engine, table_id, player, hash((table_id, seat)), dawdle=seat == 1)
                )
                for table_id, seated in at_table.items()
                for seat, player in seated
            }

            async def moved_on() -> bool:
                return all(v >= 4 for v in await _versions(engine, operator, tables) if v != -1)

            await eventually(moved_on, "every table to be a few moves in", within=120)
            in_play = sum(v != -1 for v in await _versions(engine, operator, tables))
            assert in_play, "every table ended before the kill: nothing was killed mid-game"
            for name in KILLED:
                os.kill(running.pids[name], signal.SIGKILL)
            views = dict(zip(plays, await asyncio.gather(*plays.values()), strict=True))
            told = await asyncio.to_thread(
                running.read_until, {f"{n} SERVING again" for n in KILLED}, 240
            )
            assert all(any(f"{n} exited with signal SIGKILL" in t for t in told) for n in KILLED)

            timer_fires = await _check_tables(engine, wallet, db, operator, at_table, views)
            after = {
                name: await events_handled(running.metrics[name])
                for name in sorted(running.metrics)
                if name.split("-")[0] != "lobby"
            }
        finally:
            await db.close()
    return (
        f"{TABLES} tables, {in_play} in play at the kill of {len(KILLED)} replicas,"
        f" {timer_fires} turn timers fired once each; wallet events handled before the kill"
        f" {wallet_work}; at the end (the -1 replicas since their restart) {after}"
    )


async def _check_tables(
    engine: engine_pb2_grpc.EngineStub,
    wallet: wallet_pb2_grpc.WalletStub,
    db: asyncpg.Connection,
    operator: Player,
    at_table: dict[str, list[tuple[int, Player]]],
    views: dict[tuple[str, int], engine_pb2.TableView],
) -> int:
    """Every table finished, paid once, ranked once and audited; how many turn timers
    fired."""
    expected: dict[str, int] = {}
    timer_fires = 0
    for table_id, seated in at_table.items():
        view = views[table_id, 0]
        assert view.status == engine_pb2.TABLE_STATUS_FINISHED, table_id
        places = list(view.outcome.places)
        shares = split_pot(STAKE * 2, [seat for seat, place in enumerate(places) if place == 1])
        for seat, player in seated:
            expected[player.id] = GRANT - STAKE + shares.get(seat, 0)
        log = await engine.GetTableLog(
            engine_pb2.GetTableLogRequest(table_id=table_id), metadata=operator.metadata
        )
        events = [recorded_from_proto(e) for e in log.events]
        assert audit_table(events).ok, table_id
        fired = [e.data for e in events if e.type == "action" and e.data["by"] == "timer"]
        timers = [d["action"]["timer"] for d in fired]
        assert timers, f"{table_id}: the lapsed turn was never taken by its timer"
        assert len(timers) == len(set(timers)), f"{table_id}: a timer fired twice: {timers}"
        timer_fires += len(timers)

    unpaid: dict[str, tuple[int, int]] = {}

    async def all_paid() -> bool:
        unpaid.clear()
        for player_id, coins in expected.items():
            balance = await wallet.GetBalance(
                wallet_pb2.GetBalanceRequest(player_id=player_id), metadata=operator.metadata
            )
            if balance.available != coins:
                unpaid[player_id] = (balance.available, coins)
        return not unpaid

    try:
        await eventually(all_paid, "the wallet to pay every table", within=120)
    except AssertionError as exc:
        raise AssertionError(f"{exc}; (available, expected): {unpaid}") from None
    assert (await audit(db)).problems == []

    async def all_ranked() -> bool:
        found = await db.fetchval(
            "SELECT count(*) FROM leaderboard.table_finished_log WHERE table_id = ANY($1)",
            list(at_table),
        )
        return found == len(at_table)

    await eventually(all_ranked, "the leaderboard to record every table", within=120)
    played = await db.fetch(
        "SELECT player_id, sum(times) AS n FROM leaderboard.player_place_counts GROUP BY player_id"
    )
    assert {r["player_id"]: r["n"] for r in played} == dict.fromkeys(expected, 1)  # counted once
    for table_id in at_table:
        paid = await db.fetchval(
            "SELECT coalesce(sum(amount), 0) FROM wallet.transfers WHERE debit_account = $1",
            f"escrow:{table_id}",
        )
        escrow = await db.fetchval(
            "SELECT credits_posted - debits_posted FROM wallet.accounts WHERE account_id = $1",
            f"escrow:{table_id}",
        )
        assert (paid, escrow) == (STAKE * 2, 0), table_id
    return timer_fires
