"""The event store contract: the PostgreSQL store and its in-memory twin behave alike.

Guarantees 1 (append-only, tamper-evident) and 2 (optimistic concurrency), run against
both implementations through the ``subject`` fixture.
"""

from __future__ import annotations

import asyncio
import dataclasses
import hashlib
import uuid

import grpc
import pytest

from tavolo.eventlog import (
    GENESIS_HASH,
    ConcurrencyError,
    DuplicateEventError,
    NewEvent,
    canonical_bytes,
)
from tavolo.servicekit.errors import Conflict

from .conftest import StoreUnderTest


def events(*types: str, **data: object) -> list[NewEvent]:
    return [NewEvent(t, {"n": i, **data}) for i, t in enumerate(types)]


async def test_new_stream_starts_at_version_1_and_reads_back(subject: StoreUnderTest) -> None:
    store = subject.store
    recorded = await store.append_events("table-1", 0, events("Dealt", "Played", "Drew"))

    assert [e.version for e in recorded] == [1, 2, 3]
    assert [e.type for e in recorded] == ["Dealt", "Played", "Drew"]
    assert [e.position for e in recorded] == [0, 0, 0], "positions come when the log is tailed"
    assert await store.read_stream("table-1") == recorded
    assert await store.read_stream("table-1", from_version=2) == recorded[1:]
    assert await store.stream_version("table-1") == 3
    assert await store.stream_version("table-never") == 0
    assert await store.read_stream("table-never") == []


async def test_append_continues_a_stream_at_the_expected_version(subject: StoreUnderTest) -> None:
    store = subject.store
    await store.append_events("table-1", 0, events("A"))
    more = await store.append_events("table-1", 1, events("B", "C"))
    assert [e.version for e in more] == [2, 3]
    assert [e.type for e in await store.read_stream("table-1")] == ["A", "B", "C"]


async def test_stale_writer_gets_a_conflict_naming_both_versions(subject: StoreUnderTest) -> None:
    store = subject.store
    await store.append_events("table-42", 0, events(*"ABCDEFG"))

    with pytest.raises(ConcurrencyError) as caught:
        await store.append_events("table-42", 6, events("H"))

    assert str(caught.value) == "stream table-42 is at version 7, not 6"
    assert isinstance(caught.value, Conflict)
    assert caught.value.status == grpc.StatusCode.ABORTED
    assert await store.stream_version("table-42") == 7


async def test_writer_ahead_of_the_stream_gets_a_conflict(subject: StoreUnderTest) -> None:
    with pytest.raises(ConcurrencyError, match="stream t is at version 0, not 3"):
        await subject.store.append_events("t", 3, events("A"))
    assert await subject.store.stream_version("t") == 0


async def test_of_racing_writers_exactly_one_wins(subject: StoreUnderTest) -> None:
    store = subject.store
    await store.append_events("table-9", 0, events("Start"))

    results = await asyncio.gather(
        *(store.append_events("table-9", 1, [NewEvent("Move", {"by": n})]) for n in range(8)),
        return_exceptions=True,
    )

    winners = [r for r in results if isinstance(r, list)]
    losers = [r for r in results if isinstance(r, ConcurrencyError)]
    assert len(winners) == 1 and len(losers) == 7
    stream = await store.read_stream("table-9")
    assert [e.type for e in stream] == ["Start", "Move"]
    assert stream[1].data == winners[0][0].data


async def test_retry_of_a_committed_append_returns_what_was_recorded(
    subject: StoreUnderTest,
) -> None:
    store = subject.store
    batch = [NewEvent("Bet", {"coins": 5}, event_id=uuid.uuid4()) for _ in range(2)]
    first = await store.append_events("t", 0, batch)
    head = await store.head_position()

    again = await store.append_events("t", 0, batch)

    assert [dataclasses.replace(e, position=0) for e in again] == first
    assert await store.head_position() == head
    assert await store.stream_version("t") == 2


async def test_same_ids_with_other_contents_are_a_conflict_not_a_retry(
    subject: StoreUnderTest,
) -> None:
    store = subject.store
    event_id = uuid.uuid4()
    await store.append_events("t", 0, [NewEvent("Bet", {"coins": 5}, event_id=event_id)])

    with pytest.raises(ConcurrencyError):
        await store.append_events("t", 0, [NewEvent("Bet", {"coins": 6}, event_id=event_id)])


async def test_an_event_id_names_one_event_only(subject: StoreUnderTest) -> None:
    store = subject.store
    taken = uuid.uuid4()
    await store.append_events("a", 0, [NewEvent("X", {}, event_id=taken)])

    with pytest.raises(DuplicateEventError) as caught:
        await store.append_events(
            "b", 0, [NewEvent("Y", {}, event_id=uuid.uuid4()), NewEvent("Z", {}, event_id=taken)]
        )

    assert str(caught.value) == f"event id {taken} is already recorded as version 1 of stream a"
    assert isinstance(caught.value, Conflict)
    assert await store.stream_version("b") == 0, "the append is all or nothing"
    assert await store.head_position() == 1


@pytest.mark.parametrize(
    ("bad", "message"),
    [
        (NewEvent("X", {"price": 1.5}), "float"),
        (NewEvent("X", {1: "a"}), "keys must be strings"),  # type: ignore[dict-item]
        (NewEvent("X", {"when": object()}), "object"),
        (NewEvent("X", {"big": 2**60}), "outside"),
        (NewEvent("X", {}, metadata={"t": (1, 2)}), "tuple"),
        (NewEvent("", {}), "non-empty type"),
    ],
)
async def test_events_that_cannot_be_encoded_are_refused_whole(
    subject: StoreUnderTest, bad: NewEvent, message: str
) -> None:
    with pytest.raises((TypeError, ValueError), match=message):
        await subject.store.append_events("t", 0, [NewEvent("Fine", {}), bad])
    assert await subject.store.head_position() == 0


async def test_bad_arguments_are_refused(subject: StoreUnderTest) -> None:
    store = subject.store
    same = uuid.uuid4()
    with pytest.raises(ValueError, match="appears twice"):
        await store.append_events("t", 0, [NewEvent("A", {}, same), NewEvent("B", {}, same)])
    with pytest.raises(ValueError, match="0 or more"):
        await store.append_events("t", -1, events("A"))
    with pytest.raises(ValueError, match="stream id"):
        await store.append_events("", 0, events("A"))
    assert await store.append_events("t", 0, []) == []
    assert await store.head_position() == 0


async def test_recorded_events_are_copies_of_what_the_caller_passed(
    subject: StoreUnderTest,
) -> None:
    data = {"hand": ["7H", "QS"]}
    await subject.store.append_events("t", 0, [NewEvent("Dealt", data)])
    data["hand"].append("AS")
    assert (await subject.store.read_stream("t"))[0].data == {"hand": ["7H", "QS"]}


async def test_each_event_chains_onto_the_previous_hash(subject: StoreUnderTest) -> None:
    recorded = await subject.store.append_events("t", 0, events("A", "B"))
    recorded += await subject.store.append_events("t", 2, events("C"))

    prev = GENESIS_HASH
    assert prev == bytes(32)
    for event in recorded:
        body = canonical_bytes(
            stream_id=event.stream_id,
            version=event.version,
            event_id=event.event_id,
            type=event.type,
            data=event.data,
            metadata=event.metadata,
            recorded_at=event.recorded_at,
        )
        assert event.prev_hash == prev
        assert event.hash == hashlib.sha256(prev + body).digest()
        prev = event.hash


async def test_recorded_at_comes_from_the_injected_clock(subject: StoreUnderTest) -> None:
    first = await subject.store.append_events("t", 0, events("A"))
    assert first[0].recorded_at == subject.clock.now
    assert (await subject.store.read_stream("t"))[0].recorded_at == subject.clock.now


async def test_read_all_pages_through_every_stream_in_position_order(
    subject: StoreUnderTest,
) -> None:
    store = subject.store
    await store.append_events("a", 0, events("A1", "A2"))
    await store.append_events("b", 0, events("B1"))
    await store.append_events("a", 2, events("A3"))

    everything = await store.read_all(0, 100)
    assert [e.type for e in everything] == ["A1", "A2", "B1", "A3"]
    assert [e.position for e in everything] == [1, 2, 3, 4]
    assert await store.read_all(1, 2) == everything[1:3]
    assert await store.read_all(4, 10) == []
    assert await store.head_position() == 4
    assert [e.position for e in await store.read_stream("a")] == [1, 2, 4]
    index = await store.read_index(1, 2)
    assert [(i.position, i.stream_id, i.version, i.hash) for i in index] == [
        (e.position, e.stream_id, e.version, e.hash) for e in everything[1:3]
    ]


async def test_positions_stay_gapless_after_rejected_appends(subject: StoreUnderTest) -> None:
    store = subject.store
    await store.append_events("a", 0, events("A"))
    with pytest.raises(ConcurrencyError):
        await store.append_events("a", 0, events("late"))
    await store.append_events("b", 0, events("B"))
    assert [e.position for e in await store.read_all()] == [1, 2]


async def test_an_intact_stream_verifies(subject: StoreUnderTest) -> None:
    await subject.store.append_events("t", 0, events("A", "B", "C"))
    result = await subject.store.verify_stream("t")
    assert result.ok and result.events_checked == 3
    assert (await subject.store.verify_stream("empty")).ok


@pytest.mark.parametrize(
    "change",
    [
        {"data": {"n": 99}},
        {"metadata": {"by": "admin"}},
        {"type": "Cheated"},
    ],
    ids=["data", "metadata", "type"],
)
async def test_a_changed_event_is_named(subject: StoreUnderTest, change: dict[str, object]) -> None:
    recorded = await subject.store.append_events("t", 0, events("A", "B", "C", "D"))
    await subject.tamper.change("t", 3, **change)

    result = await subject.store.verify_stream("t")

    assert not result.ok
    assert result.first_bad_version == 3
    assert result.first_bad_event_id == recorded[2].event_id
    assert "event 3" in str(result) and "was changed" in str(result)


async def test_a_changed_timestamp_is_named(subject: StoreUnderTest) -> None:
    first = await subject.store.append_events("t", 0, events("A"))
    second = await subject.store.append_events("t", 1, events("B"))
    assert first[0].recorded_at != second[0].recorded_at
    await subject.tamper.change("t", 2, recorded_at=first[0].recorded_at)
    result = await subject.store.verify_stream("t")
    assert result.first_bad_version == 2 and "was changed" in str(result)


async def test_a_missing_event_is_named(subject: StoreUnderTest) -> None:
    await subject.store.append_events("t", 0, events("A", "B", "C", "D"))
    await subject.tamper.delete("t", 2)

    result = await subject.store.verify_stream("t")

    assert result.first_bad_version == 2
    assert "version 2 is missing" in str(result)
    assert result.events_checked == 1


async def test_reordered_events_are_named(subject: StoreUnderTest) -> None:
    recorded = await subject.store.append_events("t", 0, events("A", "B", "C", "D"))
    await subject.tamper.swap("t", 2, 3)

    result = await subject.store.verify_stream("t")

    assert result.first_bad_version == 2
    assert result.first_bad_event_id == recorded[2].event_id
    assert "does not follow event 1" in str(result)


async def test_a_forged_event_with_a_recomputed_hash_breaks_the_next_link(
    subject: StoreUnderTest,
) -> None:
    recorded = await subject.store.append_events("t", 0, events("A", "B", "C"))
    forged = recorded[1]
    body = canonical_bytes(
        stream_id="t",
        version=2,
        event_id=forged.event_id,
        type=forged.type,
        data={"n": 1000},
        metadata=forged.metadata,
        recorded_at=forged.recorded_at,
    )
    await subject.tamper.change(
        "t", 2, data={"n": 1000}, hash=hashlib.sha256(forged.prev_hash + body).digest()
    )

    result = await subject.store.verify_stream("t")

    assert result.first_bad_version == 3
    assert "does not follow event 2" in str(result)
