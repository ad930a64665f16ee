"""Rooms and invitations (MODE-2): who may invite, answer and start, and the seating."""

from __future__ import annotations

from datetime import UTC, datetime, timedelta

import pytest

from tavolo.lobby.play.rooms import (
    Invitation,
    InvitationState,
    Room,
    check_invite,
    check_response,
    plan_start,
)
from tavolo.lobby.play.tables import BotLevel, TableSpec
from tavolo.servicekit.errors import (
    AlreadyExists,
    FailedPrecondition,
    NotFound,
    PermissionDenied,
)

T0 = datetime(2026, 5, 1, tzinfo=UTC)
SPEC = TableSpec("pika", 4, {"players": 4})


def invitation(player: str, state: InvitationState, minute: int = 0) -> Invitation:
    responded = None if state is InvitationState.PENDING else T0 + timedelta(minutes=minute)
    return Invitation("r1", player, player.upper(), state, T0, responded)


def room(*invitations: Invitation, table_id: str | None = None) -> Room:
    return Room("r1", "host", "HOST", SPEC, T0, tuple(invitations), table_id)


def test_mode_2_only_the_host_invites() -> None:
    with pytest.raises(PermissionDenied, match="only the room's host"):
        check_invite(room(), "stranger", "bob", "BOB")


def test_mode_2_nobody_is_invited_twice_but_a_decline_can_be_renewed() -> None:
    with pytest.raises(AlreadyExists, match="already invited"):
        check_invite(room(invitation("bob", InvitationState.PENDING)), "host", "bob", "BOB")
    check_invite(room(invitation("bob", InvitationState.DECLINED)), "host", "bob", "BOB")


def test_mode_2_a_full_room_takes_no_more_invitations() -> None:
    full = room(*(invitation(p, InvitationState.ACCEPTED) for p in ("a", "b", "c")))
    with pytest.raises(FailedPrecondition, match="every seat"):
        check_invite(full, "host", "d", "D")


def test_mode_2_answers() -> None:
    with pytest.raises(NotFound, match="no invitation"):
        check_response(room(), "bob", True)
    answered = room(invitation("bob", InvitationState.DECLINED))
    with pytest.raises(FailedPrecondition, match="already declined"):
        check_response(answered, "bob", True)
    pending = room(invitation("bob", InvitationState.PENDING))
    assert check_response(pending, "bob", True).player_id == "bob"


def test_mode_2_a_started_room_changes_no_more() -> None:
    started = room(invitation("bob", InvitationState.PENDING), table_id="t1")
    with pytest.raises(FailedPrecondition, match="has started"):
        check_response(started, "bob", True)


def test_mode_2_seats_are_host_then_friends_in_acceptance_order_then_bots() -> None:
    friends = room(
        invitation("late", InvitationState.ACCEPTED, minute=5),
        invitation("early", InvitationState.ACCEPTED, minute=1),
        invitation("maybe", InvitationState.PENDING),
    )
    seats = plan_start(friends, "host", fill_with_bots=True, level=BotLevel.HARD)
    assert [(s.seat, s.player_id) for s in seats] == [
        (0, "host"),
        (1, "early"),
        (2, "late"),
        (3, None),
    ]
    assert seats[3].bot_level is BotLevel.HARD


def test_mode_2_empty_seats_need_the_hosts_consent_to_bots() -> None:
    one_friend = room(invitation("bob", InvitationState.ACCEPTED))
    with pytest.raises(FailedPrecondition, match="2 of 4 seats"):
        plan_start(one_friend, "host", fill_with_bots=False, level=BotLevel.EASY)


def test_mode_2_a_room_needs_a_friend_to_start() -> None:
    with pytest.raises(FailedPrecondition, match="at least one friend"):
        plan_start(room(), "host", fill_with_bots=True, level=BotLevel.EASY)


def test_mode_2_only_the_host_starts() -> None:
    with pytest.raises(PermissionDenied):
        plan_start(room(invitation("bob", InvitationState.ACCEPTED)), "bob", True, BotLevel.EASY)
