"""Player reports (PCG-3) and their decision by moderators (PCG-4), over real gRPC."""

from __future__ import annotations

import uuid

import grpc
import pytest

from tavolo.v1 import lobby_pb2

from .harness import Lobby, Player, update_where
from .staff import moderator, room_with, say, staffed

pytestmark = pytest.mark.integration
__all__ = ["staffed"]


async def report(lobby: Lobby, by: Player, reason: str, **about: str) -> lobby_pb2.ReportReceipt:
    receipt: lobby_pb2.ReportReceipt = await lobby.stub.ReportPlayer(
        lobby_pb2.ReportPlayerRequest(reason=reason, **about), metadata=by.metadata
    )
    return receipt


async def queue(lobby: Lobby, mod: Player, open_only: bool = True) -> list[lobby_pb2.Report]:
    page = await lobby.stub.ListReports(
        lobby_pb2.ListReportsRequest(open_only=open_only), metadata=mod.metadata
    )
    return list(page.reports)


async def refused(call: object) -> grpc.StatusCode:
    with pytest.raises(grpc.aio.AioRpcError) as error:
        await call  # type: ignore[misc]
    code: grpc.StatusCode = error.value.code()
    return code


async def test_pcg_3_a_reported_message_carries_the_chat_around_it_and_is_dismissed(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    host, bea, troll = [await lobby.register(n) for n in ("Host", "Bea", "Troll")]
    channel = lobby_pb2.ChatChannel(room_id=await room_with(lobby, host, bea, troll))
    for i in range(12):
        await say(lobby, host, channel, f"mano {i}")
    bad = await say(lobby, troll, channel, "sei uno str0nz0")
    await say(lobby, bea, channel, "smettila")

    receipt = await report(lobby, bea, "insults", message_id=bad.message_id)
    assert receipt.state == lobby_pb2.REPORT_STATE_RECEIVED and receipt.report_id

    [found] = await queue(lobby, mod)
    assert (found.reporter_id, found.player_id, found.message_id, found.reason) == (
        bea.id,
        troll.id,
        bad.message_id,
        "insults",
    )
    texts = [line.text for line in found.chat]
    assert texts == [*(f"mano {i}" for i in range(3, 12)), "sei uno *******", "smettila"]
    assert found.chat[-2].original_text == "sei uno str0nz0"

    watch = lobby.stub.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=bea.metadata)
    dismissed = await lobby.stub.ResolveReport(
        lobby_pb2.ResolveReportRequest(report_id=found.report_id, note="a joke between friends"),
        metadata=mod.metadata,
    )
    assert dismissed.resolved_by == mod.id and dismissed.note == "a joke between friends"
    told = await update_where(watch, lambda u: u.HasField("report"))
    assert told.report.report_id == found.report_id
    assert told.report.state == lobby_pb2.REPORT_STATE_HANDLED
    watch.cancel()
    mine = await lobby.stub.ListMyReports(lobby_pb2.ListMyReportsRequest(), metadata=bea.metadata)
    assert [(r.report_id, r.state) for r in mine.reports] == [
        (found.report_id, lobby_pb2.REPORT_STATE_HANDLED)
    ]
    assert await queue(lobby, mod) == []
    assert [r.report_id for r in await queue(lobby, mod, open_only=False)] == [found.report_id]
    again = lobby.stub.ResolveReport(
        lobby_pb2.ResolveReportRequest(report_id=found.report_id, note="twice"),
        metadata=mod.metadata,
    )
    assert await refused(again) == grpc.StatusCode.FAILED_PRECONDITION


async def test_pcg_4_a_table_report_names_its_log_and_is_resolved_with_a_sanction(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    ada, bea = await lobby.register("Ada"), await lobby.register("Bea")
    seated = await lobby.stub.PlayVersusComputer(
        lobby_pb2.PlayVersusComputerRequest(game="pika", players=2), metadata=ada.metadata
    )
    await say(lobby, ada, lobby_pb2.ChatChannel(table_id=seated.table_id), "gg")
    await report(lobby, ada, "the bot cheats", table_id=seated.table_id)
    [found] = await queue(lobby, mod)
    assert found.table_id == seated.table_id and found.player_id == ""
    assert found.log_ref == f"table-{seated.table_id}"
    assert [line.text for line in found.chat] == ["gg"]

    await report(lobby, ada, "spams me", player_id=bea.id)
    by_player = (await queue(lobby, mod))[1]
    sanction = await lobby.stub.ApplySanction(
        lobby_pb2.ApplySanctionRequest(
            player_id=bea.id,
            kind=lobby_pb2.SANCTION_KIND_CHAT,
            duration=lobby_pb2.SANCTION_DURATION_ONE_MONTH,
            reason="spam",
        ),
        metadata=mod.metadata,
    )
    wrong = lobby.stub.ResolveReport(
        lobby_pb2.ResolveReportRequest(report_id=found.report_id, sanction_id=str(uuid.uuid4())),
        metadata=mod.metadata,
    )
    assert await refused(wrong) == grpc.StatusCode.NOT_FOUND
    decided = await lobby.stub.ResolveReport(
        lobby_pb2.ResolveReportRequest(
            report_id=by_player.report_id, sanction_id=sanction.sanction_id
        ),
        metadata=mod.metadata,
    )
    assert decided.sanction_id == sanction.sanction_id and decided.resolved_at.seconds > 0
    assert [r.report_id for r in await queue(lobby, mod)] == [found.report_id]


async def test_pcg_3_bad_reports_are_refused_and_change_nothing(staffed: Lobby) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    host, bea, eve = [await lobby.register(n) for n in ("Host", "Bea", "Eve")]
    channel = lobby_pb2.ChatChannel(room_id=await room_with(lobby, host, bea))
    said = await say(lobby, host, channel, "ciao")
    cases = [
        (eve, {"message_id": said.message_id, "reason": "x"}, grpc.StatusCode.NOT_FOUND),
        (bea, {"message_id": said.message_id, "reason": "  "}, grpc.StatusCode.INVALID_ARGUMENT),
        (bea, {"reason": "nothing named"}, grpc.StatusCode.INVALID_ARGUMENT),
        (bea, {"player_id": bea.id, "reason": "me"}, grpc.StatusCode.INVALID_ARGUMENT),
        (bea, {"player_id": str(uuid.uuid4()), "reason": "x"}, grpc.StatusCode.NOT_FOUND),
        (bea, {"table_id": str(uuid.uuid4()), "reason": "x"}, grpc.StatusCode.NOT_FOUND),
        (bea, {"player_id": host.id, "reason": "x" * 1001}, grpc.StatusCode.INVALID_ARGUMENT),
        (bea, {"player_id": host.id, "reason": "x" * 3000}, grpc.StatusCode.INVALID_ARGUMENT),
    ]
    for who, fields, code in cases:
        call = lobby.stub.ReportPlayer(
            lobby_pb2.ReportPlayerRequest(**fields), metadata=who.metadata
        )
        assert await refused(call) == code, fields
    assert await queue(lobby, mod, open_only=False) == []
    players_may_not = [
        lobby.stub.ListReports(lobby_pb2.ListReportsRequest(), metadata=bea.metadata),
        lobby.stub.ResolveReport(
            lobby_pb2.ResolveReportRequest(report_id=str(uuid.uuid4()), note="n"),
            metadata=bea.metadata,
        ),
    ]
    for call in players_may_not:
        assert await refused(call) == grpc.StatusCode.PERMISSION_DENIED
    empty = lobby.stub.ResolveReport(
        lobby_pb2.ResolveReportRequest(report_id=str(uuid.uuid4())), metadata=mod.metadata
    )
    assert await refused(empty) == grpc.StatusCode.INVALID_ARGUMENT
