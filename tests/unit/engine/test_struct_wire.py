"""Views are written as a Struct's wire bytes (`tavolo.tablelog.struct_wire`): they must
be exactly the Struct protobuf itself builds from the same JSON, before and after its
caches have seen a value."""

from __future__ import annotations

import random
from typing import Any

from google.protobuf import struct_pb2
from hypothesis import given, settings
from hypothesis import strategies as st

from tavolo.cardgames.registry import all_games
from tavolo.tablelog import struct_wire
from tavolo.tablelog.convert import view_to_proto
from tavolo.tablelog.views import seat_view
from tests.unit.engine.play import pika_setup, play_random

leaves = (
    st.none()
    | st.booleans()
    | st.integers(min_value=-(2**63), max_value=2**63)
    | st.floats(allow_nan=False)
    | st.text(max_size=40)
    | st.sampled_from(["B1", "red", "W+4", "", 0, 1, 1.0, 0.0, -0.0, True, False])
)
json_values = st.recursive(
    leaves,
    lambda inner: st.lists(inner, max_size=6) | st.dictionaries(st.text(max_size=12), inner),
    max_leaves=20,
)
json_objects = st.dictionaries(st.text(max_size=12), json_values, max_size=8)


def protobufs_own(data: dict[str, Any]) -> bytes:
    reference = struct_pb2.Struct()
    reference.update(data)
    return reference.SerializeToString(deterministic=True)


def ours(data: dict[str, Any]) -> bytes:
    return struct_wire.dict_to_struct(data).SerializeToString(deterministic=True)


@settings(max_examples=200)
@given(json_objects, json_objects)
def test_any_json_object_is_the_struct_protobuf_builds(first: Any, second: Any) -> None:
    # the second object meets caches the first one filled, and the first is written again
    for data in (first, second, first):
        assert ours(data) == protobufs_own(data)


def test_values_equal_in_python_but_not_on_the_wire_are_never_confused() -> None:
    twins = [{"x": 1}, {"x": True}, {"x": 1.0}, {"x": 0}, {"x": 0.0}, {"x": -0.0}, {"x": False}]
    for _ in range(2):
        for twin in twins:
            data = {"flat": [twin], "leaf": twin["x"], "nested": {"list": [twin, twin]}}
            assert ours(data) == protobufs_own(data), twin


def test_the_caches_stay_bounded() -> None:
    for n in range(3 * struct_wire.KEPT):
        struct_wire.struct_bytes({f"k{n}": [f"v{n}", n, {"n": n}]})
    assert len(struct_wire._leaves) <= struct_wire.KEPT
    assert len(struct_wire._flat) <= struct_wire.KEPT
    assert len(struct_wire._items) <= struct_wire.KEPT
    assert len(struct_wire._keys) <= struct_wire.KEPT


def test_every_games_views_along_random_games_are_the_struct_protobuf_builds() -> None:
    rng = random.Random(11)
    for name, game in sorted(all_games().items()):
        for seed in (b"wire-1", b"wire-2"):
            players = game.seat_counts()[-1]
            state = game.new_game({}, players, seed)
            for _ in range(60):
                if not game.to_act(state):
                    break
                for seat in [None, *range(players)]:
                    view = game.view(state, seat)
                    for part in (view.public, view.private):
                        assert ours(part) == protobufs_own(part), (name, seat)
                if game.outcome(state) is not None:
                    break
                seat = sorted(game.to_act(state))[0]
                state, _ = game.apply(state, seat, rng.choice(game.legal_actions(state, seat)))


async def test_a_table_view_on_the_wire_carries_the_public_part_protobuf_builds() -> None:
    _, table = await play_random(pika_setup(), stop_after=30)
    view = seat_view(table, 1)
    reference = view_to_proto(view)
    reference.public.Clear()
    reference.public.update(view.public)
    assert view_to_proto(view) == reference
    assert view_to_proto(view, struct_wire.struct_bytes(view.public)) == reference
