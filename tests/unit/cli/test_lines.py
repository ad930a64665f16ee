"""What the client prints about tables and the lobby, and how ``tavolo play`` is asked."""

from __future__ import annotations

import itertools

import pytest

from tavolo.cardgames.bots.base import LEVELS
from tavolo.cardgames.registry import get_game
from tavolo.cli.lobby.watch import describe, seated_line
from tavolo.cli.main import build_parser
from tavolo.cli.play.command import lineup
from tavolo.cli.play.remote import seat_names
from tavolo.cli.play.renderers import RENDERERS, bot_levels, partnerships, sides_line
from tavolo.cli.session import SavedSession
from tavolo.v1 import common_pb2, engine_pb2, lobby_pb2

MARCO = SavedSession("p-marco", "Marco", "access", "refresh")


def test_the_opening_line_names_a_stronger_partner() -> None:
    assert lineup("pika", 4, "medium") == "you against 3 medium bots"
    assert lineup("pika", 2, "easy") == "you against 1 easy bot"
    assert lineup("spades", 4, "medium") == (
        "you and Bot 2 (hard) against Bot 1 (medium) & Bot 3 (medium)"
    )
    assert lineup("spades", 4, "hard") == "you and Bot 2 (hard) against Bot 1 (hard) & Bot 3 (hard)"


PARTNERSHIPS = {
    ("asso", 4): [[0, 2], [1, 3]],
    ("briscola", 4): [[0, 2], [1, 3]],
    ("tresette", 4): [[0, 2], [1, 3]],
    ("scopa", 4): [[0, 2], [1, 3]],
    ("scopone", 4): [[0, 2], [1, 3]],
    ("cirulla", 4): [[0, 2], [1, 3]],
    ("spades", 4): [[0, 2], [1, 3]],
    ("burraco", 4): [[0, 2], [1, 3]],
}


@pytest.mark.parametrize("game", sorted(RENDERERS))
def test_spades_9_every_partnership_is_named_from_the_first_line(game: str) -> None:
    """SPADES-9, MODE-1: in every partnership game the opening line names the partner
    (at the strongest level unless ``--partner`` says otherwise) and the other side; the
    other games say "you against N bots"."""
    counts = get_game(game).seat_counts()
    players = 4 if 4 in counts else counts[-1]
    sides = PARTNERSHIPS.get((game, players))
    assert partnerships(game, players) == (sides or [])
    for level, partner in itertools.product(LEVELS, [None, *LEVELS]):
        line = lineup(game, players, level, partner)
        if players == 1:
            assert line == "you alone"
        elif sides is None:
            assert line == f"you against {players - 1} {level} bot" + "s" * (players > 2)
        else:
            mine = f"Bot 2 ({partner or 'hard'})"
            theirs = f"Bot 1 ({level}) & Bot 3 ({level})"
            assert line == f"you and {mine} against {theirs}"
            assert bot_levels(game, players, level, partner) == {
                1: level,
                2: partner or "hard",
                3: level,
            }


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


def test_a_seat_anywhere_reads_its_side_first() -> None:
    """At a room's table the player may sit at any seat: their side comes first."""
    names = ["Giulia", "You", "Marco", "Bot 3 (easy)"]
    assert sides_line([[0, 2], [1, 3]], names, 1) == "you and Bot 3 (easy) against Giulia & Marco"
    mine = ["You", "Bot 1 (easy)", "Marco", "Bot 3 (easy)"]
    assert sides_line([[0, 2], [1, 3]], mine, 0) == (
        "you and Marco against Bot 1 (easy) & Bot 3 (easy)"
    )
