"""Finished tables for leaderboard tests, built the way the engine reports them."""

from __future__ import annotations

import datetime as dt
import uuid
from collections.abc import Sequence

from tavolo.leaderboard.model import FinishedTable, Mode, SeatResult
from tavolo.leaderboard.wire import table_finished_to_proto

MONDAY = dt.datetime(2025, 3, 10, 12, 0, tzinfo=dt.UTC)  # ISO 2025-W11


def seat(
    player: str | None, place: int, *, booster: bool = False, vip: bool = False
) -> tuple[str | None, int, bool, bool]:
    """One seat: a player id (None = a bot) and the place reached."""
    return (player, place, booster, vip)


def finished(
    seats: Sequence[tuple[str | None, int, bool, bool]],
    *,
    mode: Mode = Mode.ONLINE,
    game: str = "pika",
    bot_filled: bool = False,
    at: dt.datetime = MONDAY,
    table_id: str | None = None,
    event_id: str | None = None,
) -> FinishedTable:
    return FinishedTable(
        event_id=event_id or str(uuid.uuid4()),
        table_id=table_id or f"t-{uuid.uuid4().hex[:12]}",
        game=game,
        mode=mode,
        bot_filled=bot_filled,
        occurred_at=at,
        seats=tuple(
            SeatResult(
                seat=index,
                player_id=player or "",
                bot=player is None,
                booster=booster,
                vip=vip,
                place=place,
            )
            for index, (player, place, booster, vip) in enumerate(seats)
        ),
    )


def payload(table: FinishedTable) -> bytes:
    return table_finished_to_proto(table).SerializeToString()
