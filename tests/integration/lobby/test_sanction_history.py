"""Sanction lengths, a player's sanction history and finding a player (PCG-4), over gRPC."""

from __future__ import annotations

from datetime import timedelta

import grpc
import pytest

from tavolo.lobby.accounts.sanctions import add_months
from tavolo.v1 import lobby_pb2

from .harness import Lobby, Player
from .staff import moderator, room_with, say, staffed
from .test_reports import refused

pytestmark = pytest.mark.integration
__all__ = ["staffed"]

CHAT = lobby_pb2.SANCTION_KIND_CHAT


async def _apply(lobby: Lobby, mod: Player, whom: Player, duration: int) -> lobby_pb2.Sanction:
    applied: lobby_pb2.Sanction = await lobby.stub.ApplySanction(
        lobby_pb2.ApplySanctionRequest(
            player_id=whom.id, kind=CHAT, duration=duration, reason="insults"
        ),
        metadata=mod.metadata,
    )
    return applied


async def test_pcg_4_every_length_from_a_warning_to_permanent_ends_when_it_says(
    staffed: Lobby,
) -> None:
    """Each length's end, drawn over every one of them: a warning ends as applied, days
    and weeks count time, months count calendar months, permanent never ends."""
    lobby = staffed
    mod = await moderator(lobby)
    troll = await lobby.register("Troll")
    start = lobby.clock()
    expected = {
        lobby_pb2.SANCTION_DURATION_WARNING: start,
        lobby_pb2.SANCTION_DURATION_ONE_DAY: start + timedelta(days=1),
        lobby_pb2.SANCTION_DURATION_ONE_WEEK: start + timedelta(days=7),
        lobby_pb2.SANCTION_DURATION_ONE_MONTH: add_months(start, 1),
        lobby_pb2.SANCTION_DURATION_THREE_MONTHS: add_months(start, 3),
        lobby_pb2.SANCTION_DURATION_SIX_MONTHS: add_months(start, 6),
        lobby_pb2.SANCTION_DURATION_ONE_YEAR: start.replace(year=start.year + 1),
        lobby_pb2.SANCTION_DURATION_PERMANENT: None,
    }
    for duration, until in expected.items():
        applied = await _apply(lobby, mod, troll, duration)
        assert applied.duration == duration
        if until is None:
            assert not applied.HasField("until")
        else:
            assert applied.until.ToDatetime(tzinfo=start.tzinfo) == until, duration
        await lobby.stub.LiftSanction(
            lobby_pb2.LiftSanctionRequest(sanction_id=applied.sanction_id), metadata=mod.metadata
        )


async def test_pcg_4_a_warning_suspends_nothing_and_a_day_ends_after_a_day(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    host, troll = await lobby.register("Host"), await lobby.register("Troll")
    channel = lobby_pb2.ChatChannel(room_id=await room_with(lobby, host, troll))
    await _apply(lobby, mod, troll, lobby_pb2.SANCTION_DURATION_WARNING)
    await say(lobby, troll, channel, "scusate")  # a warning: chat still open
    await _apply(lobby, mod, troll, lobby_pb2.SANCTION_DURATION_ONE_DAY)
    assert await refused(say(lobby, troll, channel, "ancora")) == grpc.StatusCode.PERMISSION_DENIED
    lobby.clock.advance(timedelta(days=1).total_seconds() + 1)
    await say(lobby, troll, channel, "eccomi")


async def test_pcg_4_a_players_history_holds_every_sanction_newest_first(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    troll, ada = await lobby.register("Troll"), await lobby.register("Ada")
    applied = []
    for duration in (
        lobby_pb2.SANCTION_DURATION_WARNING,
        lobby_pb2.SANCTION_DURATION_ONE_WEEK,
        lobby_pb2.SANCTION_DURATION_PERMANENT,
    ):
        applied.append(await _apply(lobby, mod, troll, duration))
        lobby.clock.advance(60)
    await lobby.stub.LiftSanction(
        lobby_pb2.LiftSanctionRequest(sanction_id=applied[2].sanction_id), metadata=mod.metadata
    )
    history = await lobby.stub.ListSanctions(
        lobby_pb2.ListSanctionsRequest(player_id=troll.id), metadata=mod.metadata
    )
    assert [s.sanction_id for s in history.sanctions] == [s.sanction_id for s in applied[::-1]]
    assert history.sanctions[0].lifted_by == mod.id
    profile = await lobby.stub.GetProfile(
        lobby_pb2.GetProfileRequest(player_id=troll.id), metadata=mod.metadata
    )
    assert [s.sanction_id for s in profile.sanctions] == [applied[1].sanction_id]

    unknown = lobby.stub.ListSanctions(
        lobby_pb2.ListSanctionsRequest(player_id="nobody"), metadata=mod.metadata
    )
    assert await refused(unknown) == grpc.StatusCode.NOT_FOUND
    player = lobby.stub.ListSanctions(
        lobby_pb2.ListSanctionsRequest(player_id=troll.id), metadata=ada.metadata
    )
    assert await refused(player) == grpc.StatusCode.PERMISSION_DENIED
    own = await lobby.stub.ListSanctions(
        lobby_pb2.ListSanctionsRequest(player_id=troll.id), metadata=troll.metadata
    )
    assert [s.sanction_id for s in own.sanctions] == [s.sanction_id for s in applied[::-1]]


async def test_pcg_4_staff_find_a_player_by_nickname_whatever_its_case_or_look_alikes(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    troll, ada = await lobby.register("Troll_Mario"), await lobby.register("Ada")
    for asked in ("Troll_Mario", "troll_mario", "TROLL_MARI0", "Troll_M\u0430rio"):
        found = await lobby.stub.FindPlayer(
            lobby_pb2.FindPlayerRequest(nickname=asked), metadata=mod.metadata
        )
        assert (found.player_id, found.nickname) == (troll.id, "Troll_Mario")
    for asked, code in (
        ("Nessuno", grpc.StatusCode.NOT_FOUND),
        ("a b", grpc.StatusCode.NOT_FOUND),
        ("  ", grpc.StatusCode.INVALID_ARGUMENT),
    ):
        call = lobby.stub.FindPlayer(
            lobby_pb2.FindPlayerRequest(nickname=asked), metadata=mod.metadata
        )
        assert await refused(call) == code, asked
    player = lobby.stub.FindPlayer(
        lobby_pb2.FindPlayerRequest(nickname="Troll_Mario"), metadata=ada.metadata
    )
    assert await refused(player) == grpc.StatusCode.PERMISSION_DENIED
