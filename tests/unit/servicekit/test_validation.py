"""The edge check every request passes: lengths, characters, finite numbers, UUIDs, enums."""

from __future__ import annotations

import math

import pytest
from google.protobuf import struct_pb2
from google.protobuf.descriptor import Descriptor

from tavolo.servicekit.errors import InvalidArgument, quoted
from tavolo.servicekit.interceptors import Undecodable, bounded, check_input
from tavolo.servicekit.request_rules import FIELD_RULES
from tavolo.servicekit.validation import check_request
from tavolo.v1 import common_pb2, engine_pb2, leaderboard_pb2, lobby_pb2, wallet_pb2

ROOM = "0b4e7f1c-3c2a-4d7e-9a51-2f0c6d8e1a7b"


def options(**values: object) -> struct_pb2.Struct:
    struct = struct_pb2.Struct()
    struct.update(values)
    return struct


def refusal(request: object) -> str:
    with pytest.raises(InvalidArgument) as refused:
        check_request(request)  # type: ignore[arg-type]
    message = str(refused.value)
    assert len(message) < 300, message  # never an echo of the input
    return message


@pytest.mark.parametrize(
    "request_",
    [
        lobby_pb2.RegisterRequest(nickname="Giulia", password="giulia-secret"),
        lobby_pb2.InviteRequest(room_id=ROOM, nickname="Marco"),
        lobby_pb2.SendChatRequest(
            channel=lobby_pb2.ChatChannel(room_id=ROOM), text="ciao!\nche carte 😀"
        ),
        lobby_pb2.PlayVersusComputerRequest(
            game="pika", options=options(match_length="points:500", pika_window=2.5), players=4
        ),
        engine_pb2.OpenTableRequest(
            game="spades",
            seats=[common_pb2.Seat(seat=0, player_id="ann", nickname="Ann")],
            options=options(target=300, blind_nil=True),
            turn_seconds=60,
            table_id="fixed-1",
        ),
        engine_pb2.ActRequest(
            table_id="t-42",
            action=common_pb2.Action(kind=common_pb2.ACTION_KIND_PLAY, cards=["R5"]),
            request_id="5f0c0a7e8b2d4c1e",
            seat=2,
        ),
        wallet_pb2.GrantRequest(transfer_id="grant:1", player_id="p1", amount=500, reason="bonus"),
        leaderboard_pb2.GetLeagueRequest(week=leaderboard_pb2.IsoWeek(year=2026, week=23)),
        lobby_pb2.GetProfileRequest(),
    ],
)
def test_requests_the_clients_send_pass(request_: object) -> None:
    check_request(request_)  # type: ignore[arg-type]


def test_a_nul_byte_is_refused_naming_the_field_and_position() -> None:
    message = refusal(lobby_pb2.LoginRequest(nickname="Giu\x00lia", password="x"))
    assert message.startswith("nickname must be one line of printable text")
    assert "U+0000 at position 3" in message


def test_an_id_with_a_nul_or_a_space_is_refused() -> None:
    assert "table_id must be an id" in refusal(engine_pb2.GetTableRequest(table_id="t\x00"))
    assert "player_id must be an id" in refusal(wallet_pb2.GetBalanceRequest(player_id="a b"))


def test_a_megabyte_request_id_is_refused_by_its_length_alone() -> None:
    message = refusal(engine_pb2.ActRequest(table_id="t", request_id="r" * 1_000_000))
    assert message == "request_id is longer than 200 characters (1000000)"


def test_a_nested_field_is_named_by_its_path() -> None:
    seats = [common_pb2.Seat(nickname="Ann"), common_pb2.Seat(nickname="x" * 100_000)]
    message = refusal(engine_pb2.OpenTableRequest(game="pika", seats=seats))
    assert message.startswith("seats[1].nickname is longer than 100 characters")


@pytest.mark.parametrize("value", [math.nan, math.inf, -math.inf])
def test_game_options_must_be_finite(value: float) -> None:
    message = refusal(
        lobby_pb2.PlayVersusComputerRequest(game="pika", options=options(pika_window=value))
    )
    assert message.startswith("options.pika_window must be a finite number")


def test_game_options_nested_deep_or_huge_are_refused() -> None:
    nested = options(a={"b": {"c": {"d": {"e": 1}}}})
    assert "nested deeper" in refusal(engine_pb2.OpenTableRequest(options=nested))
    many = options(**{f"k{i}": i for i in range(101)})
    assert "more than 100 values" in refusal(engine_pb2.OpenTableRequest(options=many))
    key = options(**{"k\x00": 1})
    assert "a key of options must be one line" in refusal(engine_pb2.OpenTableRequest(options=key))
    big = options(target=1e300)
    assert "options.target must be at most" in refusal(engine_pb2.OpenTableRequest(options=big))


def test_lobby_ids_must_be_uuids_and_the_refusal_quotes_a_short_prefix() -> None:
    message = refusal(lobby_pb2.StartRoomRequest(room_id="room-" + "z" * 30))
    assert message.startswith("room_id must be a UUID")
    message = refusal(lobby_pb2.LeaveQueueRequest(ticket_id="t" * 36))
    assert "ticket_id must be a UUID" in message


def test_integers_are_never_negative_and_some_have_a_ceiling() -> None:
    assert refusal(engine_pb2.WatchTableRequest(table_id="t", after_version=-1)) == (
        "after_version must be from 0 to 9007199254740992, not -1"
    )
    message = refusal(engine_pb2.OpenTableRequest(game="pika", turn_seconds=2**31 - 1))
    assert message == "turn_seconds must be from 0 to 86400, not 2147483647"


def test_an_enum_number_nobody_defined_is_refused() -> None:
    request = lobby_pb2.ApplySanctionRequest(player_id="p", kind=999, reason="spam")  # type: ignore[arg-type]
    assert refusal(request) == "kind: 999 is not a SanctionKind this service knows"


def test_a_list_too_long_is_refused_by_its_count() -> None:
    message = refusal(engine_pb2.ReorderHandRequest(table_id="t", cards=["R5"] * 201))
    assert message == "cards has 201 items; at most 200 are allowed"


def test_line_breaks_are_prose_only() -> None:
    check_request(lobby_pb2.ApplySanctionRequest(player_id="p", reason="one\ntwo"))
    assert "nickname must be one line" in refusal(lobby_pb2.InviteRequest(nickname="a\nb"))


def test_every_named_rule_names_a_request_field() -> None:
    """A renamed field must not lose its rule silently to the default."""
    known: set[str] = set()

    def walk(descriptor: Descriptor) -> None:
        for field in descriptor.fields:
            key = f"{descriptor.name}.{field.name}"
            if key not in known:
                known.add(key)
                if field.message_type is not None:
                    walk(field.message_type)

    for module in (lobby_pb2, engine_pb2, wallet_pb2, leaderboard_pb2):
        for service in module.DESCRIPTOR.services_by_name.values():
            for method in service.methods:
                walk(method.input_type)
    assert set(FIELD_RULES) <= known, set(FIELD_RULES) - known


def test_bytes_that_are_no_message_are_an_invalid_argument() -> None:
    with pytest.raises(InvalidArgument) as refused:
        check_input(Undecodable("/tavolo.v1.Engine/Act", "String field had bad UTF-8"))
    assert str(refused.value) == (
        "the request is not a valid message for /tavolo.v1.Engine/Act: String field had bad UTF-8"
    )


def test_quotes_and_status_messages_are_bounded() -> None:
    assert quoted("abc") == "'abc'"
    assert quoted("a\x00b") == "'a\\x00b'"
    long = quoted("x" * 100_000)
    assert len(long) < 80 and long.endswith("(100000 characters)")
    assert bounded("short") == "short"
    cut = bounded("y" * 100_000)
    assert len(cut) <= 1000 and cut.endswith("(100000 chars)")


@pytest.mark.parametrize(
    ("seconds", "nanos"),
    [(1_800_000_000, 2_147_483_647), (10**15, 0), (-1, 0)],
)
def test_a_time_no_datetime_can_hold_is_refused_at_the_edge(seconds: int, nanos: int) -> None:
    request = lobby_pb2.CreateTournamentRequest(game="scopa")
    request.starts_at.seconds, request.starts_at.nanos = seconds, nanos
    assert refusal(request) == (
        f"starts_at is not a time from 1970 to the year 9999 (seconds {seconds}, nanos {nanos})"
    )
    request.starts_at.seconds, request.starts_at.nanos = 1_800_000_000, 999_999_999
    check_request(request)
    request.starts_at.ToDatetime()  # what passes, the servicer can read
