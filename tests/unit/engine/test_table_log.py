"""The table's event stream: commitment, reveal, hash chain and replay (AUDIT-1..3)."""

from __future__ import annotations

import hashlib
import json
from dataclasses import replace

from tavolo.eventlog.verification import event_hash
from tavolo.tablelog import table as T
from tavolo.tablelog.replay import audit_table, table_at, tables_by_version
from tests.unit.engine.play import SEED, pika_setup, play_random, recorded


async def test_audit2_first_event_commits_to_the_seed_and_only_the_last_reveals_it() -> None:
    store, table = await play_random(pika_setup())
    events = await recorded(store)
    assert table.status == T.DONE
    assert events[0].type == T.OPENED
    assert events[0].data["seed_commitment"] == hashlib.sha256(SEED).hexdigest()
    assert events[-1].type == T.FINISHED
    assert events[-1].data["seed"] == SEED.hex()
    for event in events[:-1]:
        text = json.dumps(event.data) + json.dumps(event.metadata)
        assert SEED.hex() not in text, f"event {event.version} leaks the seed"


async def test_audit3_replay_reproduces_every_event_and_the_outcome() -> None:
    store, table = await play_random(pika_setup(3), rng_seed=3)
    events = await recorded(store)
    report = audit_table(events)
    assert report.ok, report.lines()
    assert report.replayed == len(events)
    rebuilt = list(tables_by_version(events, SEED))
    assert rebuilt[-1].outcome == table.outcome
    assert [t.version for t in rebuilt] == list(range(1, len(events) + 1))


async def test_audit1_a_changed_event_breaks_the_chain_at_that_event() -> None:
    store, _ = await play_random(pika_setup())
    events = await recorded(store)
    k = len(events) // 2
    data = dict(events[k - 1].data)
    data["seat"] = (int(data["seat"]) + 1) % 4
    events[k - 1] = replace(events[k - 1], data=data)
    report = audit_table(events)
    assert not report.ok
    assert report.chain.first_bad_version == k


async def test_audit3_a_rechained_forgery_is_caught_by_replay_at_the_first_forged_event() -> None:
    """An insider who rewrites a drawn card and recomputes every hash keeps the chain
    intact, but re-execution with the seed produces the real card: reported at that event."""
    store, _ = await play_random(pika_setup())
    events = await recorded(store)
    k = next(
        e.version for e in events if e.type == T.ACTION and e.data["events"][0]["type"] == "draw"
    )
    forged = list(events)
    rule_events = [dict(x) for x in forged[k - 1].data["events"]]
    rule_events[0]["cards"] = ["W+4"]
    forged[k - 1] = replace(forged[k - 1], data={**forged[k - 1].data, "events": rule_events})
    prev = forged[k - 2].hash
    for i in range(k - 1, len(forged)):
        event = replace(forged[i], prev_hash=prev)
        event = replace(event, hash=event_hash(event, prev))
        forged[i] = event
        prev = event.hash
    report = audit_table(forged)
    assert report.chain.ok
    assert not report.ok
    assert report.divergence is not None and report.divergence.version == k


async def test_audit2_a_seed_that_does_not_match_the_commitment_fails_the_audit() -> None:
    store, _ = await play_random(pika_setup(2))
    events = await recorded(store)
    report = audit_table(events, seed=bytes(32))
    assert report.commitment_ok is False
    assert not report.ok


async def test_audit_of_a_table_in_play_checks_the_chain_and_waits_for_the_seed() -> None:
    store, table = await play_random(pika_setup(), stop_after=5)
    assert table.playing
    report = audit_table(await recorded(store))
    assert report.chain.ok
    assert not report.seed_revealed
    assert not report.ok


async def test_audit4_table_at_rebuilds_what_the_table_was_after_any_event() -> None:
    store, _ = await play_random(pika_setup(), stop_after=12)
    events = await recorded(store)
    for version in (1, 6, 13):
        assert table_at(events, SEED, version).version == version
