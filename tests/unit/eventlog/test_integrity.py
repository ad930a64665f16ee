"""The whole-log checks: every missing position named with its neighbours; the digest a
checkpoint signs changes with any event before it."""

from __future__ import annotations

import pytest

from tavolo.eventlog.checkpoint import Checkpoint, hold_to_checkpoints, public_hex, signing_key
from tavolo.eventlog.integrity import (
    EMPTY_DIGEST,
    IndexColumns,
    IndexEntry,
    digest_at,
    missing_positions,
)
from tavolo.tablelog.convert import index_from_proto, index_to_proto


def _index(*positions: int) -> list[IndexEntry]:
    return [IndexEntry(p, f"table-{p % 2}", p, bytes([p]) * 32) for p in positions]


def test_a_gapless_log_with_its_counter_at_the_last_event_has_no_findings() -> None:
    assert missing_positions(_index(1, 2, 3), 3) == []
    assert missing_positions([], 0) == []


def test_a_deleted_event_in_the_middle_is_named_between_its_neighbours() -> None:
    (finding,) = missing_positions(_index(1, 2, 4), 4)
    assert finding == (
        "position 3 is missing, after table-0 event 2 (position 2) and before table-0"
        " event 4 (position 4): an event was deleted"
    )


def test_deleted_events_at_the_start_and_the_end_show_against_the_counter() -> None:
    findings = missing_positions(_index(3, 4), 6)
    assert findings[0].startswith("positions 1 to 2 are missing, before table-1 event 3")
    assert findings[1] == (
        "positions 5 to 6 are missing, after table-0 event 4 (position 4) and at the end of"
        " the log, whose counter stands at 6: an event was deleted"
    )


def test_the_digest_binds_every_event_up_to_its_position() -> None:
    index = _index(1, 2, 3)
    assert digest_at(index, 0) == EMPTY_DIGEST
    at_two = digest_at(index, 2)
    assert at_two is not None and at_two != digest_at(index, 3)
    altered = [index[0], IndexEntry(2, "table-0", 2, bytes(32)), index[2]]
    assert digest_at(altered, 2) != at_two
    assert digest_at(_index(1, 3), 2) is None


def test_checkpoints_hold_an_untouched_log_and_name_the_range_of_a_rewrite() -> None:
    key = signing_key("11" * 32)
    public = public_hex(key)
    index = _index(1, 2, 3, 4)
    at = "2026-01-01T00:00:00+00:00"
    signed = [
        Checkpoint("engine", p, digest_at(index, p) or b"", at).signed(key) for p in (2, 2, 4)
    ]
    findings, passed, ranges = hold_to_checkpoints(index, signed, public)
    assert findings == [] and len(passed) == 2 and ranges == []

    rewritten = [*index[:2], IndexEntry(3, "table-1", 3, bytes(32)), index[3]]
    findings, passed, ranges = hold_to_checkpoints(rewritten, signed, public)
    assert ranges == [(3, 4)]
    assert findings == [
        f"the engine checkpoint at position 4 signed at {at}: the log up to it no longer"
        " folds to the signed digest: an event between positions 3 and 4 was rewritten"
    ]

    other = public_hex(signing_key("22" * 32))
    findings, _, _ = hold_to_checkpoints(index, signed[:1], other)
    assert findings == [
        f"the engine checkpoint at position 2 signed at {at}: its signature does not verify"
        " with the key given"
    ]
    assert Checkpoint.from_json(signed[0].to_json()) == signed[0]


def test_index_columns_carry_the_same_entries_as_one_object_each() -> None:
    index = _index(1, 2, 4, 9)
    columns = IndexColumns.of(index)
    assert len(columns) == 4 and columns.hashes[32:64] == bytes([2]) * 32
    assert columns.entries() == index
    assert IndexColumns.of([]).entries() == []


def test_index_columns_of_different_lengths_or_short_hashes_are_refused() -> None:
    with pytest.raises(ValueError, match="different lengths"):
        IndexColumns([1, 2], ["a"], [1, 2], bytes(64))
    with pytest.raises(ValueError, match="32 bytes each"):
        IndexColumns([1], ["a"], [1], bytes(31))


@pytest.mark.parametrize("columnar", [True, False])
def test_a_page_of_the_index_crosses_the_wire_unchanged_either_way(columnar: bool) -> None:
    index = _index(3, 4, 7)
    response = index_to_proto(IndexColumns.of(index), 9, columnar)
    assert response.head_position == 9
    assert response.HasField("columns") == columnar
    assert len(response.entries) == (0 if columnar else 3)
    again = type(response).FromString(response.SerializeToString())
    assert index_from_proto(again) == index
