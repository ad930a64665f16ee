"""Collusion signals over real gRPC (PCG-3): logins record their network address and
client installation, TableFinished events on NATS become facts, and moderators read the
ranked pairs with their evidence and audit commands."""

from __future__ import annotations

import asyncio
import random
import uuid

import grpc
import pytest

from tavolo.lobby.social.conduct.collusion_signals import (
    CLAIMED_INSTALLATION,
    FARMING_CAP_PER_DAY,
)
from tavolo.messaging import publish_with_id
from tavolo.v1 import common_pb2, events_pb2, lobby_pb2
from tests.waiting import eventually

from .harness import PASSWORD, Lobby, Player, bearer
from .staff import moderator, staffed

pytestmark = pytest.mark.integration
__all__ = ["staffed"]

INSTALLATION = "x-tavolo-installation"


async def login(lobby: Lobby, nickname: str, installation: str) -> Player:
    await lobby.register(nickname)
    session = await lobby.stub.Login(
        lobby_pb2.LoginRequest(nickname=nickname, password=PASSWORD),
        metadata=((INSTALLATION, installation),),
    )
    return Player(session, bearer(session.access_token))


async def finish(lobby: Lobby, order: list[Player], stake: int) -> None:
    """A stake table finished with the players placed in ``order``; one bot sat too."""
    seats = [
        common_pb2.Seat(seat=i, player_id=p.id, nickname=p.nickname) for i, p in enumerate(order)
    ]
    seats.append(common_pb2.Seat(seat=len(order), player_id="", nickname="Bot", bot=True))
    places = [*range(1, len(order) + 1), 2]
    finished = events_pb2.TableFinished(
        header=events_pb2.EventHeader(event_id=str(uuid.uuid4())),
        table_id=str(uuid.uuid4()),
        game="scopa",
        seats=seats,
        outcome=common_pb2.Outcome(places=places),
        stake=stake,
    )
    subject = lobby.topology.subject_for("TableFinished")
    for _ in range(2):  # a redelivery counts once
        await publish_with_id(
            lobby.service.infra.js,
            subject,
            finished.SerializeToString(),
            msg_id=finished.header.event_id,
        )


async def signals(lobby: Lobby, mod: Player) -> list[lobby_pb2.CollusionPair]:
    found = await lobby.stub.ListCollusionSignals(
        lobby_pb2.ListCollusionSignalsRequest(), metadata=mod.metadata
    )
    return list(found.pairs)


async def test_pcg_3_the_dumping_pair_tops_the_signals_with_its_evidence(
    staffed: Lobby,
) -> None:
    lobby = staffed
    mod = await moderator(lobby)
    honest = [await login(lobby, f"Onesto{i}", f"install-{i}") for i in range(4)]
    dumper = await login(lobby, "Dumper", "install-shared")
    taker = await login(lobby, "Taker", "install-shared")
    rng = random.Random(7)
    for _ in range(10):
        fair = rng.sample(honest, 3)
        await finish(lobby, fair, 100)
    for _ in range(10):
        await finish(lobby, [taker, *rng.sample(honest, 1), dumper], 100)
    pair = sorted([dumper.id, taker.id])
    for _ in range(200):
        ranked = await signals(lobby, mod)
        # The tables arrive one by one: wait for the flow over all ten, not the first.
        flows = [s for s in ranked[0].signals if s.kind == "coin_flow"] if ranked else []
        if flows and len(flows[0].table_ids) == 10:
            break
        await asyncio.sleep(0.05)
    top = ranked[0]
    assert list(top.player_ids) == pair
    kinds = {s.kind: s for s in top.signals}
    assert {"coin_flow", "same_installation"} <= set(kinds)
    flow = kinds["coin_flow"]
    assert len(flow.table_ids) == 10 and "1000 coins net" in flow.summary
    assert flow.audit_commands[0] == f"tavolo audit --table {flow.table_ids[0]}"
    for other in ranked[1:]:
        assert set(other.player_ids).isdisjoint(pair) or other.score < top.score
        assert not {"coin_flow", "same_installation"} & {s.kind for s in other.signals} or set(
            other.player_ids
        ) == set(pair)
    # Every login here came from the loopback address, the platform's own, which every
    # account shares: no pair of all of them is flagged for it, and the installation the
    # clients claim weighs less than one the server also saw from a shared address.
    assert all(s.kind != "same_address" for p in ranked for s in p.signals)
    assert kinds["same_installation"].score == CLAIMED_INSTALLATION


async def test_pcg_3_only_moderators_read_signals_and_a_bad_installation_is_refused(
    staffed: Lobby,
) -> None:
    lobby = staffed
    ada = await lobby.register("Ada")
    with pytest.raises(grpc.aio.AioRpcError) as denied:
        await lobby.stub.ListCollusionSignals(
            lobby_pb2.ListCollusionSignalsRequest(), metadata=ada.metadata
        )
    assert denied.value.code() == grpc.StatusCode.PERMISSION_DENIED
    with pytest.raises(grpc.aio.AioRpcError) as bad:
        await lobby.stub.Login(
            lobby_pb2.LoginRequest(nickname="Ada", password=PASSWORD),
            metadata=((INSTALLATION, "not one line\\n" + "x" * 200),),
        )
    assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT
    mod = await moderator(lobby)
    # Both logged in from the loopback address, the platform's own: no signal.
    assert await signals(lobby, mod) == []


async def friends_table(lobby: Lobby, winner: Player, loser: Player) -> str:
    """A real friends table of the two, started from a room, finished at once with
    ``winner`` first (the reward the wallet pays flows to them)."""
    room = await lobby.stub.CreateRoom(
        lobby_pb2.CreateRoomRequest(game="briscola", players=2), metadata=winner.metadata
    )
    await lobby.stub.Invite(
        lobby_pb2.InviteRequest(room_id=room.room_id, nickname=loser.nickname),
        metadata=winner.metadata,
    )
    await lobby.stub.RespondToInvitation(
        lobby_pb2.RespondToInvitationRequest(room_id=room.room_id, accept=True),
        metadata=loser.metadata,
    )
    seated = await lobby.stub.StartRoom(
        lobby_pb2.StartRoomRequest(room_id=room.room_id), metadata=winner.metadata
    )
    lobby.clock.advance(40)  # a quick game
    seats = [
        common_pb2.Seat(seat=0, player_id=winner.id, nickname=winner.nickname),
        common_pb2.Seat(seat=1, player_id=loser.id, nickname=loser.nickname),
    ]
    finished = events_pb2.TableFinished(
        header=events_pb2.EventHeader(event_id=str(uuid.uuid4())),
        table_id=seated.table_id,
        game="briscola",
        mode=common_pb2.MODE_VERSUS_FRIENDS,
        seats=seats,
        outcome=common_pb2.Outcome(places=[1, 2]),
    )
    await publish_with_id(
        lobby.service.infra.js,
        lobby.topology.subject_for("TableFinished"),
        finished.SerializeToString(),
        msg_id=finished.header.event_id,
    )

    async def ended() -> bool:
        async with lobby.service.infra.pool.acquire() as conn:
            found = await conn.fetchval(
                "SELECT count(*) FROM lobby.collusion_facts WHERE fact_id = $1",
                finished.header.event_id,
            )
        return bool(found)

    await eventually(ended, "the lobby to record the finished table", within=20)
    table_id: str = seated.table_id
    return table_id


async def test_pcg_3_nineteen_quick_friends_tables_won_one_way_raise_reward_farming(
    staffed: Lobby,
) -> None:
    """Two accounts play quick friends tables, one winning every one (the reward flowing
    to it each time): the moderators see reward farming, with the tables and the cap."""
    lobby = staffed
    mod = await moderator(lobby)
    taker, feeder = await lobby.register("Taker"), await lobby.register("Feeder")
    tables = [await friends_table(lobby, taker, feeder) for _ in range(19)]
    [pair] = await signals(lobby, mod)
    assert sorted(pair.player_ids) == sorted([taker.id, feeder.id])
    farming = next(s for s in pair.signals if s.kind == "reward_farming")
    assert f"{taker.id} won 19 of 19 short rewarded tables against {feeder.id}" in (farming.summary)
    assert f"cap {FARMING_CAP_PER_DAY} a day: {19 - FARMING_CAP_PER_DAY} over it" in (
        farming.summary
    )
    assert sorted(farming.table_ids) == sorted(tables)
