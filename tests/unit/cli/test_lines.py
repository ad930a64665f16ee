"""What the client prints about tables and the lobby, and how ``tavolo play`` is asked."""

from __future__ import annotations

from tavolo.cli.lobby.watch import describe, seated_line
from tavolo.cli.main import build_parser
from tavolo.cli.play.command import lineup
from tavolo.cli.play.remote import seat_names
from tavolo.cli.session import SavedSession
from tavolo.v1 import common_pb2, engine_pb2, lobby_pb2

MARCO = SavedSession("p-marco", "Marco", "access", "refresh")


def test_the_opening_line_names_a_stronger_partner() -> None:
    assert lineup("pika", 4, "medium") == "you against 3 medium bots"
    assert lineup("pika", 2, "easy") == "you against 1 easy bot"
    assert lineup("spades", 4, "medium") == "you and Bot 2 (hard) against 2 medium bots"
    assert lineup("spades", 4, "hard") == "you against 3 hard bots"


def test_seats_are_named_from_the_callers_view() -> None:
    view = engine_pb2.TableView(
        seat=1,
        seats=[
            common_pb2.Seat(seat=2, bot=True, bot_level=common_pb2.BOT_LEVEL_HARD),
            common_pb2.Seat(seat=0, player_id="p-giulia", nickname="Giulia"),
            common_pb2.Seat(seat=1, player_id="p-marco", nickname="Marco"),
        ],
    )
    assert seat_names(view) == ["Giulia", "You", "Bot 2 (hard)"]


def test_pcg_7_a_bot_playing_for_an_absent_entrant_is_named_as_their_stand_in() -> None:
    view = engine_pb2.TableView(
        seat=0,
        seats=[
            common_pb2.Seat(seat=0, player_id="p-anna", nickname="Anna"),
            common_pb2.Seat(seat=1, bot=True, nickname="Carla (bot)"),
            common_pb2.Seat(seat=2, bot=True, nickname="Bot 3"),
        ],
    )
    assert seat_names(view) == ["You", "Carla (bot)", "Bot 2 (bot)"]


def test_lobby_updates_say_what_to_type_next() -> None:
    invited = lobby_pb2.LobbyUpdate(
        invitation=lobby_pb2.Invitation(
            room_id="R1",
            player_id="p-marco",
            nickname="Marco",
            state=lobby_pb2.INVITATION_STATE_PENDING,
            host_nickname="Giulia",
            game="pika",
        )
    )
    assert describe(invited, MARCO).startswith(
        "Giulia invites you to play pika: `tavolo room accept R1 --as Marco`"
    )
    seat = lobby_pb2.TableAssignment(table_id="T1", seat=1, game="pika")
    assert describe(lobby_pb2.LobbyUpdate(seated=seat), MARCO) == seated_line(seat, "Marco")
    assert seated_line(seat, "Marco") == (
        "table T1: you are seat 1; play it with `tavolo play pika --server --table T1 --as Marco`"
    )


def test_play_takes_a_table_and_a_login() -> None:
    args = build_parser().parse_args(["play", "pika", "--server", "--table", "T1", "--as", "Marco"])
    assert (args.table, args.as_nick) == ("T1", "Marco") and args.server
    offline = build_parser().parse_args(["play", "pika"])
    assert offline.server is None and offline.table is None and offline.as_nick is None
