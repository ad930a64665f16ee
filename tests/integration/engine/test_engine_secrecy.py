"""DESIGN guarantee 5: no message to a seat carries another seat's hidden cards, the deck
order or the seed — over 1,000 bot games through the use cases on real PostgreSQL, and
games over real gRPC whose Act replies are checked too."""

from __future__ import annotations

import asyncio
import os
import random
import uuid

import pytest

from tavolo.servicekit.auth import Principal, Role
from tavolo.tablelog.convert import ViewEncoder, recorded_from_proto, view_to_proto
from tavolo.tablelog.replay import revealed_seed, tables_by_version
from tavolo.tablelog.setup import SeatInfo, build_setup
from tavolo.tablelog.table import Table, open_table
from tavolo.tablelog.views import seat_view
from tavolo.v1 import engine_pb2, engine_pb2_grpc
from tests.integration.engine.helpers import auth, engine_parts, human, open_request, play_seat
from tests.integration.engine.secrecy import SeatChecker
from tests.scale import scaled
from tests.unit.engine.play import NOW, SEED, pika_setup

GAMES = int(os.environ.get("TAVOLO_ENGINE_SECRECY_GAMES", str(scaled(1000, 5000))))
CONCURRENT = 32


def test_the_checker_catches_a_leaked_hand() -> None:
    """The checker can fail: a view of seat 0 carrying seat 1's hand is flagged."""

    table: Table = open_table(pika_setup(), SEED, NOW).table
    honest = view_to_proto(seat_view(table, 0))
    assert SeatChecker(0, SEED).check(honest, [table]) == []
    leaky = view_to_proto(seat_view(table, 0))
    leaky.private.update({"peek": list(table.state.hands[1])})
    leaky.public.update({"next_cards": list(table.state.stock[:5])})
    problems = SeatChecker(0, SEED).check(leaky, [table])
    assert problems, "a leaked hand went unnoticed"


@pytest.mark.load
async def test_guarantee5_one_thousand_bot_games_never_show_a_seat_what_it_may_not_see(
    database_url: str,
) -> None:
    async with engine_parts(database_url, pool_size=16) as parts:
        app = parts.engine.app
        slots = asyncio.Semaphore(CONCURRENT)
        totals = {"games": 0, "messages": 0}
        encoder = ViewEncoder()

        async def one_game(i: int) -> None:
            async with slots:
                players = 2 + i % 3
                table_id = f"s{i}-{uuid.uuid4().hex[:8]}"
                seats = [
                    SeatInfo(
                        s,
                        player_id=f"{table_id}-p{s}",
                        bot=True,
                        bot_level=("medium", "hard", "easy")[(i + s) % 3],
                    )
                    for s in range(players)
                ]
                setup = build_setup(
                    table_id=table_id, game="pika", options={}, seats=seats, mode="versus_friends"
                )
                received: list[list[engine_pb2.TableView]] = [[] for _ in range(players)]

                async def watch(seat: int) -> None:
                    who = Principal(f"{table_id}-p{seat}", frozenset({Role.PLAYER}))
                    async for view in app.watch(who, table_id, 0):
                        received[seat].append(encoder.encode(view))

                await app.open_setup(setup)
                await asyncio.wait_for(
                    asyncio.gather(*(watch(s) for s in range(players))), timeout=120
                )
                events = await parts.engine.store.read_events(table_id)
                seed = revealed_seed(events)
                assert seed is not None
                tables = list(tables_by_version(events, seed))
                for seat in range(players):
                    versions = [m.version for m in received[seat]]
                    # Watching from 0 starts at the current view (the bots may have moved).
                    assert versions == list(range(versions[0], len(events) + 1)), (
                        "a watcher missed a view"
                    )
                    checker = SeatChecker(seat, seed)
                    for message in received[seat]:
                        assert checker.check(message, tables) == []
                totals["games"] += 1
                totals["messages"] += sum(len(r) for r in received)

        await asyncio.gather(*(one_game(i) for i in range(GAMES)))
        assert totals["games"] == GAMES
        print(f"{GAMES} games, {totals['messages']} messages checked")


async def test_guarantee5_watch_messages_and_act_replies_over_grpc(
    stub: engine_pb2_grpc.EngineStub,
) -> None:
    for game in range(4):
        players = [f"g{game}p{s}-{uuid.uuid4().hex[:6]}" for s in range(2 + game % 3)]
        opened = await stub.OpenTable(
            open_request([human(s, p) for s, p in enumerate(players)]),
            metadata=auth("op", Role.OPERATOR),
        )
        received: dict[int, list[engine_pb2.TableView]] = {s: [] for s in range(len(players))}
        await asyncio.wait_for(
            asyncio.gather(
                *(
                    play_seat(stub, opened.table_id, players[s], random.Random(s), received[s])
                    for s in received
                )
            ),
            timeout=120,
        )
        log = await stub.GetTableLog(
            engine_pb2.GetTableLogRequest(table_id=opened.table_id),
            metadata=auth("aud", Role.AUDITOR),
        )
        events = [recorded_from_proto(e) for e in log.events]
        seed = revealed_seed(events)
        assert seed is not None
        tables = list(tables_by_version(events, seed))
        for seat, messages in received.items():
            checker = SeatChecker(seat, seed)
            for message in sorted(messages, key=lambda m: m.version):
                assert checker.check(message, tables) == []
            assert messages[-1].status == engine_pb2.TABLE_STATUS_FINISHED
