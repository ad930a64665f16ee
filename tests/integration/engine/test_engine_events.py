"""The engine on NATS: MatchFormed opens a table (once); TableStarted and TableFinished
leave through the outbox relay with everything the other services need (AUDIT-2)."""

from __future__ import annotations

import asyncio
import hashlib
import random
import uuid

import nats
from google.protobuf import struct_pb2

from tavolo.messaging import Topology, publish_with_id
from tavolo.servicekit.auth import Role
from tavolo.servicekit.runtime import RunningService
from tavolo.servicekit.settings import Settings
from tavolo.v1 import common_pb2, engine_pb2, engine_pb2_grpc, events_pb2
from tests.integration.engine.helpers import auth, human, open_request, play_seat


async def _collect(js: object, subject: str, count: int, wait: float = 30) -> list[bytes]:
    sub = await js.pull_subscribe(subject, durable=None)  # type: ignore[attr-defined]
    found: list[bytes] = []
    loop = asyncio.get_running_loop()
    deadline = loop.time() + wait
    while len(found) < count and loop.time() < deadline:
        try:
            messages = await sub.fetch(count - len(found), timeout=1)
        except nats.errors.TimeoutError:
            continue
        for message in messages:
            await message.ack()
            found.append(message.data)
    return found


async def test_a_played_table_publishes_table_started_and_table_finished(
    engine: RunningService, stub: engine_pb2_grpc.EngineStub, engine_settings: Settings
) -> None:
    players = ["pia", "quinn"]
    opened = await stub.OpenTable(
        open_request([human(s, p) for s, p in enumerate(players)]),
        metadata=auth("ops", Role.OPERATOR),
    )
    await asyncio.wait_for(
        asyncio.gather(
            *(play_seat(stub, opened.table_id, p, random.Random(i)) for i, p in enumerate(players))
        ),
        timeout=120,
    )
    topology = Topology(engine_settings.namespace)
    nc = await nats.connect(engine_settings.nats_url)
    try:
        js = nc.jetstream()
        (started_raw,) = await _collect(js, topology.subject_for("TableStarted"), 1)
        (finished_raw,) = await _collect(js, topology.table_finished, 1)
    finally:
        await nc.close()
    started = events_pb2.TableStarted.FromString(started_raw)
    finished = events_pb2.TableFinished.FromString(finished_raw)
    assert started.table_id == finished.table_id == opened.table_id
    assert started.seed_commitment == opened.seed_commitment
    assert hashlib.sha256(bytes.fromhex(finished.seed_hex)).hexdigest() == started.seed_commitment
    assert [s.player_id for s in finished.seats] == players
    assert sorted(finished.outcome.places)[0] == 1
    assert finished.mode == common_pb2.MODE_VERSUS_FRIENDS
    assert finished.header.stream_id == f"table-{opened.table_id}"


async def test_match_formed_opens_its_table_once(
    engine: RunningService, stub: engine_pb2_grpc.EngineStub, engine_settings: Settings
) -> None:
    topology = Topology(engine_settings.namespace)
    match_id = uuid.uuid4().hex
    options = struct_pb2.Struct()
    options.update({"turn_seconds": 45, "pika_window": 2})
    formed = events_pb2.MatchFormed(
        header=events_pb2.EventHeader(event_id=str(uuid.uuid4()), stream_id=f"match-{match_id}"),
        match_id=match_id,
        game="pika",
        mode=common_pb2.MODE_ONLINE,
        options=options,
        seats=[
            human(0, "uma"),
            human(1, "vic"),
            common_pb2.Seat(seat=2, bot=True, bot_level=common_pb2.BOT_LEVEL_HARD),
        ],
        bot_filled=True,
    )
    nc = await nats.connect(engine_settings.nats_url)
    try:
        js = nc.jetstream()
        # The same fact twice, as a redelivery or a second publisher would send it.
        for _ in range(2):
            await publish_with_id(
                js, topology.match_formed, formed.SerializeToString(), msg_id=str(uuid.uuid4())
            )
        view = None
        for _ in range(80):
            try:
                view = await stub.GetTable(
                    engine_pb2.GetTableRequest(table_id=match_id), metadata=auth("uma")
                )
                break
            except Exception:
                await asyncio.sleep(0.25)
        assert view is not None, "the MatchFormed table never opened"
        assert view.seats[2].bot and view.seats[0].player_id == "uma"
        # The engine settings among the match's options: a 45-second turn timer runs.
        (turn,) = [d for d in view.deadlines if d.kind == "turn"]
        assert turn.seat == view.to_act[0]
        await asyncio.sleep(1.0)  # let the second delivery be handled
        log = await stub.GetTableLog(
            engine_pb2.GetTableLogRequest(table_id=match_id), metadata=auth("a", Role.AUDITOR)
        )
        opened_events = [e for e in log.events if e.type == "table_opened"]
        assert len(opened_events) == 1
        assert opened_events[0].data["turn_seconds"] == 45
        assert opened_events[0].data["bot_filled"] is True
        started = await _collect(js, topology.subject_for("TableStarted"), 2, wait=3)
        assert len(started) == 1
    finally:
        await nc.close()
