"""Duplicate Solitario in the lobby over real gRPC, PostgreSQL and NATS: today's
competition made on first use, every entrant's table dealt from its one committed seed,
results from the engine's TableFinished and TableAborted, the standings by score, then
time, then moves, and the seed shown only once the competition has closed."""

from __future__ import annotations

import asyncio
import hashlib
import uuid
from datetime import UTC, datetime, timedelta

import grpc
import pytest
from google.protobuf import struct_pb2

from tavolo.messaging import publish_with_id
from tavolo.v1 import common_pb2, events_pb2, lobby_pb2

from .harness import Lobby, Player
from .staff import moderator, staffed

pytestmark = pytest.mark.integration
__all__ = ["staffed"]

DAILY = lobby_pb2.JoinDuplicateRequest(daily=True)


async def join(lobby: Lobby, player: Player) -> lobby_pb2.DuplicateEntry:
    entry: lobby_pb2.DuplicateEntry = await lobby.stub.JoinDuplicate(
        DAILY, metadata=player.metadata
    )
    return entry


async def table_ends(
    lobby: Lobby, player: Player, table_id: str, after: timedelta, how: str, score: int, moves: int
) -> None:
    """The engine's fact for ``table_id``, ``after`` the join; published twice (once counts)."""
    header = events_pb2.EventHeader(event_id=str(uuid.uuid4()))
    header.occurred_at.FromDatetime(lobby.clock.now + after)
    seat = common_pb2.Seat(seat=0, player_id=player.id, nickname=player.nickname)
    if how == "aborted":
        kind, message = (
            "TableAborted",
            events_pb2.TableAborted(
                header=header, table_id=table_id, game="solitario", seats=[seat], reason="left"
            ),
        )
    else:
        detail = struct_pb2.Struct()
        detail.update({"results": [how], "moves": [moves], "seconds": [0]})
        outcome = common_pb2.Outcome(places=[1], scores=[score], detail=detail)
        kind, message = (
            "TableFinished",
            events_pb2.TableFinished(
                header=header, table_id=table_id, game="solitario", seats=[seat], outcome=outcome
            ),
        )
    for _ in range(2):
        await publish_with_id(
            lobby.service.infra.js,
            lobby.topology.subject_for(kind),
            message.SerializeToString(),
            msg_id=header.event_id,
        )


async def standings_when(lobby: Lobby, player: Player, done: int) -> lobby_pb2.DuplicateStandings:
    for _ in range(200):
        found: lobby_pb2.DuplicateStandings = await lobby.stub.GetDuplicateStandings(
            lobby_pb2.GetDuplicateStandingsRequest(daily=True), metadata=player.metadata
        )
        if sum(1 for s in found.standings if s.result) >= done:
            return found
        await asyncio.sleep(0.05)
    raise AssertionError(f"fewer than {done} results reached the standings")


async def test_everyone_plays_the_committed_deal_and_ranks_by_score_time_moves(
    lobby: Lobby,
) -> None:
    players = [await lobby.register(n) for n in ("Anna", "Bruno", "Carla", "Dario", "Elsa")]
    entries = [await join(lobby, p) for p in players]
    today = entries[0].duplicate
    assert today.duplicate_id == "daily-2026-06-01" and today.game == "solitario"
    assert today.closes_at.ToDatetime(tzinfo=UTC) == datetime(2026, 6, 2, tzinfo=UTC)
    # One seed for every table, committed before anyone plays, and shown to nobody.
    opened = [lobby.engine.tables[e.table_id] for e in entries]
    seeds = {t.deal_seed for t in opened}
    assert len(seeds) == 1 and len(next(iter(seeds))) == 32
    assert hashlib.sha256(next(iter(seeds))).hexdigest() == today.seed_commitment
    assert {e.duplicate.seed_commitment for e in entries} == {today.seed_commitment}
    assert all(e.duplicate.seed_hex == "" and not e.duplicate.closed for e in entries)
    assert {t.sealed_until for t in opened} == {datetime(2026, 6, 2, tzinfo=UTC)}
    assert len({e.table_id for e in entries}) == 5
    assert all(t.seats[0].player_id == p.id for t, p in zip(opened, players, strict=True))

    # Entering again hands back the same table: nobody gets a second try at the deal.
    again = await join(lobby, players[0])
    assert (again.table_id, again.rejoined) == (entries[0].table_id, True)
    assert len(lobby.engine.tables) == 5

    anna, bruno, carla, dario, elsa = players
    minutes = timedelta(minutes=1)
    await table_ends(lobby, anna, entries[0].table_id, 5 * minutes, "won", 640, 150)
    await table_ends(lobby, bruno, entries[1].table_id, 4 * minutes, "won", 640, 160)
    await table_ends(lobby, carla, entries[2].table_id, 4 * minutes, "won", 640, 140)
    await table_ends(lobby, dario, entries[3].table_id, 2 * minutes, "stopped", 95, 60)
    found = await standings_when(lobby, anna, 4)
    lines = [(s.place, s.nickname, s.score, s.millis, s.moves, s.result) for s in found.standings]
    assert lines == [
        (1, "Carla", 640, 240_000, 140, "won"),  # same score and time as Bruno, fewer moves
        (2, "Bruno", 640, 240_000, 160, "won"),
        (3, "Anna", 640, 300_000, 150, "won"),
        (4, "Dario", 95, 120_000, 60, "stopped"),
        (0, "Elsa", 0, 0, 0, ""),  # still playing
    ]
    assert found.duplicate.seed_hex == ""

    # Leaving the table ends the entry after every result.
    await table_ends(lobby, elsa, entries[4].table_id, minutes, "aborted", 0, 0)
    found = await standings_when(lobby, anna, 5)
    assert [(s.place, s.nickname, s.result) for s in found.standings][-1] == (5, "Elsa", "aborted")

    # At the close the seed is revealed; the competition takes no more entries.
    lobby.clock.advance(timedelta(days=1).total_seconds())
    closed = await lobby.stub.GetDuplicateStandings(
        lobby_pb2.GetDuplicateStandingsRequest(duplicate_id=today.duplicate_id),
        metadata=anna.metadata,
    )
    assert closed.duplicate.closed and closed.duplicate.seed_hex == next(iter(seeds)).hex()
    late = await lobby.register("Fabio")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.JoinDuplicate(
            lobby_pb2.JoinDuplicateRequest(duplicate_id=today.duplicate_id),
            metadata=late.metadata,
        )
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION
    assert "closed" in (refused.value.details() or "")
    # The next day's competition is another deal.
    tomorrow = await join(lobby, late)
    assert tomorrow.duplicate.duplicate_id == "daily-2026-06-02"
    assert tomorrow.duplicate.seed_commitment != today.seed_commitment


async def test_an_engine_refusal_leaves_no_entry_and_the_player_free(lobby: Lobby) -> None:
    from tavolo.servicekit.errors import Unavailable

    anna = await lobby.register("Anna")
    lobby.engine.refuse_with = Unavailable(
        "the engine is not reachable right now", reason="SERVICE_UNREACHABLE"
    )
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await join(lobby, anna)
    assert refused.value.code() == grpc.StatusCode.UNAVAILABLE
    lobby.engine.refuse_with = None
    entry = await join(lobby, anna)
    assert not entry.rejoined and entry.table_id in lobby.engine.tables


async def test_operators_create_competitions_and_bad_requests_change_nothing(
    staffed: Lobby,
) -> None:
    lobby = staffed
    operator = await moderator(lobby)
    anna = await lobby.register("Anna")
    request = lobby_pb2.CreateDuplicateRequest(duplicate_id="sunday-cup")
    request.options.update({"draw": 3})
    request.closes_at.FromDatetime(lobby.clock.now + timedelta(hours=6))
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.CreateDuplicate(request, metadata=anna.metadata)
    assert refused.value.code() == grpc.StatusCode.PERMISSION_DENIED

    bad = lobby_pb2.CreateDuplicateRequest()
    bad.CopyFrom(request)
    bad.closes_at.FromDatetime(lobby.clock.now - timedelta(hours=1))
    for wrong, words in (
        (bad, "closes"),
        (lobby_pb2.CreateDuplicateRequest(duplicate_id="sunday-cup"), "closes_at"),
    ):
        with pytest.raises(grpc.aio.AioRpcError) as refused:
            await lobby.stub.CreateDuplicate(wrong, metadata=operator.metadata)
        assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
        assert words in (refused.value.details() or "")
    far = lobby_pb2.CreateDuplicateRequest()
    far.CopyFrom(request)
    far.closes_at.seconds = 2**52  # past the year 9999
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.CreateDuplicate(far, metadata=operator.metadata)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    assert "year" in (refused.value.details() or "")
    bad_draw = lobby_pb2.CreateDuplicateRequest()
    bad_draw.CopyFrom(request)
    bad_draw.options.update({"draw": 2})
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.CreateDuplicate(bad_draw, metadata=operator.metadata)
    assert refused.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    with pytest.raises(grpc.aio.AioRpcError) as refused:  # nothing was created above
        await lobby.stub.JoinDuplicate(
            lobby_pb2.JoinDuplicateRequest(duplicate_id="sunday-cup"), metadata=anna.metadata
        )
    assert refused.value.code() == grpc.StatusCode.NOT_FOUND

    made = await lobby.stub.CreateDuplicate(request, metadata=operator.metadata)
    assert made.options["draw"] == 3 and len(made.seed_commitment) == 64 and not made.seed_hex
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await lobby.stub.CreateDuplicate(request, metadata=operator.metadata)
    assert refused.value.code() == grpc.StatusCode.ALREADY_EXISTS
    entry = await lobby.stub.JoinDuplicate(
        lobby_pb2.JoinDuplicateRequest(duplicate_id="sunday-cup"), metadata=anna.metadata
    )
    table = lobby.engine.tables[entry.table_id]
    assert table.spec.options["draw"] == 3
    assert hashlib.sha256(table.deal_seed).hexdigest() == made.seed_commitment


async def test_the_daily_competition_is_made_before_anyone_asks(lobby: Lobby) -> None:
    from tavolo.lobby.duplicates import store
    from tests.waiting import eventually

    async def made() -> bool:
        async with lobby.app.ctx.db.connection() as conn:
            return await store.competition(conn, "daily-2026-06-01") is not None

    await eventually(made, "the lobby to create today's competition")
