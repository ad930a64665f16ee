"""Table setup checks, timers, per-seat views and protobuf conversion."""

from __future__ import annotations

from collections import Counter
from dataclasses import replace
from datetime import timedelta

import pytest
from google.protobuf import struct_pb2

from tavolo.cardgames import Action, ActionKind
from tavolo.servicekit.errors import InvalidArgument
from tavolo.tablelog import table as T
from tavolo.tablelog.convert import action_from_proto, action_to_proto, struct_to_dict
from tavolo.tablelog.setup import SeatInfo, build_setup, split_engine_options
from tavolo.tablelog.views import seat_view
from tavolo.v1 import common_pb2
from tests.unit.engine.play import NOW, SEED, pika_setup, play_random


def _setup(**changes: object) -> dict[str, object]:
    base: dict[str, object] = {
        "table_id": "t1",
        "game": "pika",
        "options": {},
        "seats": [SeatInfo(0, "a"), SeatInfo(1, "b")],
        "mode": "versus_friends",
    }
    base.update(changes)
    return base


@pytest.mark.parametrize(
    ("changes", "message"),
    [
        ({"game": "chess"}, "unknown game"),
        ({"mode": "casino"}, "mode must be one of"),
        ({"seats": [SeatInfo(0, "a")]}, "2 to 4 players"),
        ({"seats": [SeatInfo(0, "a"), SeatInfo(2, "b")]}, "numbered 0 to 1"),
        ({"seats": [SeatInfo(0, "a"), SeatInfo(1, "a")]}, "only one seat"),
        ({"seats": [SeatInfo(0, "a"), SeatInfo(1)]}, "needs a player id"),
        ({"seats": [SeatInfo(0, "a"), SeatInfo(1, bot=True)]}, "a bot needs a level"),
        ({"mode": "stake", "stake": 7}, "stake is one of"),
        (
            {
                "mode": "stake",
                "stake": 100,
                "seats": [SeatInfo(0, "a"), SeatInfo(1, bot=True, bot_level="easy")],
            },
            "only with real people",
        ),
        ({"stake": 100}, "only stake tables"),
        ({"turn_seconds": -1}, "turn_seconds"),
        ({"options": {"pika_window": 2.5}}, "whole number"),
        ({"table_id": "no spaces please"}, "table id"),
    ],
)
def test_setup_refusals_say_what_to_change(changes: dict[str, object], message: str) -> None:
    with pytest.raises(InvalidArgument, match=message):
        build_setup(**_setup(**changes))  # type: ignore[arg-type]


def test_engine_options_travel_among_match_options_and_default_otherwise() -> None:
    options, turn, think = split_engine_options({"pika_window": 3, "turn_seconds": 20})
    assert options == {"pika_window": 3}
    assert (turn, think) == (20, 800)


def test_turn_timer_runs_only_with_a_turn_limit_and_keeps_its_due_time() -> None:
    untimed = T.open_table(pika_setup(turn_seconds=0), SEED, NOW).table
    assert [d for d in untimed.deadlines if d.kind == "turn"] == []
    timed = T.open_table(pika_setup(turn_seconds=30), SEED, NOW).table
    (turn,) = [d for d in timed.deadlines if d.kind == "turn"]
    assert turn.due == NOW + timedelta(seconds=30)
    later = NOW + timedelta(seconds=5)
    again = T.running_deadlines(timed, timed.deadlines, later)
    assert again == timed.deadlines


def test_pika8_call_window_deadline_uses_the_rules_duration() -> None:
    table = T.open_table(pika_setup(turn_seconds=0), SEED, NOW).table
    st = table.state.copy()
    seat = st.turn
    st.discard = (*st.discard[:-1], "R5")
    st.colour = "R"
    st.stack = 0
    st.set_hand(seat, ("R1", "B9"))
    table = replace(table, state=st)
    play = Action(ActionKind.PLAY, cards=("R1",))
    decision = T.decide_action(table, seat, play, by=T.BY_PLAYER, seed=SEED, now=NOW)
    calls = [d for d in decision.table.deadlines if d.kind == "call"]
    assert [(d.seat, d.due) for d in calls] == [(seat, NOW + timedelta(seconds=3))]


async def test_a_seat_view_shows_its_own_hand_and_legal_actions_only() -> None:
    _, table = await play_random(pika_setup(), stop_after=9)
    for seat in range(4):
        view = seat_view(table, seat)
        assert view.hand == table.state.hands[seat]
        hidden = Counter(table.game.hidden_cards(table.state, seat))
        others = Counter(c for s, h in enumerate(table.state.hands) if s != seat for c in h)
        assert others <= hidden
        expected = tuple(table.game.legal_actions(table.state, seat))
        assert view.legal_actions == expected
    spectator = seat_view(table, None)
    assert spectator.hand == () and spectator.legal_actions == ()


def test_every_pika_action_survives_the_wire_both_ways() -> None:
    table = T.open_table(pika_setup(), SEED, NOW).table
    seat = sorted(table.game.to_act(table.state))[0]
    actions = [
        *table.game.legal_actions(table.state, seat),
        Action(ActionKind.REORDER, cards=table.state.hands[seat]),
        Action(ActionKind.CALL, call="pika"),
        Action(ActionKind.PLAY, cards=("W",), colour="blue", call="pika"),
    ]
    for action in actions:
        assert action_from_proto(action_to_proto(action)) == action


def test_an_action_without_a_kind_is_invalid() -> None:
    with pytest.raises(InvalidArgument, match="needs a kind"):
        action_from_proto(common_pb2.Action())


def test_struct_numbers_come_back_as_whole_numbers() -> None:
    message = struct_pb2.Struct()
    message.update({"players": 4, "nested": {"n": [1, 2]}})
    assert struct_to_dict(message, "options") == {"players": 4, "nested": {"n": [1, 2]}}
