"""Rated matchmaking (RATE-2) over real gRPC, PostgreSQL and NATS: the lobby learns each
player's rating from the leaderboard's RatingsChanged events, tickets carry it, and the
matchmaker seats like with like, widening each ticket's window with its wait up to a cap,
until the deadline.
"""

from __future__ import annotations

import asyncio
import math
import uuid
from datetime import timedelta

import pytest

from tavolo.leaderboard.bootstrap import make_assemble as leaderboard_assemble
from tavolo.leaderboard.config import LeaderboardConfig
from tavolo.leaderboard.model import Mode
from tavolo.leaderboard.wire import table_finished_to_proto
from tavolo.lobby.play import queue_store
from tavolo.lobby.play.matchmaker import HISTORY_REFRESH
from tavolo.messaging import publish_with_id
from tavolo.servicekit.runtime import start_service
from tavolo.v1 import events_pb2, lobby_pb2

from ...unit.leaderboard.tables import finished, seat
from .harness import Lobby, Player, quick_config, running_lobby

pytestmark = pytest.mark.integration

STRONG = (35.0, 2.0)
WEAK = (20.0, 2.0)


async def tell_ratings(
    lobby: Lobby, ratings: list[tuple[Player, tuple[float, float]]], tables: int = 12
) -> None:
    """Publish RatingsChanged as the leaderboard would, and wait until the lobby shows it."""
    message = events_pb2.RatingsChanged(table_id=f"t-{uuid.uuid4().hex[:8]}", game="pika")
    for player, (mu, sigma) in ratings:
        message.ratings.add(player_id=player.id, mu=mu, sigma=sigma, rated_tables=tables)
    message.header.event_id = str(uuid.uuid4())
    await publish_with_id(
        lobby.service.infra.js,
        lobby.topology.subject_for("RatingsChanged"),
        message.SerializeToString(),
        msg_id=message.header.event_id,
    )
    for player, _ in ratings:
        await profile_rating(lobby, player)


async def handled(lobby: Lobby, event_id: str) -> bool:
    async with lobby.service.infra.pool.acquire() as conn:
        return bool(
            await conn.fetchval(
                "SELECT count(*) FROM lobby.processed_messages WHERE message_id = $1", event_id
            )
        )


async def profile_rating(lobby: Lobby, player: Player) -> lobby_pb2.ProfileRating:
    for _ in range(200):
        profile = await lobby.stub.GetProfile(
            lobby_pb2.GetProfileRequest(), metadata=player.metadata
        )
        if profile.ratings:
            rating: lobby_pb2.ProfileRating = profile.ratings[0]
            return rating
        await asyncio.sleep(0.05)
    raise AssertionError(f"the lobby never learned {player.nickname}'s rating")


async def two_seat_tickets(lobby: Lobby, *players: Player) -> None:
    for player in players:
        await lobby.stub.JoinQueue(
            lobby_pb2.JoinQueueRequest(game="pika", players=2), metadata=player.metadata
        )


async def test_rate_2_a_narrow_window_waits_and_a_widened_one_seats(
    database_url: str, nats_url: str, namespace: str
) -> None:
    """RATE-2: 35 and 20 (sigma 2) are 7.5 sigmas apart: with a window of 1 sigma
    doubling every 10 s it reaches them after 10 * log2(7.5) = 29.1 s; the deadline here
    is 120 s."""
    config = quick_config(
        bot_fill_after=timedelta(seconds=120),
        window_start=1.0,
        window_doubling=timedelta(seconds=10),
        window_max=100.0,
    )
    async with running_lobby(database_url, nats_url, namespace, config=config) as lobby:
        strong, weak = [await lobby.register(n) for n in ("Strong", "Weak")]
        await tell_ratings(lobby, [(strong, STRONG), (weak, WEAK)])
        shown = await profile_rating(lobby, strong)
        assert (shown.game, shown.rating, shown.provisional) == ("pika", 29.0, False)
        await two_seat_tickets(lobby, strong, weak)
        needed = 10 * math.log2((STRONG[0] - WEAK[0]) / 2.0)
        lobby.clock.advance(1)
        assert (await lobby.app.matchmaker.run_round()).tables_formed == 0
        lobby.clock.advance(needed - 2)
        assert (await lobby.app.matchmaker.run_round()).tables_formed == 0
        lobby.clock.advance(2)
        result = await lobby.app.matchmaker.run_round()
        assert result.tables_formed == 1 and result.bot_filled == 0


async def test_rate_2_like_ratings_sit_together_first(
    database_url: str, nats_url: str, namespace: str
) -> None:
    """RATE-2: four tickets in queue order strong, weak, strong, weak make two tables of
    like with like, not the first-come pairs."""
    async with running_lobby(database_url, nats_url, namespace) as lobby:
        players = [await lobby.register(f"Player{i}") for i in range(4)]
        await tell_ratings(
            lobby, [(p, STRONG if i % 2 == 0 else WEAK) for i, p in enumerate(players)]
        )
        await two_seat_tickets(lobby, *players)
        lobby.clock.advance(1)
        result = await lobby.app.matchmaker.run_round()
        assert result.tables_formed == 2
        async with lobby.service.infra.pool.acquire() as conn:
            rows = await conn.fetch(
                "SELECT player_id, table_id FROM lobby.tickets WHERE state = 'seated'"
            )
        table_of = {r["player_id"]: r["table_id"] for r in rows}
        assert table_of[players[0].id] == table_of[players[2].id]
        assert table_of[players[1].id] == table_of[players[3].id]


async def test_rate_2_the_deadline_falls_back_to_first_come(
    database_url: str, nats_url: str, namespace: str
) -> None:
    """RATE-2: a window that would need minutes gives way at the 30 s deadline."""
    config = quick_config(window_doubling=timedelta(seconds=1000))
    async with running_lobby(database_url, nats_url, namespace, config=config) as lobby:
        strong, weak = [await lobby.register(n) for n in ("Strong", "Weak")]
        await tell_ratings(lobby, [(strong, STRONG), (weak, WEAK)])
        await two_seat_tickets(lobby, strong, weak)
        lobby.clock.advance(29)
        assert (await lobby.app.matchmaker.run_round()).tables_formed == 0
        lobby.clock.advance(1)
        result = await lobby.app.matchmaker.run_round()
        assert result.tables_formed == 1 and result.bot_filled == 0


async def test_rate_2_a_window_at_its_cap_waits_for_the_deadline(
    database_url: str, nats_url: str, namespace: str
) -> None:
    """RATE-2: 35 and 20 (sigma 2) are 7.5 sigmas apart, beyond the cap of 5: at 25 s
    (an uncapped window would be 2.5 * 2^50 sigmas) they still wait; at the 30 s deadline
    they sit together."""
    config = quick_config(window_max=5.0)
    async with running_lobby(database_url, nats_url, namespace, config=config) as lobby:
        strong, weak = [await lobby.register(n) for n in ("Strong", "Weak")]
        await tell_ratings(lobby, [(strong, STRONG), (weak, WEAK)])
        await two_seat_tickets(lobby, strong, weak)
        lobby.clock.advance(25)
        assert (await lobby.app.matchmaker.run_round()).tables_formed == 0
        lobby.clock.advance(5)
        result = await lobby.app.matchmaker.run_round()
        assert result.tables_formed == 1 and result.bot_filled == 0


async def test_rate_2_the_lobby_learns_ratings_from_the_leaderboard(
    database_url: str, nats_url: str, namespace: str
) -> None:
    """RATE-1, RATE-2: a TableFinished rated by the real leaderboard reaches the lobby as
    RatingsChanged (through its outbox), and the winner's profile shows the higher rating."""
    async with running_lobby(database_url, nats_url, namespace) as lobby:
        ann, bob = [await lobby.register(n) for n in ("Ann", "Bob")]
        board = await start_service(
            "leaderboard",
            leaderboard_assemble(LeaderboardConfig(), games=frozenset({"pika"})),
            lobby.settings,
            port=0,
        )
        lobby.extra.append(board)
        table = finished([seat(ann.id, 1), seat(bob.id, 2)], mode=Mode.ONLINE)
        await publish_with_id(
            lobby.service.infra.js,
            lobby.topology.table_finished,
            table_finished_to_proto(table).SerializeToString(),
            msg_id=table.event_id,
        )
        won, lost = await profile_rating(lobby, ann), await profile_rating(lobby, bob)
        assert won.rated_tables == lost.rated_tables == 1
        assert won.provisional and won.rating > lost.rating


async def test_rate_2_an_older_rating_arriving_late_changes_nothing(
    database_url: str, nats_url: str, namespace: str
) -> None:
    """RATE-2: the lobby keeps the rating with the most rated tables, whatever the order
    the events arrive in."""
    async with running_lobby(database_url, nats_url, namespace) as lobby:
        ann = await lobby.register("Ann")
        await tell_ratings(lobby, [(ann, STRONG)], tables=12)
        late = events_pb2.RatingsChanged(table_id="t-old", game="pika")
        late.ratings.add(player_id=ann.id, mu=WEAK[0], sigma=WEAK[1], rated_tables=5)
        late.header.event_id = str(uuid.uuid4())
        await publish_with_id(
            lobby.service.infra.js,
            lobby.topology.subject_for("RatingsChanged"),
            late.SerializeToString(),
            msg_id=late.header.event_id,
        )
        for _ in range(200):
            if await handled(lobby, late.header.event_id):
                break
            await asyncio.sleep(0.05)
        else:
            raise AssertionError("the late RatingsChanged was never handled")
        shown = await profile_rating(lobby, ann)
        assert (shown.rating, shown.rated_tables) == (29.0, 12)


async def test_rate_2_foresight_holds_a_loose_pair_until_due_and_seats_a_like_pair_at_once(
    database_url: str, nats_url: str, namespace: str
) -> None:
    """RATE-2: once the pool has history (two tables' worth of tickets), the matchmaker
    reads its outlook from PostgreSQL: a like pair (35, 35) sits in the first round; a
    loose pair (35, 20) is held while a like player is likely to come, and sits in the
    round before the older ticket would pass the wait target (1.5x first come's)."""
    async with running_lobby(database_url, nats_url, namespace) as lobby:
        players = [await lobby.register(f"Player{i}") for i in range(4)]
        ratings = [STRONG, STRONG, STRONG, WEAK]
        await tell_ratings(lobby, list(zip(players, ratings, strict=True)))
        for i in (0, 1):
            await two_seat_tickets(lobby, players[i])
            lobby.clock.advance(0.5)
        assert (await lobby.app.matchmaker.run_round()).tables_formed == 1
        for i in (2, 3):
            await two_seat_tickets(lobby, players[i])
            lobby.clock.advance(0.5)
        assert (await lobby.app.matchmaker.run_round()).tables_formed == 0
        interval = lobby.app.ctx.config.matchmaker_interval
        policy = lobby.app.ctx.config.policy
        async with lobby.service.infra.pool.acquire() as conn:
            pool = await conn.fetchval("SELECT DISTINCT pool FROM lobby.tickets")
            outlook = await queue_store.pool_outlook(
                conn,
                pool,
                now=lobby.clock(),
                players=2,
                policy=policy,
                round_seconds=interval,
                history=await queue_store.pool_history(
                    conn, pool, now=lobby.clock(), policy=policy
                ),
            )
        assert outlook is not None and outlook.late_allowed == 0
        assert outlook.rate == pytest.approx(2.0)
        waited = 1.0  # the older of the loose pair joined a second ago
        lobby.clock.advance(outlook.target.total_seconds() - waited - 2 * interval)
        assert (await lobby.app.matchmaker.run_round()).tables_formed == 0
        lobby.clock.advance(interval * 1.5)
        result = await lobby.app.matchmaker.run_round()
        assert result.tables_formed == 1 and result.bot_filled == 0


async def test_rate_2_the_outlook_reads_a_steady_rate_over_the_half_hour(
    database_url: str, nats_url: str, namespace: str
) -> None:
    """RATE-2: the store reads a pool's rate over its last half hour while its last five
    minutes agree with it (4 a second for 25 minutes, then 3.8: within the noise of a
    count, so 3.97, the half hour's), and the five minutes' once they do not (a burst at
    8 a second); tickets older than the half hour are not read."""
    async with running_lobby(database_url, nats_url, namespace) as lobby:
        now = lobby.clock()
        policy = lobby.app.ctx.config.policy
        assert policy.rate_window == timedelta(minutes=30)

        def stretch(until_minutes: float, minutes: float, rate: float) -> list[float]:
            """Seconds before now of evenly spaced arrivals."""
            count = round(minutes * 60 * rate)
            return [until_minutes * 60 + (i + 0.5) / rate for i in range(count)]

        pools = {
            "steady": stretch(0, 5, 3.8) + stretch(5, 25, 4.0) + stretch(30, 10, 4.0),
            "burst": stretch(0, 5, 8.0) + stretch(5, 25, 4.0),
        }
        rows = [
            (f"{pool}-{i}", f"{pool}-p{i}", "N", "pika", 2, 0, "{}", pool, "seated",
             now - timedelta(seconds=ago), now - timedelta(seconds=ago) + timedelta(seconds=1))
            for pool, agos in pools.items()
            for i, ago in enumerate(agos)
        ]  # fmt: skip
        async with lobby.service.infra.pool.acquire() as conn:
            await conn.executemany(
                "INSERT INTO lobby.tickets (ticket_id, player_id, nickname, game, players,"
                " stake, options, pool, state, queued_at, closed_at)"
                " VALUES ($1, $2, $3, $4, $5, $6, $7::jsonb, $8, $9, $10, $11)",
                rows,
            )
            histories = {
                pool: await queue_store.pool_history(conn, pool, now=now, policy=policy)
                for pool in pools
            }
            read = {
                pool: await queue_store.pool_outlook(
                    conn,
                    pool,
                    now=now,
                    players=2,
                    policy=policy,
                    round_seconds=0.5,
                    history=histories[pool],
                )
                for pool in pools
            }
        assert histories["steady"].count == 7140  # the half hour's, not the 40 minutes'
        steady, burst = read["steady"], read["burst"]
        assert steady is not None and burst is not None
        assert steady.rate == pytest.approx(3.97, abs=0.005)
        assert burst.rate == pytest.approx(8.0, abs=0.02)
        assert steady.target > burst.target


async def test_rate_2_the_matchmaker_reads_a_pools_half_hour_again_every_30_seconds(
    database_url: str, nats_url: str, namespace: str
) -> None:
    """RATE-2: the half hour of history behind a rated pool's steady rate is the dearest
    read of its outlook; the matchmaker keeps it for HISTORY_REFRESH (30 s) and reads it
    again after, so a pool's rounds cost what they did with five minutes of history."""
    async with running_lobby(database_url, nats_url, namespace) as lobby:
        players = [await lobby.register(f"Player{i}") for i in range(8)]
        await tell_ratings(lobby, [(p, STRONG if i < 3 else WEAK) for i, p in enumerate(players)])
        matchmaker = lobby.app.matchmaker
        for player in players[:4]:
            await two_seat_tickets(lobby, player)
            lobby.clock.advance(0.5)
        await matchmaker.run_round()
        ((pool, (read_at, first)),) = matchmaker._histories.items()
        assert read_at == lobby.clock() and first.count == 4
        await two_seat_tickets(lobby, *players[4:6])
        lobby.clock.advance(HISTORY_REFRESH.total_seconds() - 1)
        await matchmaker.run_round()
        assert matchmaker._histories[pool] == (read_at, first)
        await two_seat_tickets(lobby, *players[6:])
        lobby.clock.advance(1)
        await matchmaker.run_round()
        again, history = matchmaker._histories[pool]
        assert again == lobby.clock() and history.count == 8
