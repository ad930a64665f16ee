"""Reports against someone trying (PCG-3, PCG-4): throttled per reporter and target, merged
into one case with a count, carrying their evidence by themselves, decided in bulk."""

from __future__ import annotations

import asyncio
import uuid

import grpc
import pytest

from tavolo.lobby.social.conduct.reports import PER_HOUR, SAME_TARGET_EVERY
from tavolo.v1 import lobby_pb2

from .harness import Lobby, Player
from .staff import moderator, room_with, say, staffed
from .test_reports import queue, refused, report

pytestmark = pytest.mark.integration
__all__ = ["staffed"]


async def _outcome(lobby: Lobby, by: Player, target: Player) -> grpc.StatusCode:
    try:
        await report(lobby, by, "insults", player_id=target.id)
    except grpc.aio.AioRpcError as error:
        code: grpc.StatusCode = error.code()
        return code
    return grpc.StatusCode.OK


async def test_pcg_3_fifty_reports_at_once_make_one_report_and_others_join_its_case(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    troll, eve = await lobby.register("Troll"), await lobby.register("Eve")
    others = [await lobby.register(n) for n in ("Ada", "Bea", "Cleo")]

    flood = await asyncio.gather(*(_outcome(lobby, eve, troll) for _ in range(50)))
    assert flood.count(grpc.StatusCode.OK) == 1
    assert flood.count(grpc.StatusCode.RESOURCE_EXHAUSTED) == 49
    for other in others:
        assert await _outcome(lobby, other, troll) == grpc.StatusCode.OK

    [case] = await queue(lobby, mod)
    assert case.case_count == 4 and case.case_id == case.report_id
    assert (case.reporter_id, case.reporter_nickname) == (eve.id, "Eve")
    assert (case.player_id, case.player_nickname) == (troll.id, "Troll")
    mine = await lobby.stub.ListMyReports(lobby_pb2.ListMyReportsRequest(), metadata=eve.metadata)
    assert len(mine.reports) == 1

    # Decided: the reporter may report again, once the interval since their last has passed.
    await lobby.stub.ResolveReport(
        lobby_pb2.ResolveReportRequest(report_id=case.report_id, note="warned in chat"),
        metadata=mod.metadata,
    )
    for other in [eve, *others]:
        told = await lobby.stub.ListMyReports(
            lobby_pb2.ListMyReportsRequest(), metadata=other.metadata
        )
        assert [r.state for r in told.reports] == [lobby_pb2.REPORT_STATE_HANDLED]
    assert await _outcome(lobby, eve, troll) == grpc.StatusCode.RESOURCE_EXHAUSTED
    lobby.clock.advance(SAME_TARGET_EVERY.total_seconds() + 1)
    assert await _outcome(lobby, eve, troll) == grpc.StatusCode.OK
    [again] = await queue(lobby, mod)
    assert again.case_count == 1 and again.case_id != case.case_id


async def test_pcg_3_a_reporter_files_at_most_so_many_reports_an_hour(staffed: Lobby) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    eve = await lobby.register("Eve")
    targets = [await lobby.register(f"Player{i}") for i in range(PER_HOUR + 1)]
    outcomes = [await _outcome(lobby, eve, t) for t in targets]
    assert outcomes == [grpc.StatusCode.OK] * PER_HOUR + [grpc.StatusCode.RESOURCE_EXHAUSTED]
    assert len(await queue(lobby, mod)) == PER_HOUR  # the refused one recorded nothing
    lobby.clock.advance(3601)
    assert await _outcome(lobby, eve, targets[-1]) == grpc.StatusCode.OK


async def test_pcg_3_a_report_on_a_player_carries_the_table_and_its_chat_by_itself(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    ada, troll = await lobby.register("Ada"), await lobby.register("Troll")
    room_id = await room_with(lobby, ada, troll)
    seated = await lobby.stub.StartRoom(
        lobby_pb2.StartRoomRequest(room_id=room_id, fill_with_bots=True), metadata=ada.metadata
    )
    table = lobby_pb2.ChatChannel(table_id=seated.table_id)
    await say(lobby, troll, table, "sei uno str0nz0")
    await say(lobby, ada, table, "basta")

    await report(lobby, ada, "insults me", player_id=troll.id)
    [case] = await queue(lobby, mod)
    assert case.table_id == seated.table_id and case.log_ref == f"table-{seated.table_id}"
    assert [(line.sender_nickname, line.text) for line in case.chat] == [
        ("Troll", "sei uno *******"),
        ("Ada", "basta"),
    ]
    assert case.chat[0].original_text == "sei uno str0nz0"
    assert (case.reporter_nickname, case.player_nickname) == ("Ada", "Troll")


async def test_pcg_4_cases_are_decided_in_bulk_all_or_none(staffed: Lobby) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    eve = await lobby.register("Eve")
    trolls = [await lobby.register(n) for n in ("Troll", "Troll_B", "Troll_C")]
    for troll in trolls:
        await report(lobby, eve, "spam", player_id=troll.id)
    ids = [r.report_id for r in await queue(lobby, mod)]

    bad = lobby.stub.ResolveReports(
        lobby_pb2.ResolveReportsRequest(report_ids=[*ids[:2], str(uuid.uuid4())], note="spam"),
        metadata=mod.metadata,
    )
    assert await refused(bad) == grpc.StatusCode.NOT_FOUND
    assert len(await queue(lobby, mod)) == 3  # nothing decided
    player = lobby.stub.ResolveReports(
        lobby_pb2.ResolveReportsRequest(report_ids=ids, note="spam"), metadata=eve.metadata
    )
    assert await refused(player) == grpc.StatusCode.PERMISSION_DENIED
    empty = lobby.stub.ResolveReports(
        lobby_pb2.ResolveReportsRequest(note="spam"), metadata=mod.metadata
    )
    assert await refused(empty) == grpc.StatusCode.INVALID_ARGUMENT

    decided = await lobby.stub.ResolveReports(
        lobby_pb2.ResolveReportsRequest(report_ids=ids, note="spam, warned"),
        metadata=mod.metadata,
    )
    assert sorted(r.report_id for r in decided.reports) == sorted(ids)
    assert all(r.note == "spam, warned" and r.resolved_by == mod.id for r in decided.reports)
    assert await queue(lobby, mod) == []
    twice = lobby.stub.ResolveReports(
        lobby_pb2.ResolveReportsRequest(report_ids=ids[:1], note="again"), metadata=mod.metadata
    )
    assert await refused(twice) == grpc.StatusCode.FAILED_PRECONDITION
