"""Online matchmaking (MODE-3) over real gRPC, PostgreSQL and NATS.

The matchmaker loop is driven round by round here (``run_round``) with a hand-moved
clock, so waits are simulated and each round's effect is checked exactly; the loop
itself runs in test_mode_3_the_background_loop_forms_tables and in the end-to-end suite.
"""

from __future__ import annotations

import asyncio
import uuid
from collections import Counter

import grpc
import pytest

from tavolo.messaging import publish_with_id
from tavolo.v1 import common_pb2, events_pb2, lobby_pb2

from .harness import (
    Lobby,
    Player,
    event_tap,
    next_update,
    running_lobby,
    start_lobby,
    ticket_in,
    update_where,
)

pytestmark = pytest.mark.integration


async def queue(lobby: Lobby, player: Player, players: int = 4) -> lobby_pb2.Ticket:
    ticket: lobby_pb2.Ticket = await lobby.stub.JoinQueue(
        lobby_pb2.JoinQueueRequest(game="pika", players=players), metadata=player.metadata
    )
    return ticket


async def test_mode_3_eight_players_land_on_two_tables(lobby: Lobby) -> None:
    players = [await lobby.register(f"Player{i}") for i in range(8)]
    async with event_tap(lobby.settings.nats_url, lobby.topology) as tap:
        for i, player in enumerate(players):
            ticket = await queue(lobby, player)
            assert ticket.state == lobby_pb2.TICKET_STATE_WAITING
            lobby.clock.advance(1)
            if i == 2:  # three waiting: no table yet
                assert (await lobby.app.matchmaker.run_round()).tables_formed == 0
        result = await lobby.app.matchmaker.run_round()
        formed = await tap.wait_for("MatchFormed", events_pb2.MatchFormed, count=2)
    assert result.tables_formed == 2 and result.bot_filled == 0
    seated = [s.player_id for match in formed for s in match.seats]
    assert sorted(seated) == sorted(p.id for p in players)
    for match in formed:
        assert match.mode == common_pb2.MODE_ONLINE and not match.bot_filled
        assert match.game == "pika" and len(match.seats) == 4
    # Queue order: the first four to join sit at the same table.
    first_table = {s.player_id for s in formed[0].seats}
    assert first_table in ({p.id for p in players[:4]}, {p.id for p in players[4:]})


async def test_mode_3_a_lonely_ticket_is_bot_filled_after_the_timeout(lobby: Lobby) -> None:
    ada = await lobby.register("Ada")
    watch = lobby.stub.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=ada.metadata)
    ticket = await queue(lobby, ada)
    await update_where(watch, ticket_in(lobby_pb2.TICKET_STATE_WAITING))
    lobby.clock.advance(29)
    assert (await lobby.app.matchmaker.run_round()).tables_formed == 0
    lobby.clock.advance(1)
    async with event_tap(lobby.settings.nats_url, lobby.topology) as tap:
        result = await lobby.app.matchmaker.run_round()
        (formed,) = await tap.wait_for("MatchFormed", events_pb2.MatchFormed)
    assert result.bot_filled == 1
    assert formed.bot_filled
    assert [(s.player_id, s.bot) for s in formed.seats] == [(ada.id, False)] + [("", True)] * 3
    assert all(s.bot_level == common_pb2.BOT_LEVEL_MEDIUM for s in formed.seats[1:])
    update = await update_where(watch, ticket_in(lobby_pb2.TICKET_STATE_SEATED))
    watch.cancel()
    assert update.ticket.ticket_id == ticket.ticket_id
    assert update.ticket.table_id == formed.match_id


async def test_mode_3_a_player_can_leave_the_queue_and_is_never_seated(lobby: Lobby) -> None:
    ada, bea = await lobby.register("Ada"), await lobby.register("Bea")
    ticket = await queue(lobby, ada)
    left = await lobby.stub.LeaveQueue(
        lobby_pb2.LeaveQueueRequest(ticket_id=ticket.ticket_id), metadata=ada.metadata
    )
    assert left.state == lobby_pb2.TICKET_STATE_LEFT
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.LeaveQueue(
            lobby_pb2.LeaveQueueRequest(ticket_id=ticket.ticket_id), metadata=ada.metadata
        )
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    with pytest.raises(grpc.aio.AioRpcError) as refused:  # not Bea's ticket
        await lobby.stub.LeaveQueue(
            lobby_pb2.LeaveQueueRequest(ticket_id=ticket.ticket_id), metadata=bea.metadata
        )
    assert refused.value.code() == grpc.StatusCode.NOT_FOUND
    lobby.clock.advance(3600)
    assert (await lobby.app.matchmaker.run_round()).tables_formed == 0
    # Free again: the same player may queue anew.
    await queue(lobby, ada)


async def test_mode_3_one_waiting_ticket_per_player(lobby: Lobby) -> None:
    ada = await lobby.register("Ada")
    await queue(lobby, ada)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await queue(lobby, ada, players=2)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "leave the queue first" in (refused.value.details() or "")


async def test_mode_3_tickets_survive_a_lobby_restart(
    database_url: str, nats_url: str, namespace: str
) -> None:
    async with running_lobby(database_url, nats_url, namespace) as first:
        players = [await first.register(f"Player{i}") for i in range(4)]
        for player in players[:3]:
            await queue(first, player)
    async with running_lobby(database_url, nats_url, namespace) as second:
        watch = second.stub.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=players[0].metadata)
        snapshot = await next_update(watch)
        assert snapshot.ticket.state == lobby_pb2.TICKET_STATE_WAITING
        await queue(second, players[3])
        async with event_tap(nats_url, second.topology) as tap:
            assert (await second.app.matchmaker.run_round()).tables_formed == 1
            (formed,) = await tap.wait_for("MatchFormed", events_pb2.MatchFormed)
        watch.cancel()
    assert {s.player_id for s in formed.seats} == {p.id for p in players}


async def test_mode_3_two_replicas_never_seat_a_player_twice(
    database_url: str, nats_url: str, namespace: str
) -> None:
    async with running_lobby(database_url, nats_url, namespace) as lobby:
        other, other_parts = await start_lobby(
            lobby.settings, wallet=lobby.wallet, engine=lobby.engine, clock=lobby.clock
        )
        lobby.extra.append(other)
        players = [await lobby.register(f"P{i:02d}") for i in range(42)]
        await asyncio.gather(*(queue(lobby, p) for p in players))
        lobby.clock.advance(1)
        rounds = [lobby.app.matchmaker.run_round() for _ in range(3)]
        rounds += [other_parts.app.matchmaker.run_round() for _ in range(3)]
        results = await asyncio.gather(*rounds)
        while sum(r.tables_formed for r in results) < 10:
            results.append(await lobby.app.matchmaker.run_round())
        async with lobby.app.ctx.db.connection() as conn:
            seats = await conn.fetch(
                'SELECT player_id, table_id FROM "lobby".table_seats WHERE player_id IS NOT NULL'
            )
            waiting = await conn.fetchval(
                """SELECT count(*) FROM "lobby".tickets WHERE state = 'waiting'"""
            )
    assert sum(r.tables_formed for r in results) == 10
    per_player = Counter(r["player_id"] for r in seats)
    assert len(per_player) == 40 and set(per_player.values()) == {1}
    assert Counter(r["table_id"] for r in seats).most_common(1)[0][1] == 4
    assert waiting == 2


async def test_mode_3_table_events_seat_and_then_free_the_players(lobby: Lobby) -> None:
    players = [await lobby.register(f"Player{i}") for i in range(2)]
    watch = lobby.stub.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=players[0].metadata)
    for player in players:
        await queue(lobby, player, players=2)
    await update_where(watch, ticket_in(lobby_pb2.TICKET_STATE_WAITING))
    result = await lobby.app.matchmaker.run_round()
    (table_id,) = result.match_ids
    await update_where(watch, ticket_in(lobby_pb2.TICKET_STATE_SEATED))

    js = lobby.service.infra.js
    seats = [
        common_pb2.Seat(seat=i, player_id=p.id, nickname=p.nickname) for i, p in enumerate(players)
    ]
    started = events_pb2.TableStarted(
        table_id=table_id, game="pika", mode=common_pb2.MODE_ONLINE, seats=seats
    )
    event_id = str(uuid.uuid4())
    for _ in range(2):  # a redelivery changes nothing
        await publish_with_id(
            js,
            lobby.topology.subject_for("TableStarted"),
            started.SerializeToString(),
            msg_id=event_id,
        )
    update = await update_where(watch, lambda u: u.WhichOneof("update") == "seated")
    assert update.seated.table_id == table_id
    assert (update.seated.seat, update.seated.mode) == (0, common_pb2.MODE_ONLINE)

    # While the table runs, nobody can queue again; after TableFinished they can.
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await queue(lobby, players[0])
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    finished = events_pb2.TableFinished(table_id=table_id, game="pika", seats=seats)
    await publish_with_id(
        js,
        lobby.topology.subject_for("TableFinished"),
        finished.SerializeToString(),
        msg_id=str(uuid.uuid4()),
    )
    for _ in range(100):
        try:
            await queue(lobby, players[0])
            break
        except grpc.aio.AioRpcError as exc:
            assert exc.code() == grpc.StatusCode.FAILED_PRECONDITION
            await asyncio.sleep(0.05)
    else:
        raise AssertionError("TableFinished did not free the player")
    watch.cancel()


async def test_mode_3_the_background_loop_forms_tables(
    database_url: str, nats_url: str, namespace: str
) -> None:
    async with running_lobby(database_url, nats_url, namespace, run_matchmaker=True) as lobby:
        players = [await lobby.register(f"Player{i}") for i in range(3)]
        watch = lobby.stub.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=players[0].metadata)
        for player in players:
            await queue(lobby, player, players=3)
        update = await update_where(watch, ticket_in(lobby_pb2.TICKET_STATE_SEATED))
        watch.cancel()
    assert update.ticket.table_id


async def test_mode_3_a_table_the_engine_never_deals_frees_its_players(lobby: Lobby) -> None:
    players = [await lobby.register(f"Player{i}") for i in range(2)]
    for player in players:
        await queue(lobby, player, players=2)
    assert (await lobby.app.matchmaker.run_round()).tables_formed == 1
    lobby.clock.advance(599)
    assert (await lobby.app.matchmaker.run_round()).never_started == 0
    with pytest.raises(grpc.aio.AioRpcError):
        await queue(lobby, players[0], players=2)
    lobby.clock.advance(2)
    assert (await lobby.app.matchmaker.run_round()).never_started == 1
    for player in players:
        await queue(lobby, player, players=2)
