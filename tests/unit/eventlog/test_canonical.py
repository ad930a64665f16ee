"""The canonical bytes a hash covers: written out key by key, they must stay exactly the
JSON document the module docstring specifies (an auditor recomputes them elsewhere)."""

from __future__ import annotations

import json
import re
import uuid
from datetime import UTC, datetime, timedelta, timezone

import pytest
from hypothesis import example, given, settings
from hypothesis import strategies as st

from tavolo.eventlog._records import validate_append
from tavolo.eventlog.canonical import (
    MAX_SAFE_INTEGER,
    CanonicalWriter,
    canonical_bytes,
    check_json_safe,
    encode_json,
    encode_string,
    format_timestamp,
)
from tavolo.eventlog.model import NewEvent

texts = st.text(max_size=12)  # any code point: quotes, backslashes, controls, emoji
json_values = st.recursive(
    st.none() | st.booleans() | st.integers(-MAX_SAFE_INTEGER, MAX_SAFE_INTEGER) | texts,
    lambda inner: st.lists(inner, max_size=4) | st.dictionaries(texts, inner, max_size=4),
    max_leaves=12,
)
objects = st.dictionaries(texts, json_values, max_size=5)
moments = st.datetimes(
    min_value=datetime(1970, 1, 1), max_value=datetime(9999, 1, 1), timezones=st.just(UTC)
)


@given(
    stream_id=st.text(min_size=1, max_size=20),
    version=st.integers(1, 2**31 - 1),
    event_id=st.uuids(),
    type=st.text(min_size=1, max_size=20),
    data=objects,
    metadata=objects,
    recorded_at=moments,
)
def test_canonical_bytes_are_the_sorted_compact_document(
    stream_id: str,
    version: int,
    event_id: uuid.UUID,
    type: str,
    data: dict[str, object],
    metadata: dict[str, object],
    recorded_at: datetime,
) -> None:
    document = {
        "data": data,
        "event_id": str(event_id),
        "metadata": metadata,
        "recorded_at": format_timestamp(recorded_at),
        "stream_id": stream_id,
        "type": type,
        "version": version,
    }
    got = canonical_bytes(
        stream_id=stream_id,
        version=version,
        event_id=event_id,
        type=type,
        data=data,
        metadata=metadata,
        recorded_at=recorded_at,
    )
    assert got == encode_json(document).encode()


def test_a_known_event_has_known_bytes() -> None:
    moment = datetime(2026, 3, 1, 12, 0, tzinfo=UTC) + timedelta(microseconds=7)
    got = canonical_bytes(
        stream_id='table-"1"',
        version=3,
        event_id=uuid.UUID("00000000-0000-4000-8000-000000000001"),
        type="CardPlayed",
        data={"z": [True, None], "a": "è\n"},
        metadata={},
        recorded_at=moment,
    )
    expected = (
        '{"data":{"a":"è\\n","z":[true,null]},"event_id":"00000000-0000-4000-8000-000000000001",'
        '"metadata":{},"recorded_at":"2026-03-01T12:00:00.000007Z","stream_id":"table-\\"1\\"",'
        '"type":"CardPlayed","version":3}'
    )
    assert got == expected.encode()


@given(value=json_values)
def test_the_encoder_is_json_dumps_with_the_canonical_options(value: object) -> None:
    """The encoder is made once for speed; it must still be exactly these options."""
    expected = json.dumps(
        value, sort_keys=True, separators=(",", ":"), ensure_ascii=False, allow_nan=False
    )
    assert encode_json(value) == expected
    if isinstance(value, str):
        assert encode_string(value) == expected


@given(moment=moments, hours=st.integers(-14, 14))
def test_a_moment_in_any_zone_is_written_as_its_utc_time(moment: datetime, hours: int) -> None:
    elsewhere = moment.astimezone(timezone(timedelta(hours=hours)))
    assert format_timestamp(elsewhere) == format_timestamp(moment)
    assert format_timestamp(moment).endswith("Z")


def test_a_refused_value_is_named_by_its_event_part_and_path() -> None:
    bad = [NewEvent("Fine", {}), NewEvent("X", {}, metadata={"cards": [1, 2, 1.5]})]
    expected = "event 1 ('X') metadata.cards[2] is the float 1.5: events hold integers only"
    with pytest.raises(TypeError, match=re.escape(expected)):
        validate_append("t", 0, bad)


@given(
    stream_id=st.text(min_size=1, max_size=20),
    recorded_at=moments,
    events=st.lists(
        st.tuples(
            st.integers(1, 2**31 - 1),
            st.uuids(),
            st.sampled_from(["CardPlayed", 'a "quoted"\ntype', "è"]) | st.text(min_size=1),
            objects,
            objects,
        ),
        min_size=1,
        max_size=6,
    ),
)
def test_an_appends_writer_writes_each_events_canonical_bytes(
    stream_id: str,
    recorded_at: datetime,
    events: list[tuple[int, uuid.UUID, str, dict[str, object], dict[str, object]]],
) -> None:
    """The writer of one append's documents (its shared parts written once, each type
    met kept) gives, event after event, exactly `canonical_bytes`."""
    write = CanonicalWriter(stream_id, recorded_at)
    for version, event_id, type, data, metadata in events:
        expected = canonical_bytes(
            stream_id=stream_id,
            version=version,
            event_id=event_id,
            type=type,
            data=data,
            metadata=metadata,
            recorded_at=recorded_at,
        )
        assert write(version, event_id, type, encode_json(data), encode_json(metadata)) == expected


class _Key(str):
    pass


class _Mapping(dict):  # type: ignore[type-arg]
    pass


# Everything a caller might put in an event, the refused included: floats, integers out
# of range, tuples, sets, bytes, non-string keys, and subclasses of str, int, dict, list.
_anything = st.recursive(
    st.none()
    | st.booleans()
    | st.integers(-(2**60), 2**60)
    | st.sampled_from([MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER, MAX_SAFE_INTEGER + 1])
    | st.floats(allow_nan=False)
    | texts
    | texts.map(_Key)
    | st.just(b"raw")
    | st.just(frozenset({1})),
    lambda inner: (
        st.lists(inner, max_size=3)
        | st.lists(inner, max_size=3).map(tuple)
        | st.dictionaries(texts | texts.map(_Key) | st.integers(0, 3), inner, max_size=3)
        | st.dictionaries(texts, inner, max_size=3).map(_Mapping)
    ),
    max_leaves=10,
)


def _first_unsafe_spec(value: object) -> tuple[str, str] | None:
    """The check as first written, one call per value: the fast loops must agree with it."""
    if isinstance(value, (str, bool, type(None))):
        return None
    if isinstance(value, int):
        if abs(value) > MAX_SAFE_INTEGER:
            return "", f"is {value}, outside ±(2**53 - 1): store it as a string"
        return None
    if isinstance(value, dict):
        for key, item in value.items():
            if not isinstance(key, str):
                return "", f"has the key {key!r}: object keys must be strings"
            problem = _first_unsafe_spec(item)
            if problem is not None:
                return f".{key}{problem[0]}", problem[1]
        return None
    if isinstance(value, list):
        for index, item in enumerate(value):
            problem = _first_unsafe_spec(item)
            if problem is not None:
                return f"[{index}]{problem[0]}", problem[1]
        return None
    if isinstance(value, float):
        return "", f"is the float {value!r}: events hold integers only"
    return "", (
        f"is a {type(value).__name__}: events hold only null, booleans, integers,"
        " strings, lists and dicts"
    )


@given(value=_anything)
@example(value={"n": MAX_SAFE_INTEGER + 1})
@example(value=[-MAX_SAFE_INTEGER - 1])
@example(value={"n": [MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER, True, None, "x"]})
@example(value=[{"k": 1.5}])
@example(value={_Key("k"): [(1,)]})
@settings(max_examples=500)
def test_the_safety_check_refuses_exactly_what_it_did_and_names_the_same_place(
    value: object,
) -> None:
    spec = _first_unsafe_spec(value)
    if spec is None:
        check_json_safe(value, "event 0 ('X')", "data")
    else:
        expected = f"event 0 ('X') data{spec[0]} {spec[1]}"
        with pytest.raises(TypeError) as refused:
            check_json_safe(value, "event 0 ('X')", "data")
        assert str(refused.value) == expected
