"""An 8-entrant Scopa knock-out tournament played end to end (PCG-7) over real gRPC, NATS
and PostgreSQL, with the lobby, engine and wallet in-process.

Seven players follow the tournament and play each match they are pointed at (always the
first legal action, so a table dealt from a chosen seed plays out the same every time);
the eighth never shows, so a bot plays their seat. Two tables are dealt from seeds chosen
beforehand: one drawn match is settled by a tie-break hand, another by the last-capture
rule after three drawn tie-break hands (RULES §0 rule 14, fixture 30). The lobby is
restarted while round one is being played, and the tournament goes on from its stream.
At the end the prizes are paid from the escrowed fees, exactly once, and the ledger sums
to zero.
"""

from __future__ import annotations

import asyncio
import contextlib
import hashlib
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta
from typing import Any

import asyncpg
import grpc
import pytest
from google.protobuf import struct_pb2, timestamp_pb2

from tavolo.engine.app import EngineApp
from tavolo.lobby.tournaments.bracket import draw
from tavolo.tablelog.setup import TableSetup
from tavolo.v1 import (
    engine_pb2,
    leaderboard_pb2,
    leaderboard_pb2_grpc,
    lobby_pb2,
    lobby_pb2_grpc,
    wallet_pb2,
)
from tavolo.wallet.prizes import tournament_prizes
from tests.integration.lobby.harness import Player, start_lobby
from tests.integration.lobby.platform import (
    OPERATOR,
    PLATFORM_WALLET,
    Platform,
    balance,
    platform_config,
    running_platform,
)
from tests.integration.wallet.ledger_audit import audit
from tests.waiting import eventually

pytestmark = pytest.mark.e2e

NO_WELCOME = replace(PLATFORM_WALLET, welcome_coins=0)
GRANT = 1000
FEE = 250
SPLIT = (60, 30, 10)
# Seeds found by playing KO Scopa (one hand a match) with the first legal action at both
# seats: the first is drawn and won in tie-break hand 1 (3-0); in the second all three
# tie-break hands end 2-2 and the last capturer loses.
TIE_BREAK_SEED = hashlib.sha256(b"tournament seed 8").digest()
LAST_CAPTURE_SEED = hashlib.sha256(b"tournament seed 765").digest()
CONFIG = replace(platform_config(), tournament_interval=0.2)


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    async with running_platform(
        database_url, nats_url, namespace, config=CONFIG, wallet=NO_WELCOME, with_leaderboard=True
    ) as running:
        yield running


@pytest.fixture
def chosen_seeds(monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The engine deals the first two all-human tournament tables from the chosen seeds;
    the table ids, in that order."""
    seeds = [TIE_BREAK_SEED, LAST_CAPTURE_SEED]
    dealt: list[str] = []
    opening = EngineApp.open_setup

    async def open_setup(self: EngineApp, setup: TableSetup, deal_seed: bytes = b"") -> Any:
        humans = all(not s.bot for s in setup.seats)
        if setup.mode == "tournament" and humans and seeds and setup.table_id not in dealt:
            deal_seed = seeds.pop(0)
            dealt.append(setup.table_id)
        return await opening(self, setup, deal_seed)

    monkeypatch.setattr(EngineApp, "open_setup", open_setup)
    return dealt


def stamp(at: datetime) -> timestamp_pb2.Timestamp:
    found = timestamp_pb2.Timestamp()
    found.FromDatetime(at)
    return found


async def granted(platform: Platform, operator: Player, nickname: str) -> Player:
    player = await platform.register(nickname)
    await platform.wallet.Grant(
        wallet_pb2.GrantRequest(
            transfer_id=f"grant-{player.id}", player_id=player.id, amount=GRANT, reason="test"
        ),
        metadata=operator.metadata,
    )
    return player


async def play_table(platform: Platform, table_id: str, player: Player) -> None:
    """The first legal action whenever it is the player's turn, until the table ends."""
    request = engine_pb2.GetTableRequest(table_id=table_id)
    while True:
        try:
            view = await platform.engine.GetTable(request, metadata=player.metadata)
            if view.status != engine_pb2.TABLE_STATUS_PLAYING:
                return
            if not view.legal_actions:
                await asyncio.sleep(0.02)
                continue
            await platform.engine.Act(
                engine_pb2.ActRequest(
                    table_id=table_id,
                    action=view.legal_actions[0],
                    expected_version=view.version,
                ),
                metadata=player.metadata,
            )
        except grpc.aio.AioRpcError as exc:
            if exc.code() not in (
                grpc.StatusCode.ABORTED,
                grpc.StatusCode.FAILED_PRECONDITION,
                grpc.StatusCode.NOT_FOUND,
            ):
                raise
            await asyncio.sleep(0.05)


async def follow(platform: Platform, tid: str, player: Player, *, stream: bool) -> None:
    """A player's side of the tournament: follow it (so they show), with WatchTournament
    or by asking GetTournament again and again, and play each table it points them at,
    until it is over. A lobby that is restarting is simply asked again."""
    played: set[str] = set()

    async def updates() -> AsyncIterator[lobby_pb2.Tournament]:
        if stream:
            watch = lobby_pb2.WatchTournamentRequest(tournament_id=tid)
            async for found in platform.lobby.WatchTournament(watch, metadata=player.metadata):
                yield found
            return
        get = lobby_pb2.GetTournamentRequest(tournament_id=tid)
        while True:
            yield await platform.lobby.GetTournament(get, metadata=player.metadata)
            await asyncio.sleep(0.3)

    while True:
        try:
            async for t in updates():
                if t.status in (
                    lobby_pb2.TOURNAMENT_STATUS_FINISHED,
                    lobby_pb2.TOURNAMENT_STATUS_CANCELLED,
                ):
                    return
                for match in (m for r in t.rounds for m in r.matches):
                    mine = player.id in (match.a, match.b) and player.id not in match.bots
                    if (
                        mine
                        and match.table_id
                        and not match.winner
                        and match.table_id not in played
                    ):
                        played.add(match.table_id)
                        await play_table(platform, match.table_id, player)
        except grpc.aio.AioRpcError as exc:
            if exc.code() != grpc.StatusCode.UNAVAILABLE:
                raise
            await asyncio.sleep(0.2)


async def restart_lobby(platform: Platform) -> None:
    """Stop the lobby mid-round and start a new one on the same database and NATS."""
    old = platform.services["lobby"]
    settings = old.infra.settings
    await old.stop(0.5)
    await asyncio.sleep(1.0)  # tables finish meanwhile; their results wait on NATS
    service, _ = await start_lobby(settings, config=CONFIG, run_matchmaker=True, operator=OPERATOR)
    platform.services["lobby"] = service
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{service.port}")
    platform.channels.append(channel)
    platform.lobby = lobby_pb2_grpc.LobbyStub(channel)


async def tournament(platform: Platform, tid: str, who: Player) -> lobby_pb2.Tournament:
    found: lobby_pb2.Tournament = await platform.lobby.GetTournament(
        lobby_pb2.GetTournamentRequest(tournament_id=tid), metadata=who.metadata
    )
    return found


async def test_pcg_7_an_eight_entrant_scopa_tournament_is_played_and_pays_its_prizes_once(
    platform: Platform, database_url: str, chosen_seeds: list[str]
) -> None:
    operator = await platform.operator()
    players = [await granted(platform, operator, f"Giocatore{i}") for i in range(8)]
    absent = players[7]
    created = await platform.lobby.CreateTournament(
        lobby_pb2.CreateTournamentRequest(
            game="scopa",
            options=_struct({"match_length": "hands:1"}),
            max_entrants=8,
            starts_at=stamp(datetime.now(UTC) + timedelta(seconds=6)),
            fee=FEE,
            split=list(SPLIT),
            no_show=lobby_pb2.NO_SHOW_BOT,
            show_seconds=3,
        ),
        metadata=operator.metadata,
    )
    tid = created.tournament_id
    for player in players:
        await platform.lobby.RegisterTournament(
            lobby_pb2.RegisterTournamentRequest(tournament_id=tid), metadata=player.metadata
        )
    assert [(await balance(platform, p)).held for p in players] == [FEE] * 8

    followers = [
        asyncio.create_task(follow(platform, tid, p, stream=n % 2 == 0))
        for n, p in enumerate(players[:7])
    ]
    try:

        async def round_one_under_way() -> bool:
            t = await tournament(platform, tid, operator)
            return bool(t.rounds) and any(m.table_id for m in t.rounds[0].matches)

        await eventually(round_one_under_way, "round one's tables to open", within=60)
        await restart_lobby(platform)

        async def finished() -> bool:
            t = await tournament(platform, tid, operator)
            return t.status == lobby_pb2.TOURNAMENT_STATUS_FINISHED

        await eventually(finished, "the final to be played", within=400)
        async with asyncio.timeout(30):
            await asyncio.gather(*followers)
    finally:
        for task in followers:
            task.cancel()
        for task in followers:
            with contextlib.suppress(asyncio.CancelledError, grpc.aio.AioRpcError):
                await task

    final = await tournament(platform, tid, operator)
    # The draw: the seed committed at creation, revealed, and anyone can redo the bracket.
    seed = bytes.fromhex(final.seed_hex)
    assert hashlib.sha256(seed).hexdigest() == created.seed_commitment
    redrawn = draw([e.player_id for e in final.entrants], seed)
    assert [(m.a, m.b) for m in redrawn.rounds[0]] == [(m.a, m.b) for m in final.rounds[0].matches]
    matches = {m.table_id: m for r in final.rounds for m in r.matches}
    assert len(matches) == 7 and all(m.winner for m in matches.values())
    # The chosen seeds: a tie-break hand, then the last-capture rule, decided two matches.
    assert len(chosen_seeds) == 2
    assert matches[chosen_seeds[0]].how == "tie_break"
    assert matches[chosen_seeds[1]].how == "last_capture"
    # The no-show: a bot played their seat in round one, and the result stood.
    first = next(m for m in final.rounds[0].matches if absent.id in (m.a, m.b))
    assert list(first.bots) == [absent.id]

    places = {e.player_id: e.place for e in final.entrants}
    assert sorted(places.values()) == [1, 2, 3, 3, 5, 5, 5, 5]
    assert places[final.champion] == 1
    owed = {p: c for p, c in tournament_prizes(FEE * 8, SPLIT, places).items() if c}

    async def shown() -> bool:  # the prizes shown are those the wallet says it paid
        found = await tournament(platform, tid, operator)
        return {e.player_id: e.prize for e in found.entrants if e.prize} == owed

    await eventually(shown, "the lobby to show the prizes the wallet paid", within=60)

    async def paid() -> bool:
        found = [await balance(platform, p) for p in players]
        return [b.available for b in found] == [GRANT - FEE + owed.get(p.id, 0) for p in players]

    await eventually(paid, "the wallet to pay the prizes", within=60)
    conn = await asyncpg.connect(database_url)
    try:
        assert (await audit(conn)).problems == []
        escrow = await conn.fetchval(
            "SELECT credits_posted - debits_posted FROM wallet.accounts WHERE account_id = $1",
            f"escrow:tournament-{tid}",
        )
        prizes = await conn.fetch(
            "SELECT amount FROM wallet.transfers WHERE debit_account = $1",
            f"escrow:tournament-{tid}",
        )
        total = await conn.fetchval(
            "SELECT sum(credits_posted - debits_posted) FROM wallet.accounts"
        )
    finally:
        await conn.close()
    assert escrow == 0
    assert sorted(r["amount"] for r in prizes) == sorted(owed.values())  # each paid once
    assert total == 0  # the ledger sums to zero

    # The leaderboard counts the results: the champion's win and final, the prize coins.
    channel = grpc.aio.insecure_channel(f"127.0.0.1:{platform.services['leaderboard'].port}")
    platform.channels.append(channel)  # closed with the platform
    board = leaderboard_pb2_grpc.LeaderboardStub(channel)
    by_id = {p.id: p for p in players}
    champion, finalist = final.champion, next(p for p, at in places.items() if at == 2)

    async def counted() -> bool:
        stats = await board.GetPlayerStats(
            leaderboard_pb2.GetPlayerStatsRequest(), metadata=by_id[champion].metadata
        )
        return stats.tournaments.played == 1

    await eventually(counted, "the leaderboard to count the tournament", within=30)
    for player_id, wins, finals in ((champion, 1, 1), (finalist, 0, 1)):
        stats = await board.GetPlayerStats(
            leaderboard_pb2.GetPlayerStatsRequest(), metadata=by_id[player_id].metadata
        )
        found = stats.tournaments
        assert (found.played, found.wins, found.finals) == (1, wins, finals)
        assert found.prize_coins == owed[player_id]


def _struct(values: dict[str, Any]) -> struct_pb2.Struct:
    found = struct_pb2.Struct()
    found.update(values)
    return found
