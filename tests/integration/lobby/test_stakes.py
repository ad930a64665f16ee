"""Stake tables (MODE-4): held on joining, only real players, cancelled and refunded in time.

The wallet here is the in-memory twin (tests/integration/lobby/twins.py); the refund by
the real wallet on MatchCancelled is shown end to end in tests/e2e/test_lobby_flows.py.
"""

from __future__ import annotations

import asyncio

import grpc
import pytest

from tavolo.v1 import common_pb2, events_pb2, lobby_pb2

from .harness import Lobby, Player, event_tap

pytestmark = pytest.mark.integration


async def join(lobby: Lobby, player: Player, stake: int, players: int = 4) -> lobby_pb2.Ticket:
    ticket: lobby_pb2.Ticket = await lobby.stub.JoinQueue(
        lobby_pb2.JoinQueueRequest(game="pika", players=players, stake=stake),
        metadata=player.metadata,
    )
    return ticket


async def test_mode_4_joining_holds_the_stake_and_leaving_releases_it(lobby: Lobby) -> None:
    ada = await lobby.register("Ada")
    ticket = await join(lobby, ada, 250)
    assert ticket.stake == 250
    hold = lobby.wallet.holds[ticket.ticket_id]
    assert (hold.player_id, hold.amount, hold.state) == (ada.id, 250, "pending")
    assert lobby.wallet.available(ada.id) == 750
    await lobby.stub.LeaveQueue(
        lobby_pb2.LeaveQueueRequest(ticket_id=ticket.ticket_id), metadata=ada.metadata
    )
    assert hold.state == "voided"
    assert lobby.wallet.available(ada.id) == 1000


async def test_mode_4_short_of_coins_or_frozen_is_refused_with_the_wallets_words(
    lobby: Lobby,
) -> None:
    ada, bea = await lobby.register("Ada"), await lobby.register("Bea")
    lobby.wallet.balances[ada.id] = 50
    lobby.wallet.frozen.add(bea.id)
    for player, words in ((ada, "you have 50 coins"), (bea, "frozen")):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await join(lobby, player, 100)
        assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
        assert words in (refused.value.details() or "")
    async with lobby.app.ctx.db.connection() as conn:
        assert await conn.fetchval('SELECT count(*) FROM "lobby".tickets') == 0
        assert await conn.fetchval('SELECT count(*) FROM "lobby".busy_players') == 0


async def test_mode_4_only_the_four_stake_levels(lobby: Lobby) -> None:
    ada = await lobby.register("Ada")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await join(lobby, ada, 300)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert lobby.wallet.holds == {}


async def test_mode_4_a_full_stake_table_forms_with_every_hold(lobby: Lobby) -> None:
    players = [await lobby.register(f"Player{i}") for i in range(2)]
    tickets = [await join(lobby, p, 1000, players=2) for p in players]
    async with event_tap(lobby.settings.nats_url, lobby.topology) as tap:
        await lobby.app.matchmaker.run_round()
        (formed,) = await tap.wait_for("MatchFormed", events_pb2.MatchFormed)
    assert formed.mode == common_pb2.MODE_STAKE and formed.stake == 1000
    assert not formed.bot_filled and not any(s.bot for s in formed.seats)
    ticket_of = {p.id: t.ticket_id for p, t in zip(players, tickets, strict=True)}
    assert dict(formed.hold_ids) == {s.seat: ticket_of[s.player_id] for s in formed.seats}


async def test_mode_4_a_stake_table_that_never_fills_is_cancelled(lobby: Lobby) -> None:
    players = [await lobby.register(f"Player{i}") for i in range(3)]
    tickets = [await join(lobby, p, 100) for p in players[:2]]
    lobby.clock.advance(59)
    late = await join(lobby, players[2], 100)
    assert (await lobby.app.matchmaker.run_round()).cancelled == 0
    lobby.clock.advance(1)
    async with event_tap(lobby.settings.nats_url, lobby.topology) as tap:
        result = await lobby.app.matchmaker.run_round()
        (cancelled,) = await tap.wait_for("MatchCancelled", events_pb2.MatchCancelled)
    assert (result.cancelled, result.tables_formed) == (1, 0)
    assert dict(cancelled.hold_ids) == {
        players[0].id: tickets[0].ticket_id,
        players[1].id: tickets[1].ticket_id,
    }
    assert "refunded" in cancelled.reason
    assert tap.of("MatchFormed", events_pb2.MatchFormed) == []  # never bots at a stake table
    watch = lobby.stub.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=players[2].metadata)
    snapshot = await asyncio.wait_for(watch.read(), 10)
    watch.cancel()
    assert snapshot.ticket.ticket_id == late.ticket_id  # the fresher ticket still waits
    # The cancelled players are free to queue again.
    await join(lobby, players[0], 100)


async def test_mode_4_a_release_the_wallet_missed_is_retried(lobby: Lobby) -> None:
    ada = await lobby.register("Ada")
    ticket = await join(lobby, ada, 500)
    lobby.wallet.down = True
    left = await lobby.stub.LeaveQueue(
        lobby_pb2.LeaveQueueRequest(ticket_id=ticket.ticket_id), metadata=ada.metadata
    )
    assert left.state == lobby_pb2.TICKET_STATE_LEFT
    assert lobby.wallet.holds[ticket.ticket_id].state == "pending"
    lobby.wallet.down = False
    for _ in range(200):  # the background loop retries every 0.1 s here
        if lobby.wallet.holds[ticket.ticket_id].state == "voided":
            break
        await asyncio.sleep(0.05)
    assert lobby.wallet.holds[ticket.ticket_id].state == "voided"
