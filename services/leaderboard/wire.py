"""``TableFinished`` (events.proto) in and out of the domain's :class:`FinishedTable`.

The leaderboard keeps each event exactly as it arrived (protobuf bytes) and reads it
through here both when it arrives and when the projection is rebuilt, so both paths see
the same facts.
"""

from __future__ import annotations

from datetime import UTC

from google.protobuf.message import DecodeError

from tavolo.leaderboard.model import FinishedTable, Mode, SeatResult, TournamentResult
from tavolo.v1 import common_pb2, events_pb2

_MODES = {
    common_pb2.MODE_VERSUS_COMPUTER: Mode.VERSUS_COMPUTER,
    common_pb2.MODE_VERSUS_FRIENDS: Mode.VERSUS_FRIENDS,
    common_pb2.MODE_ONLINE: Mode.ONLINE,
    common_pb2.MODE_STAKE: Mode.STAKE,
    common_pb2.MODE_TOURNAMENT: Mode.TOURNAMENT,
}
_PROTO_MODES = {mode: number for number, mode in _MODES.items()}
_BOT_LEVELS = {
    common_pb2.BOT_LEVEL_EASY: "easy",
    common_pb2.BOT_LEVEL_MEDIUM: "medium",
    common_pb2.BOT_LEVEL_HARD: "hard",
}
_PROTO_BOT_LEVELS = {name: number for number, name in _BOT_LEVELS.items()}


class MalformedEvent(ValueError):
    """An event that can never be projected (unreadable, or missing what the rules need)."""


def parse_table_finished(payload: bytes) -> FinishedTable:
    """The finished table a ``TableFinished`` payload describes, or MalformedEvent."""
    message = events_pb2.TableFinished()
    try:
        message.ParseFromString(payload)
    except DecodeError as exc:
        raise MalformedEvent(f"not a TableFinished message: {exc}") from None
    return finished_table_from_proto(message)


def finished_table_from_proto(message: events_pb2.TableFinished) -> FinishedTable:
    header = message.header
    where = f"TableFinished {header.event_id or '?'} (table {message.table_id or '?'})"
    if not header.event_id or not message.table_id or not message.game:
        raise MalformedEvent(f"{where} lacks its event id, table id or game")
    if not header.HasField("occurred_at"):
        raise MalformedEvent(f"{where} lacks occurred_at")
    mode = _MODES.get(message.mode)
    if mode is None:
        raise MalformedEvent(f"{where} has no known mode ({message.mode})")
    places = list(message.outcome.places)
    if len(places) != len(message.seats):
        raise MalformedEvent(f"{where} has {len(message.seats)} seats but {len(places)} places")
    seats = []
    for index, seat in enumerate(message.seats):
        place = places[seat.seat] if 0 <= seat.seat < len(places) else 0
        if not 1 <= place <= len(places):
            raise MalformedEvent(f"{where}: seat {seat.seat} (entry {index}) has no valid place")
        seats.append(
            SeatResult(
                seat=seat.seat,
                player_id=seat.player_id,
                bot=seat.bot,
                booster=seat.booster,
                vip=seat.vip,
                place=place,
                bot_level=_BOT_LEVELS.get(seat.bot_level, ""),
            )
        )
    return FinishedTable(
        event_id=header.event_id,
        table_id=message.table_id,
        game=message.game,
        mode=mode,
        bot_filled=message.bot_filled,
        occurred_at=header.occurred_at.ToDatetime(tzinfo=UTC),
        seats=tuple(seats),
    )


def table_finished_to_proto(table: FinishedTable) -> events_pb2.TableFinished:
    """The event a finished table would arrive as (tests, benchmarks, tools)."""
    message = events_pb2.TableFinished(
        table_id=table.table_id,
        game=table.game,
        mode=_PROTO_MODES[table.mode],
        bot_filled=table.bot_filled,
    )
    message.header.event_id = table.event_id
    message.header.stream_id = f"table-{table.table_id}"
    message.header.occurred_at.FromDatetime(table.occurred_at)
    places = [0] * len(table.seats)
    for seat in table.seats:
        places[seat.seat] = seat.place
        message.seats.add(
            seat=seat.seat,
            player_id=seat.player_id,
            bot=seat.bot,
            booster=seat.booster,
            vip=seat.vip,
            bot_level=_PROTO_BOT_LEVELS.get(seat.bot_level, common_pb2.BOT_LEVEL_UNSPECIFIED),
        )
    message.outcome.places.extend(places)
    return message


def parse_tournament_paid(payload: bytes) -> list[TournamentResult]:
    """Every entrant's place and the coins the wallet paid them, from a ``TournamentPaid``
    payload (the prizes counted are the prizes paid), or MalformedEvent."""
    message = events_pb2.TournamentPaid()
    try:
        message.ParseFromString(payload)
    except DecodeError as exc:
        raise MalformedEvent(f"not a TournamentPaid message: {exc}") from None
    if not message.tournament_id or not message.game:
        raise MalformedEvent("a TournamentPaid names its tournament and game")
    return [
        TournamentResult(message.tournament_id, message.game, p.player_id, p.place, p.coins)
        for p in message.prizes
        if p.player_id and p.place > 0
    ]
