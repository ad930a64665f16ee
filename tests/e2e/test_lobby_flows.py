"""The lobby with the real engine and wallet, over real gRPC and NATS (MODE-1..4).

Every table here is formed by the lobby, opened by the engine from the lobby's
MatchFormed (or directly, versus computer), announced back through TableStarted and
WatchLobby, played to the end by this test through Engine.Act with random legal actions
(bots play their own seats), and settled by the wallet from TableFinished or
MatchCancelled.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator
from dataclasses import replace

import grpc
import pytest

from tavolo.v1 import common_pb2, engine_pb2, lobby_pb2, wallet_pb2
from tests.integration.lobby.harness import Player
from tests.integration.lobby.platform import (
    PLATFORM_WALLET,
    Platform,
    balance,
    play_seat,
    running_platform,
    seated_at,
)
from tests.waiting import eventually

pytestmark = pytest.mark.e2e

# These tables count every coin from zero (rewards, pots, refunds, a broke player), so the
# welcome grant is off here; it is tested end to end in test_wallet_welcome.py.
NO_WELCOME = replace(PLATFORM_WALLET, welcome_coins=0)


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    async with running_platform(database_url, nats_url, namespace, wallet=NO_WELCOME) as running:
        yield running


async def join(platform: Platform, player: Player, players: int, stake: int = 0) -> str:
    ticket = await platform.lobby.JoinQueue(
        lobby_pb2.JoinQueueRequest(game="pika", players=players, stake=stake),
        metadata=player.metadata,
    )
    ticket_id: str = ticket.ticket_id
    return ticket_id


async def until_free(platform: Platform, player: Player) -> None:
    """The lobby frees a player when the engine's TableFinished arrives."""
    async with asyncio.timeout(30):
        while True:
            try:
                ticket = await join(platform, player, 4)
            except grpc.aio.AioRpcError as exc:
                assert exc.code() == grpc.StatusCode.FAILED_PRECONDITION
                await asyncio.sleep(0.1)
                continue
            await platform.lobby.LeaveQueue(
                lobby_pb2.LeaveQueueRequest(ticket_id=ticket), metadata=player.metadata
            )
            return


async def test_mode_3_eight_players_land_on_two_tables_that_play_to_the_end(
    platform: Platform,
) -> None:
    players = [await platform.register(f"Online{i}") for i in range(8)]
    watchers = [asyncio.create_task(seated_at(platform, p)) for p in players]
    await asyncio.sleep(0.2)  # the streams are open before anyone is seated
    for player in players:
        await join(platform, player, 4)
    seats = await asyncio.gather(*watchers)
    tables = {s.table_id for s in seats}
    assert len(tables) == 2
    for table_id in tables:
        assert sorted(s.seat for s in seats if s.table_id == table_id) == [0, 1, 2, 3]
    assert all(s.mode == common_pb2.MODE_ONLINE for s in seats)

    rng = random.Random(7)
    views = await asyncio.gather(
        *(
            play_seat(platform, s.table_id, p, random.Random(rng.random()))
            for s, p in zip(seats, players, strict=True)
        )
    )
    assert all(v.status == engine_pb2.TABLE_STATUS_FINISHED for v in views)
    for table_id in tables:
        view = next(v for v in views if v.table_id == table_id)
        assert not any(s.bot for s in view.seats)  # eight real players, no bot fill
        assert sorted(view.outcome.places)[0] == 1

    # MODE-3: every place is paid; once settled, everyone has coins.
    async def all_paid() -> bool:
        return all([(await balance(platform, p)).available > 0 for p in players])

    await eventually(all_paid)
    for player in players:
        await until_free(platform, player)


async def test_mode_3_a_lonely_ticket_is_bot_filled_and_plays_to_the_end(
    platform: Platform,
) -> None:
    ada = await platform.register("Lonely")
    watcher = asyncio.create_task(seated_at(platform, ada))
    await asyncio.sleep(0.2)
    await join(platform, ada, 4)
    seat = await watcher
    view = await play_seat(platform, seat.table_id, ada, random.Random(3))
    assert view.status == engine_pb2.TABLE_STATUS_FINISHED
    assert [s.bot for s in view.seats] == [False, True, True, True]
    await until_free(platform, ada)


async def test_mode_4_an_unfilled_stake_table_is_cancelled_and_the_stake_comes_back(
    platform: Platform,
) -> None:
    operator = await platform.operator()
    ada, bea = await platform.register("Staker"), await platform.register("Broke")
    await platform.wallet.Grant(
        wallet_pb2.GrantRequest(
            transfer_id="welcome-staker", player_id=ada.id, amount=500, reason="welcome"
        ),
        metadata=operator.metadata,
    )
    # Short of coins: refused with the wallet's reason, nothing queued.
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await join(platform, bea, 4, stake=100)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION

    await join(platform, ada, 4, stake=100)
    held = await balance(platform, ada)
    assert (held.available, held.held) == (400, 100)

    async def released() -> bool:  # the stake timeout is 1.5 s here
        return (await balance(platform, ada)).held == 0

    await eventually(released)
    back = await balance(platform, ada)
    assert (back.available, back.held) == (500, 0)


async def test_mode_4_a_frozen_account_cannot_stake(platform: Platform) -> None:
    operator = await platform.operator()
    ada = await platform.register("Frozen")
    await platform.wallet.Grant(
        wallet_pb2.GrantRequest(
            transfer_id="welcome-frozen", player_id=ada.id, amount=500, reason="welcome"
        ),
        metadata=operator.metadata,
    )
    await platform.lobby.ApplySanction(
        lobby_pb2.ApplySanctionRequest(
            player_id=ada.id,
            kind=lobby_pb2.SANCTION_KIND_FREEZE,
            duration=lobby_pb2.SANCTION_DURATION_PERMANENT,
            reason="payment dispute",
        ),
        metadata=operator.metadata,
    )

    async def frozen() -> bool:  # AccountFrozen travels through NATS to the wallet
        return (await balance(platform, ada)).frozen

    await eventually(frozen)
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await join(platform, ada, 4, stake=100)
    assert refused.value.code() == grpc.StatusCode.FAILED_PRECONDITION


async def test_mode_2_two_friends_play_and_only_the_winner_is_paid(platform: Platform) -> None:
    host, friend = await platform.register("Padrone"), await platform.register("Amica")
    room = await platform.lobby.CreateRoom(
        lobby_pb2.CreateRoomRequest(game="pika", players=2), metadata=host.metadata
    )
    await platform.lobby.Invite(
        lobby_pb2.InviteRequest(room_id=room.room_id, nickname="amica"), metadata=host.metadata
    )
    await platform.lobby.RespondToInvitation(
        lobby_pb2.RespondToInvitationRequest(room_id=room.room_id, accept=True),
        metadata=friend.metadata,
    )
    watcher = asyncio.create_task(seated_at(platform, friend))
    await asyncio.sleep(0.2)
    start = await platform.lobby.StartRoom(
        lobby_pb2.StartRoomRequest(room_id=room.room_id), metadata=host.metadata
    )
    friend_seat = await watcher
    assert friend_seat.table_id == start.table_id and friend_seat.seat == 1
    views = await asyncio.gather(
        play_seat(platform, start.table_id, host, random.Random(1)),
        play_seat(platform, start.table_id, friend, random.Random(2)),
    )
    places = list(views[0].outcome.places)
    async with asyncio.timeout(30):
        while True:
            coins = [(await balance(platform, p)).available for p in (host, friend)]
            if any(coins):
                break
            await asyncio.sleep(0.2)
    # MODE-2: only the winner is paid (half the online rate); the other gets nothing.
    for place, amount in zip(places, coins, strict=True):
        assert (amount > 0) == (place == 1)


async def test_mode_1_versus_computer_opens_a_real_table_at_once(platform: Platform) -> None:
    ada = await platform.register("Solitaria")
    seat = await platform.lobby.PlayVersusComputer(
        lobby_pb2.PlayVersusComputerRequest(
            game="pika", players=2, level=common_pb2.BOT_LEVEL_EASY
        ),
        metadata=ada.metadata,
    )
    view = await platform.engine.GetTable(
        engine_pb2.GetTableRequest(table_id=seat.table_id), metadata=ada.metadata
    )
    assert view.status == engine_pb2.TABLE_STATUS_PLAYING
    assert [s.bot for s in view.seats] == [False, True]
    final = await play_seat(platform, seat.table_id, ada, random.Random(5))
    assert final.status == engine_pb2.TABLE_STATUS_FINISHED
    assert (await balance(platform, ada)).available == 0  # MODE-1 pays nothing
    await until_free(platform, ada)


async def test_mode_4_a_full_stake_table_plays_and_the_pot_goes_to_the_winner(
    platform: Platform,
) -> None:
    operator = await platform.operator()
    players = [await platform.register(f"Stake{i}") for i in range(2)]
    for player in players:
        await platform.wallet.Grant(
            wallet_pb2.GrantRequest(
                transfer_id=f"welcome-{player.id}", player_id=player.id, amount=300, reason="hi"
            ),
            metadata=operator.metadata,
        )
    watchers = [asyncio.create_task(seated_at(platform, p)) for p in players]
    await asyncio.sleep(0.2)
    for player in players:
        await join(platform, player, 2, stake=250)
    seats = await asyncio.gather(*watchers)
    assert {s.mode for s in seats} == {common_pb2.MODE_STAKE}
    views = await asyncio.gather(
        *(
            play_seat(platform, s.table_id, p, random.Random(i))
            for i, (s, p) in enumerate(zip(seats, players, strict=True))
        )
    )
    places = {p.id: v.outcome.places[v.seat] for p, v in zip(players, views, strict=True)}
    winners = [pid for pid, place in places.items() if place == 1]

    async def settled() -> bool:
        return all([(await balance(platform, p)).held == 0 for p in players]) and any(
            [(await balance(platform, p)).available > 50 for p in players]
        )

    await eventually(settled)
    coins = {p.id: (await balance(platform, p)).available for p in players}
    # MODE-4: the whole pot (500) goes to the winners, no commission; a loser's stake
    # stays in the pot (whatever reward the wallet adds on top is its own rule).
    for pid in places:
        if pid in winners:
            assert coins[pid] >= 50 + 500 // len(winners)
        else:
            assert coins[pid] < 300
