"""What the wallet paid a finished tournament, told to the platform (PCG-7).

The wallet alone computes a tournament's prizes (``prizes``), from the fees its escrow
holds; the lobby shows and the leaderboard counts what this fact says, so the prizes
shown, paid and counted are one set of numbers. Appended to the wallet's event log in the
transaction that paid them, on a stream of its own written once (``tournament-<id>-paid``),
and published by the outbox relay as ``TournamentPaid``.
"""

from __future__ import annotations

from dataclasses import dataclass

from tavolo.eventlog import NewEvent, RecordedEvent
from tavolo.v1 import events_pb2
from tavolo.wallet.facts import Prize

TOURNAMENT_PAID = "tournament_paid"
SUBJECT_TYPE = "TournamentPaid"


@dataclass(frozen=True, slots=True)
class TournamentPaid:
    tournament_id: str
    game: str
    pot: int  # what the escrow held and paid out
    prizes: tuple[Prize, ...]  # every entrant, with the coins paid to them

    def stream(self) -> str:
        return f"tournament-{self.tournament_id}-paid"

    def event(self) -> NewEvent:
        data = {
            "tournament_id": self.tournament_id,
            "game": self.game,
            "pot": self.pot,
            "prizes": [[p.seat, p.player_id, p.place, p.coins] for p in self.prizes],
        }
        return NewEvent(TOURNAMENT_PAID, data)


def to_proto(event: RecordedEvent) -> events_pb2.TournamentPaid:
    data = event.data
    return events_pb2.TournamentPaid(
        tournament_id=data["tournament_id"],
        game=data["game"],
        pot=data["pot"],
        prizes=[
            events_pb2.TournamentPrize(seat=seat, player_id=player, place=place, coins=coins)
            for seat, player, place, coins in data["prizes"]
        ],
    )
