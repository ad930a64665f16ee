"""What one seat sees of a table at one version: the only shape that leaves the engine.

Built in one place from the rules' ``view(state, seat)`` plus the public facts of the table
(whose turn, timers, seats, result) and the seat's own legal actions. Never the state, the
rules' events, the seed or another seat's legal actions (DESIGN guarantee 5). A bot in a
seat is handed exactly this view.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from tavolo.cardgames import Action, Outcome
from tavolo.tablelog.setup import SeatInfo
from tavolo.tablelog.table import Deadline, Table


@dataclass(frozen=True, slots=True)
class SeatView:
    """A seat's view (``seat`` None: a spectator or auditor, who sees public facts only)."""

    table_id: str
    game: str
    version: int
    status: str
    seat: int | None
    hand: tuple[str, ...]
    public: Mapping[str, Any]
    private: Mapping[str, Any]
    to_act: tuple[int, ...]
    legal_actions: tuple[Action, ...]
    deadlines: tuple[Deadline, ...]
    seats: tuple[SeatInfo, ...]
    outcome: Outcome | None
    last_event: str
    options: Mapping[str, Any]
    log_hash: str = ""
    """Once the table has ended, the hash of its log's last event (the seat's receipt)."""


def seat_view(table: Table, seat: int | None) -> SeatView:
    """``seat``'s view of ``table``; legal actions only for that seat, only while playing."""
    view = table.game.view(table.state, seat)
    legal: tuple[Action, ...] = ()
    if seat is not None and table.playing:
        legal = tuple(table.game.legal_actions(table.state, seat))
    to_act = tuple(sorted(table.game.to_act(table.state))) if table.playing else ()
    return SeatView(
        table_id=table.table_id,
        game=table.setup.game,
        version=table.version,
        status=table.status,
        seat=seat,
        hand=tuple(view.hand),
        public=view.public,
        private=view.private,
        to_act=to_act,
        legal_actions=legal,
        deadlines=table.deadlines,
        seats=table.seats,
        outcome=table.outcome,
        last_event=table.last_event,
        options=table.setup.options,
    )
