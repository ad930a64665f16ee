"""A tournament pays exactly what it shows (PCG-7), over real gRPC, NATS and PostgreSQL with
the lobby, engine, wallet and leaderboard in-process.

Four entrants: one withdraws and enters again (and must pay again: each registration holds
its own fee), one never shows (a bot named as their stand-in plays their seat). At the end,
for every entrant, the prize the lobby shows, the coins the wallet paid from the escrow
and the prize coins the leaderboard counts are the same number, the one the wallet
computed from the fees it escrowed; and the escrow took exactly fee x entrants.
"""

from __future__ import annotations

import asyncio
import contextlib
from collections.abc import AsyncIterator
from dataclasses import replace
from datetime import UTC, datetime, timedelta

import asyncpg
import grpc
import pytest

from tavolo.v1 import (
    engine_pb2,
    leaderboard_pb2,
    leaderboard_pb2_grpc,
    lobby_pb2,
)
from tavolo.wallet.prizes import tournament_prizes
from tests.e2e.test_tournament_scopa import _struct, follow, granted, stamp, tournament
from tests.integration.lobby.platform import (
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
FEE = 100
SPLIT = (50, 30, 20)
CONFIG = replace(platform_config(), tournament_interval=0.2)


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    async with running_platform(
        database_url, nats_url, namespace, config=CONFIG, wallet=NO_WELCOME, with_leaderboard=True
    ) as running:
        yield running


async def test_pcg_7_prizes_shown_paid_and_counted_are_one_and_the_escrow_took_every_fee(
    platform: Platform, database_url: str
) -> None:
    operator = await platform.operator()
    players = [await granted(platform, operator, n) for n in ("Anna", "Bruno", "Carla", "Dario")]
    absent, again = players[2], players[3]
    created = await platform.lobby.CreateTournament(
        lobby_pb2.CreateTournamentRequest(
            game="scopa",
            options=_struct({"match_length": "hands:1"}),
            max_entrants=4,
            starts_at=stamp(datetime.now(UTC) + timedelta(seconds=6)),
            fee=FEE,
            split=list(SPLIT),
            no_show=lobby_pb2.NO_SHOW_BOT,
            show_seconds=2,
        ),
        metadata=operator.metadata,
    )
    tid = created.tournament_id
    register = lobby_pb2.RegisterTournamentRequest(tournament_id=tid)
    for player in players:
        await platform.lobby.RegisterTournament(register, metadata=player.metadata)
    await platform.lobby.UnregisterTournament(
        lobby_pb2.UnregisterTournamentRequest(tournament_id=tid), metadata=again.metadata
    )
    assert (await balance(platform, again)).held == 0
    await platform.lobby.RegisterTournament(register, metadata=again.metadata)
    # Entering again holds the fee again: nobody is in without paying.
    held = [await balance(platform, p) for p in players]
    assert [(b.available, b.held) for b in held] == [(GRANT - FEE, FEE)] * 4

    followers = [
        asyncio.create_task(follow(platform, tid, p, stream=n % 2 == 0))
        for n, p in enumerate(players)
        if p is not absent
    ]
    try:

        async def finished() -> bool:
            t = await tournament(platform, tid, operator)
            return t.status == lobby_pb2.TOURNAMENT_STATUS_FINISHED

        await eventually(finished, "the final to be played", within=300)
    finally:
        for task in followers:
            task.cancel()
        for task in followers:
            with contextlib.suppress(asyncio.CancelledError, grpc.aio.AioRpcError):
                await task

    final = await tournament(platform, tid, operator)
    places = {e.player_id: e.place for e in final.entrants}
    assert sorted(places.values()) == [1, 2, 3, 3]
    owed = tournament_prizes(FEE * 4, SPLIT, places)
    # The no-show's seat was played by a bot named as their stand-in.
    first = next(m for m in final.rounds[0].matches if absent.id in (m.a, m.b))
    assert list(first.bots) == [absent.id]
    view = await platform.engine.GetTable(
        engine_pb2.GetTableRequest(table_id=first.table_id), metadata=operator.metadata
    )
    assert "Carla (bot)" in [s.nickname for s in view.seats]
    # The table is a table like any other: its seated entrant reads its chat and reports
    # it, and a moderator finds it to set its chat.
    seated = next(p for p in players if p.id in (first.a, first.b) and p is not absent)
    channel = lobby_pb2.ChatChannel(table_id=first.table_id)
    await platform.lobby.ListChat(
        lobby_pb2.ListChatRequest(channel=channel), metadata=seated.metadata
    )
    await platform.lobby.ReportPlayer(
        lobby_pb2.ReportPlayerRequest(table_id=first.table_id, reason="the bot stalled"),
        metadata=seated.metadata,
    )
    await platform.lobby.SetChatSettings(
        lobby_pb2.ChatSettings(channel=channel, disabled=True), metadata=operator.metadata
    )

    async def shown_prizes() -> dict[str, int]:
        found = await tournament(platform, tid, operator)
        return {e.player_id: e.prize for e in found.entrants}

    async def settled() -> bool:
        return sum((await shown_prizes()).values()) == FEE * 4

    await eventually(settled, "the lobby to show what the wallet paid", within=60)
    shown = await shown_prizes()

    conn = await asyncpg.connect(database_url)
    try:
        escrow = f"escrow:tournament-{tid}"
        into = await conn.fetchval(
            "SELECT coalesce(sum(amount), 0) FROM wallet.transfers"
            " WHERE credit_account = $1 AND kind = 'post_pending'",
            escrow,
        )
        rows = await conn.fetch(
            "SELECT credit_account, amount FROM wallet.transfers WHERE debit_account = $1",
            escrow,
        )
        left = await conn.fetchval(
            "SELECT credits_posted - debits_posted FROM wallet.accounts WHERE account_id = $1",
            escrow,
        )
        assert (await audit(conn)).problems == []
    finally:
        await conn.close()
    assert into == FEE * len(players)  # the escrow took every entrant's fee, once
    assert left == 0
    paid = {p.id: 0 for p in players}
    for row in rows:
        paid[row["credit_account"].removeprefix("player:")] += row["amount"]

    channel = grpc.aio.insecure_channel(f"127.0.0.1:{platform.services['leaderboard'].port}")
    platform.channels.append(channel)
    board = leaderboard_pb2_grpc.LeaderboardStub(channel)

    async def counted_prizes() -> dict[str, int]:
        found = {}
        for player in players:
            stats = await board.GetPlayerStats(
                leaderboard_pb2.GetPlayerStatsRequest(), metadata=player.metadata
            )
            found[player.id] = stats.tournaments.prize_coins
            if stats.tournaments.played != 1:
                return {}
        return found

    async def all_counted() -> bool:
        return bool(await counted_prizes())

    await eventually(all_counted, "the leaderboard to count the tournament", within=30)
    counted = await counted_prizes()
    for player in players:
        who = player.id
        assert shown[who] == paid[who] == counted[who] == owed[who], player.nickname
        after = await balance(platform, player)
        assert (after.available, after.held) == (GRANT - FEE + owed[who], 0)
