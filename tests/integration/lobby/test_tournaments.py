"""Tournaments at the lobby (PCG-7) with the wallet and engine twins and a hand-moved clock:
refusals that change nothing, fees held and released, the draw, no-shows, results, and a
second replica that picks the tournament up from its stream."""

from __future__ import annotations

from collections.abc import AsyncIterator
from datetime import datetime, timedelta

import grpc
import pytest
from google.protobuf import struct_pb2, timestamp_pb2

from tavolo.lobby.play.tables import Mode
from tavolo.lobby.tournaments.app import Tournaments
from tavolo.servicekit.auth import Principal, Role
from tavolo.v1 import lobby_pb2

from .harness import PASSWORD, Lobby, Player, bearer, running_lobby

BOSS = "Direttore"
FEE = 100
STAFF = Principal(player_id="staff", roles=frozenset({Role.OPERATOR}))


@pytest.fixture
async def lobby(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Lobby]:
    async with running_lobby(database_url, nats_url, namespace, operator=(BOSS, PASSWORD)) as found:
        yield found


async def boss(lobby: Lobby) -> Player:
    session = await lobby.stub.Login(lobby_pb2.LoginRequest(nickname=BOSS, password=PASSWORD))
    return Player(session, bearer(session.access_token))


def stamp(at: datetime) -> timestamp_pb2.Timestamp:
    found = timestamp_pb2.Timestamp()
    found.FromDatetime(at)
    return found


def request(lobby: Lobby, **changes: object) -> lobby_pb2.CreateTournamentRequest:
    options = struct_pb2.Struct()
    options.update({"match_length": "hands:1"})
    fields: dict[str, object] = {
        "game": "scopa",
        "options": options,
        "max_entrants": 8,
        "starts_at": stamp(lobby.clock() + timedelta(minutes=10)),
        "fee": FEE,
        "split": [70, 30],
        "no_show": lobby_pb2.NO_SHOW_FORFEIT,
        "show_seconds": 60,
        **changes,
    }
    return lobby_pb2.CreateTournamentRequest(**fields)  # type: ignore[arg-type]


async def refused(call: object, code: grpc.StatusCode, words: str) -> None:
    with pytest.raises(grpc.aio.AioRpcError) as caught:
        await call  # type: ignore[misc]
    assert caught.value.code() == code
    assert words in (caught.value.details() or "")


async def test_pcg_7_bad_tournaments_are_refused_saying_why_and_nothing_is_created(
    lobby: Lobby,
) -> None:
    operator, ada = await boss(lobby), await lobby.register("Ada")
    create = lobby.stub.CreateTournament
    await refused(
        create(request(lobby), metadata=ada.metadata), grpc.StatusCode.PERMISSION_DENIED, ""
    )
    for changes, words in (
        ({"game": "solitario", "options": struct_pb2.Struct()}, "does not offer knock-out play"),
        ({"fee": 120}, "a stake is one of"),
        ({"split": [50, 30]}, "sums to 100"),
        ({"split": [40, 30, 10, 10, 10], "max_entrants": 4}, "more places than the 4 entrants"),
        ({"max_entrants": 300}, "4 to 256"),
        ({"starts_at": stamp(lobby.clock() - timedelta(minutes=1))}, "starts after"),
    ):
        call = create(request(lobby, **changes), metadata=operator.metadata)
        await refused(call, grpc.StatusCode.INVALID_ARGUMENT, words)
    found = await lobby.stub.ListTournaments(
        lobby_pb2.ListTournamentsRequest(), metadata=ada.metadata
    )
    assert list(found.tournaments) == []
    await refused(
        lobby.stub.RegisterTournament(
            lobby_pb2.RegisterTournamentRequest(tournament_id="nope"), metadata=ada.metadata
        ),
        grpc.StatusCode.NOT_FOUND,
        "no tournament",
    )


async def test_pcg_7_fees_are_held_the_draw_opens_ko_tables_and_a_no_show_forfeits(
    lobby: Lobby,
) -> None:
    operator = await boss(lobby)
    players = [await lobby.register(f"Gara{i}") for i in range(5)]
    created = await lobby.stub.CreateTournament(request(lobby), metadata=operator.metadata)
    tid = created.tournament_id
    for player in players:
        await lobby.stub.RegisterTournament(
            lobby_pb2.RegisterTournamentRequest(tournament_id=tid), metadata=player.metadata
        )
    assert [lobby.wallet.available(p.id) for p in players] == [1000 - FEE] * 5
    await lobby.stub.UnregisterTournament(
        lobby_pb2.UnregisterTournamentRequest(tournament_id=tid), metadata=players[4].metadata
    )
    assert lobby.wallet.available(players[4].id) == 1000  # released at once
    tournaments: Tournaments = lobby.app.tournaments

    lobby.clock.advance(600)
    await tournaments.tick()
    t = await tournaments.get(STAFF, tid)
    assert t.status == "playing" and t.bracket is not None
    assert len(t.entrants) == 4 and not t.tables  # nobody has shown yet
    # Three of four follow the tournament; the fourth never shows, and forfeits.
    for player in players[:3]:
        await lobby.stub.GetTournament(
            lobby_pb2.GetTournamentRequest(tournament_id=tid), metadata=player.metadata
        )
    await tournaments.tick()
    opened = await tournaments.get(STAFF, tid)
    absent = players[3].id
    present_match = next(m for m in opened.bracket.rounds[0] if absent not in (m.a, m.b))
    (table_id,) = opened.tables
    table = lobby.engine.tables[table_id]
    assert table.ko and table.mode is Mode.TOURNAMENT
    assert {s.player_id for s in table.seats} == {present_match.a, present_match.b}
    seated = next(p for p in players if p.id == present_match.a)
    await refused(  # busy at the tournament table like at any other (MODE-3)
        lobby.stub.JoinQueue(
            lobby_pb2.JoinQueueRequest(game="scopa", players=2), metadata=seated.metadata
        ),
        grpc.StatusCode.FAILED_PRECONDITION,
        f"already seated at table {table_id}",
    )
    # A table like any other (PCG-2, PCG-3): its players chat and report, moderators find it.
    at_table = lobby_pb2.ChatChannel(table_id=table_id)
    await lobby.stub.SendChat(
        lobby_pb2.SendChatRequest(channel=at_table, text="buona fortuna"), metadata=seated.metadata
    )
    other = next(p for p in players if p.id == present_match.b)
    page = await lobby.stub.ListChat(
        lobby_pb2.ListChatRequest(channel=at_table), metadata=other.metadata
    )
    assert [m.text for m in page.messages] == ["buona fortuna"]
    await lobby.stub.ReportPlayer(
        lobby_pb2.ReportPlayerRequest(table_id=table_id, player_id=other.id, reason="slow play"),
        metadata=seated.metadata,
    )
    await lobby.stub.SetChatSettings(
        lobby_pb2.ChatSettings(channel=at_table, disabled=True), metadata=operator.metadata
    )
    await refused(
        lobby.stub.SendChat(
            lobby_pb2.SendChatRequest(channel=at_table, text="ancora"), metadata=seated.metadata
        ),
        grpc.StatusCode.FAILED_PRECONDITION,
        "",
    )
    lobby.clock.advance(61)
    await tournaments.tick()
    after = await tournaments.get(STAFF, tid)
    forfeited = next(m for m in after.bracket.rounds[0] if absent in (m.a, m.b))
    assert forfeited.winner not in (None, absent)
    assert after.how[(0, forfeited.index)] == "no_show"

    # The table's result, then a second replica (a fresh use-case object) rebuilds it all.
    async with lobby.app.ctx.db.transaction() as conn:
        assert await tournaments.table_ended(conn, table_id, [2, 1], "tie_break")
        assert not await tournaments.table_ended(conn, table_id, [2, 1], "tie_break")
    replica = Tournaments(lobby.app.ctx, lobby.app.queue.release_now)
    rebuilt = await replica.get(STAFF, tid)
    assert rebuilt.bracket is not None
    final = rebuilt.bracket.rounds[1][0]
    assert {final.a, final.b} == {forfeited.winner, present_match.b}
    assert rebuilt.how[(0, present_match.index)] == "tie_break"
    by_id = {p.id: p for p in players}
    for finalist in (final.a, final.b):
        assert finalist is not None
        await lobby.stub.GetTournament(
            lobby_pb2.GetTournamentRequest(tournament_id=tid), metadata=by_id[finalist].metadata
        )
    await replica.tick()
    assert (await replica.get(STAFF, tid)).table_of(1, 0) is not None
