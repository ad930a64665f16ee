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
from tavolo.tablelog import table as T
from tavolo.tablelog.convert import (
    STATUS_VALUES,
    ViewEncoder,
    action_to_proto,
    deadline_to_proto,
    seat_to_proto,
    view_to_proto,
)
from tavolo.tablelog.views import SeatView, seat_view
from tavolo.v1 import engine_pb2
from tests.unit.engine.play import NOW, SEED, friends_setup

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


def built_field_by_field(view: SeatView) -> engine_pb2.TableView:
    """The view as protobuf builds it from each field, JSON parts through `Struct.update`."""
    message = engine_pb2.TableView(
        table_id=view.table_id,
        game=view.game,
        version=view.version,
        status=STATUS_VALUES[view.status],
        hand=list(view.hand),
        to_act=list(view.to_act),
        legal_actions=[action_to_proto(a) for a in view.legal_actions],
        deadlines=[deadline_to_proto(d) for d in view.deadlines],
        seats=[seat_to_proto(s) for s in view.seats],
        last_event=view.last_event,
        log_hash=view.log_hash,
    )
    for name, part in (
        ("public", view.public),
        ("private", view.private),
        ("options", view.options),
    ):
        getattr(message, name).SetInParent()
        getattr(message, name).update(part)
    if view.seat is not None:
        message.seat = view.seat
    if view.outcome is not None:
        message.outcome.places.extend(view.outcome.places)
        message.outcome.scores.extend(view.outcome.scores)
        message.outcome.detail.update(view.outcome.detail)
    return message


def test_every_view_of_a_table_on_the_wire_is_the_one_protobuf_builds_field_by_field() -> None:
    """Every version to the end, every seat and a spectator, one encoder keeping parts
    between versions; a seat changes hands midway (its player leaves to a bot), so the
    table's shared part must follow."""
    setup = friends_setup(people=("alice", "bob"), bots=2, turn_seconds=30)
    table = T.open_table(setup, SEED, NOW).table
    rng = random.Random(3)
    encoder = ViewEncoder()
    versions = 0
    while True:
        for seat in (None, 0, 1, 2, 3):
            view = seat_view(table, seat)
            reference = built_field_by_field(view)
            assert view_to_proto(view) == reference, (table.version, seat)
            assert encoder.encode(view) == reference, (table.version, seat)
        versions += 1
        if not table.playing:
            break
        if table.version == 12:
            decision = T.decide_leave(table, 0, "medium", seed=SEED)
        else:
            seat = sorted(table.game.to_act(table.state))[0]
            action = rng.choice(table.game.legal_actions(table.state, seat))
            decision = T.decide_action(table, seat, action, by=T.BY_PLAYER, seed=SEED, now=NOW)
        table = decision.table
    assert versions > 20
    assert table.outcome is not None and table.seats[0].bot
