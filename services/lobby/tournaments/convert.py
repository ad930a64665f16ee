"""Tournaments between the pure model and protobuf (PCG-7): requests in, ``Tournament`` out."""

from __future__ import annotations

from datetime import datetime

from google.protobuf import timestamp_pb2

from tavolo.lobby.convert import options_in, options_out
from tavolo.lobby.tournaments.app import NewTournament
from tavolo.lobby.tournaments.stream import CANCELLED, FINISHED, PLAYING, REGISTERING, Tournament
from tavolo.servicekit.timestamps import time_field
from tavolo.v1 import lobby_pb2

STATUS = {
    REGISTERING: lobby_pb2.TOURNAMENT_STATUS_REGISTERING,
    PLAYING: lobby_pb2.TOURNAMENT_STATUS_PLAYING,
    FINISHED: lobby_pb2.TOURNAMENT_STATUS_FINISHED,
    CANCELLED: lobby_pb2.TOURNAMENT_STATUS_CANCELLED,
}
NO_SHOW_IN = {
    lobby_pb2.NO_SHOW_UNSPECIFIED: "",
    lobby_pb2.NO_SHOW_BOT: "bot",
    lobby_pb2.NO_SHOW_FORFEIT: "forfeit",
}
NO_SHOW_OUT = {"bot": lobby_pb2.NO_SHOW_BOT, "forfeit": lobby_pb2.NO_SHOW_FORFEIT}


def new_tournament(request: lobby_pb2.CreateTournamentRequest) -> NewTournament:
    return NewTournament(
        game=request.game,
        options=options_in(request),
        max_entrants=request.max_entrants,
        opens_at=time_field(request, "opens_at"),
        starts_at=time_field(request, "starts_at"),
        fee=request.fee,
        split=list(request.split),
        no_show=NO_SHOW_IN.get(request.no_show, "?"),
        show_seconds=request.show_seconds,
    )


def tournament(t: Tournament) -> lobby_pb2.Tournament:
    spec = t.spec
    options = options_out(dict(spec.options))
    out = lobby_pb2.Tournament(
        tournament_id=t.tournament_id,
        game=spec.game,
        options=options,
        status=STATUS[t.status],
        max_entrants=spec.max_entrants,
        opens_at=_stamp(spec.opens_at),
        starts_at=_stamp(spec.starts_at),
        fee=spec.fee,
        split=list(spec.split),
        no_show=NO_SHOW_OUT[spec.no_show],
        show_seconds=spec.show_seconds,
        seed_commitment=t.commitment,
        seed_hex=t.seed_hex,
        pot=spec.fee * len(t.entrants) if t.status != CANCELLED else 0,
        version=t.version,
        cancel_reason=t.cancel_reason,
        champion=(t.bracket.champion or "") if t.bracket else "",
    )
    for player in t.entrants:
        out.entrants.append(
            lobby_pb2.TournamentEntrant(
                player_id=player,
                nickname=t.names.get(player, player),
                place=t.places.get(player, 0),
                prize=t.paid.get(player, 0),
            )
        )
    if t.bracket is None:
        return out
    for number, matches in enumerate(t.bracket.rounds):
        row = lobby_pb2.TournamentRound(round=number)
        for m in matches:
            slot = (m.round, m.index)
            row.matches.append(
                lobby_pb2.TournamentMatch(
                    round=m.round,
                    index=m.index,
                    a=m.a or "",
                    b=m.b or "",
                    a_nickname=t.names.get(m.a, m.a) if m.a else "",
                    b_nickname=t.names.get(m.b, m.b) if m.b else "",
                    winner=m.winner or "",
                    table_id=t.table_of(*slot) or "",
                    how=t.how.get(slot, ""),
                    bots=list(t.bots.get(slot, ())),
                )
            )
        out.rounds.append(row)
    return out


def _stamp(at: datetime) -> timestamp_pb2.Timestamp:
    stamp = timestamp_pb2.Timestamp()
    stamp.FromDatetime(at)
    return stamp
