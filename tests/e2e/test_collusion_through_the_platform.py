"""Collusion found by the running platform (PCG-3): two accounts from one client
installation queue together for Pika stake tables among honest players and spare each
other (never stacking a +2/+4 on the partner, always on anyone else), one dumping its
stakes to the other (drawing rather than playing). The lobby reads each
finished table's log from the engine, and the moderators' ranking puts the pair first,
with a soft-play signal, while no honest pair shows soft play or ranks near them.

Every table is real: the lobby's queue seats the players, the engine plays their moves
over gRPC, the wallet holds and pays the stakes.
"""

from __future__ import annotations

import asyncio
import random
from collections.abc import AsyncIterator, Callable
from itertools import combinations
from typing import Any

import pytest
from google.protobuf import json_format

from tavolo.cardgames.games.shedding.pika_state import VALUE_OF
from tavolo.servicekit.auth import Role
from tavolo.v1 import common_pb2, engine_pb2, lobby_pb2, wallet_pb2
from tests.integration.engine.helpers import auth
from tests.integration.lobby.harness import PASSWORD, Player, bearer
from tests.integration.lobby.platform import (
    Chooser,
    Platform,
    any_legal,
    play_seat,
    running_platform,
)
from tests.scale import scaled
from tests.waiting import eventually

pytestmark = [pytest.mark.e2e, pytest.mark.load]

INSTALLATION = "x-tavolo-installation"
STAKE = 100
# The pair and one honest player. The coins the one loses to the other are in the facts,
# but a few dozen tables of Pika are too few for them to stand out from a coin toss
# (3 standard deviations need 9 decided tables all one way); the coin-flow signal is
# shown on published results in tests/integration/lobby/test_collusion_signals.py.
RIGGED_TABLES = scaled(12, 16)
HONEST_TABLES = scaled(6, 12)  # three honest players
PENALTIES = frozenset({"+2", "W+4"})
SLOW = frozenset(
    {common_pb2.ACTION_KIND_DRAW, common_pb2.ACTION_KIND_KEEP, common_pb2.ACTION_KIND_TAKE}
)
FAST = frozenset({common_pb2.ACTION_KIND_PLAY, common_pb2.ACTION_KIND_CALL})


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    async with running_platform(database_url, nats_url, namespace) as running:
        yield running


honest = any_legal


def colluder(partner_seat: Callable[[], int], *, dumps: bool) -> Chooser:
    """Stack on whoever plays next unless it is the partner; the one who ``dumps`` draws
    and keeps rather than play, to lose the stake to the partner, who plays to win."""

    def choose(view: engine_pb2.TableView, rng: random.Random) -> common_pb2.Action:
        public = json_format.MessageToDict(view.public)
        step = -1 if public["direction"] == "clockwise" else 1  # Italian: anticlockwise is +1
        next_seat = (view.seat + step) % len(view.seats)
        actions = [a for a in view.legal_actions if a.kind != common_pb2.ACTION_KIND_REORDER]
        stacking = [a for a in actions if any(VALUE_OF.get(c) in PENALTIES for c in a.cards)]
        if next_seat != partner_seat() and stacking:
            return rng.choice(stacking)
        pool = [a for a in actions if a not in stacking] or actions
        wanted = SLOW if dumps else FAST
        return rng.choice([a for a in pool if a.kind in wanted] or pool)

    return choose


async def login(platform: Platform, nickname: str, installation: str) -> Player:
    await platform.register(nickname)
    session = await platform.lobby.Login(
        lobby_pb2.LoginRequest(nickname=nickname, password=PASSWORD),
        metadata=((INSTALLATION, installation),),
    )
    return Player(session, bearer(session.access_token))


async def table(
    platform: Platform, players: list[Player], choosers: dict[str, Chooser], rng: random.Random
) -> str:
    """One Pika stake table of exactly these players, played to its end."""
    watchers = [asyncio.create_task(seated_anew(platform, p)) for p in players]
    await asyncio.sleep(0.2)
    options: dict[str, Any] = {"match_length": "hands:3"}
    request = lobby_pb2.JoinQueueRequest(game="pika", players=len(players), stake=STAKE)
    request.options.update(options)
    for player in players:
        await platform.lobby.JoinQueue(request, metadata=player.metadata)
    seats = await asyncio.gather(*watchers)
    table_id = seats[0].table_id
    assert {s.table_id for s in seats} == {table_id}
    played.add(table_id)
    seat_of.update({p.id: s.seat for p, s in zip(players, seats, strict=True)})
    views = await asyncio.gather(
        *(
            play_seat(platform, table_id, p, random.Random(rng.random()), choose=choosers[p.id])
            for p in players
        )
    )
    assert all(v.status == engine_pb2.TABLE_STATUS_FINISHED for v in views)
    return table_id


seat_of: dict[str, int] = {}
played: set[str] = set()


async def seated_anew(platform: Platform, player: Player) -> Any:
    """The player's next seat at a table not played yet (the lobby's stream may first
    repeat the seat of the table just finished)."""
    stream = platform.lobby.WatchLobby(lobby_pb2.WatchLobbyRequest(), metadata=player.metadata)
    try:
        async with asyncio.timeout(30):
            while True:
                update = await stream.read()
                if update.WhichOneof("update") == "seated" and update.seated.table_id not in played:
                    return update.seated
    finally:
        stream.cancel()


async def conn_count(platform: Platform) -> int:
    """How many finished tables the lobby has made facts of."""
    async with platform.services["lobby"].infra.pool.acquire() as conn:
        found: int = await conn.fetchval(
            "SELECT count(*) FROM lobby.collusion_facts WHERE kind = 'table'"
        )
    return found


async def test_pcg3_a_pair_that_spares_each_other_tops_the_signals_read_from_the_engine(
    platform: Platform,
) -> None:
    operator = await platform.operator()
    a = await login(platform, "Compare", "shared-phone")
    b = await login(platform, "Comare", "shared-phone")
    fair = [await login(platform, f"Onesto{i}", f"phone-{i}") for i in range(6)]
    for player in (a, b, *fair):
        await platform.wallet.Grant(
            wallet_pb2.GrantRequest(
                transfer_id=f"grant-{player.id}", player_id=player.id, amount=5000, reason="t"
            ),
            metadata=operator.metadata,
        )
    choosers: dict[str, Chooser] = {p.id: honest for p in fair}
    choosers[a.id] = colluder(lambda: seat_of[b.id], dumps=True)
    choosers[b.id] = colluder(lambda: seat_of[a.id], dumps=False)
    rng = random.Random(20261201)
    tables = []
    for n in range(RIGGED_TABLES):
        tables.append(await table(platform, [a, b, fair[n % len(fair)]], choosers, rng))
    for trio in list(combinations(fair, 3))[:HONEST_TABLES]:
        tables.append(await table(platform, list(trio), choosers, rng))

    moderator = auth("mod-1", Role.MODERATOR)

    pairs: list[lobby_pb2.CollusionPair] = []

    async def read() -> bool:
        found = await platform.lobby.ListCollusionSignals(
            lobby_pb2.ListCollusionSignalsRequest(), metadata=moderator
        )
        pairs[:] = found.pairs
        # Done once every finished table's log has been read for its turns.
        async with platform.services["lobby"].infra.pool.acquire() as conn:
            queued = await conn.fetchval("SELECT count(*) FROM lobby.conduct_logs_to_read")
        tables_seen = await conn_count(platform)
        return queued == 0 and tables_seen == len(tables)

    await eventually(read, "the lobby to read every finished table's log", within=60)
    for pair in pairs:
        print(f"{pair.score:6.2f} {[(s.kind, round(s.score, 2), s.summary) for s in pair.signals]}")
    top = pairs[0]
    assert sorted(top.player_ids) == sorted([a.id, b.id])
    kinds = {s.kind for s in top.signals}
    assert {"soft_play", "same_installation"} <= kinds, kinds
    soft = next(s for s in top.signals if s.kind == "soft_play")
    assert soft.summary
    honest_ids = {p.id for p in fair}
    for pair in pairs[1:]:
        assert pair.score < top.score / 2
        assert all(s.kind != "soft_play" for s in pair.signals)
        if set(pair.player_ids) <= honest_ids:
            assert {s.kind for s in pair.signals} <= {"together"}
    # Every account connected from loopback, the platform's own address: no pair of the
    # 28 is flagged for sharing it.
    assert all(s.kind != "same_address" for pair in pairs for s in pair.signals)
