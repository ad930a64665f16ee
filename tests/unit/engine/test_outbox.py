"""The outbox encoding: which table events cross NATS and as which events.proto message."""

from __future__ import annotations

import hashlib

from tavolo.engine.outbox import EngineEncoder
from tavolo.eventlog import InMemoryEventStore
from tavolo.messaging import Topology
from tavolo.tablelog import table as T
from tavolo.v1 import common_pb2, events_pb2
from tests.unit.engine.play import NOW, SEED, pika_setup, play_random, recorded


async def test_opening_and_finishing_cross_nats_and_actions_stay_inside() -> None:
    store, _ = await play_random(pika_setup(3))
    events = await recorded(store)
    topology = Topology("unit")
    encode = EngineEncoder(topology)
    encoded = [encode(e) for e in events]
    assert all(x is None for x in encoded[1:-1])
    subject, payload, _ = encoded[0]  # type: ignore[misc]
    assert subject == topology.subject_for("TableStarted")
    started = events_pb2.TableStarted.FromString(payload)
    assert started.seed_commitment == hashlib.sha256(SEED).hexdigest()
    assert started.mode == common_pb2.MODE_VERSUS_COMPUTER
    subject, payload, _ = encoded[-1]  # type: ignore[misc]
    assert subject == topology.table_finished
    finished = events_pb2.TableFinished.FromString(payload)
    assert finished.seed_hex == SEED.hex()
    assert list(finished.outcome.places) == events[-1].data["outcome"]["places"]
    assert finished.header.version == events[-1].version
    assert finished.header.event_id == str(events[-1].event_id)


async def test_an_aborted_table_crosses_nats_as_table_aborted() -> None:
    store = InMemoryEventStore(clock=lambda: NOW)
    opened = T.open_table(pika_setup(2), SEED, NOW)
    await store.append_events("table-t1", 0, opened.events)
    aborted = T.decide_abort(opened.table, "an operator stopped it", seed=SEED)
    await store.append_events("table-t1", 1, aborted.events)
    last = (await recorded(store))[-1]
    subject, payload, _ = EngineEncoder(Topology("unit"))(last)  # type: ignore[misc]
    assert subject == Topology("unit").table_aborted
    message = events_pb2.TableAborted.FromString(payload)
    assert message.reason == "an operator stopped it"
    assert [s.bot for s in message.seats] == [False, True]
