"""Duplicate Solitario's use cases: create a competition, enter it, read its standings,
and record an entrant's result when the engine reports their table's end.

An entry is a one-seat Solitario table the lobby opens at the engine (like a
versus-computer table: the player is claimed, so they sit at one table at a time), dealt
from the competition's seed and with its log sealed from the player until the close.
Everything a join writes commits with the engine's answer: a refusal leaves no entry.
"""

from __future__ import annotations

import asyncio
import os
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from datetime import datetime
from typing import Any

import asyncpg
import structlog
from google.protobuf import json_format

from tavolo.lobby.context import LobbyContext, busy_message, busy_metadata
from tavolo.lobby.duplicates import store
from tavolo.lobby.duplicates.competition import Competition, daily, daily_id, new_competition
from tavolo.lobby.duplicates.ranking import ABORTED, Entry, Standing, rank
from tavolo.lobby.play import tables_store
from tavolo.lobby.play.tables import Mode, Seat
from tavolo.lobby.play.tables_store import TableRecord
from tavolo.lobby.store import Connection
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import AlreadyExists, FailedPrecondition, InvalidArgument, NotFound
from tavolo.v1 import events_pb2

DAILY_CREATOR = "lobby:daily"
DAILY_CHECK_SECONDS = 60.0
log = structlog.get_logger("tavolo.lobby.duplicates")


@dataclass(frozen=True, slots=True)
class Joined:
    competition: Competition
    entry: Entry
    rejoined: bool


class Duplicates:
    def __init__(
        self, ctx: LobbyContext, *, new_seed: Callable[[], bytes] = lambda: os.urandom(32)
    ) -> None:
        self.ctx = ctx
        self._new_seed = new_seed

    async def create(
        self,
        caller: Principal,
        duplicate_id: str,
        options: Mapping[str, Any] | None,
        opens_at: datetime | None,
        closes_at: datetime | None,
    ) -> Competition:
        """Operators: a competition with a fresh seed, its commitment published now."""
        caller.require(Role.OPERATOR)
        now = self.ctx.clock()
        if closes_at is None:
            raise InvalidArgument(
                "say when the competition closes (closes_at)",
                reason="FIELD_REQUIRED",
                metadata={"field": "closes_at"},
            )
        made = new_competition(
            duplicate_id, options, opens_at or now, closes_at, self._new_seed(), now
        )
        async with self.ctx.db.transaction() as conn:
            if not await store.insert(conn, made, caller.player_id, now):
                raise AlreadyExists(
                    f"there is already a competition {made.duplicate_id}",
                    reason="COMPETITION_EXISTS",
                    metadata={"duplicate_id": made.duplicate_id},
                )
        return made

    async def ensure_daily(self, now: datetime) -> Competition:
        """Today's daily competition, created by whoever asks first (any replica)."""
        async with self.ctx.db.transaction() as conn:
            return await self._daily(conn, now)

    async def run_daily(self) -> None:
        """Background loop: each day's competition is created, and its commitment
        published, soon after midnight, before anyone asks for it. An entrant asking
        first creates it the same way, so a replica that is down misses nothing."""
        while True:
            try:
                await self.ensure_daily(self.ctx.clock())
            except (OSError, asyncpg.PostgresError) as exc:  # the database is away: retry
                log.warning("daily competition not created yet", error=str(exc))
            await asyncio.sleep(DAILY_CHECK_SECONDS)

    async def join(self, caller: Principal, duplicate_id: str, today: bool) -> Joined:
        """The caller's table in the competition: dealt now, or the one they have."""
        now = self.ctx.clock()
        async with self.ctx.db.transaction() as conn:
            account = await self.ctx.lobby_account(conn, caller)
            found = await self._competition(conn, duplicate_id, today, now)
            had = await store.entry(conn, found.duplicate_id, account.player_id)
            if had is not None:
                return Joined(found, had, rejoined=True)
            found.check_entry(now)
            table_id = self.ctx.new_id()
            busy = await tables_store.claim(conn, [account.player_id], now, table_id=table_id)
            if busy:
                raise FailedPrecondition(
                    busy_message(busy[0], account.nickname, you=True),
                    reason="PLAYER_BUSY",
                    metadata=busy_metadata(busy[0], account.nickname),
                )
            seat = Seat(0, account.player_id, account.nickname)
            record = TableRecord(table_id, found.spec, Mode.VERSUS_COMPUTER, now)
            await tables_store.insert_tables(conn, [record], [[seat]])
            entry = Entry(account.player_id, account.nickname, table_id)
            await store.add_entry(conn, found.duplicate_id, entry, now)
            await self.ctx.engine.open_table(
                table_id,
                found.spec,
                [seat],
                Mode.VERSUS_COMPUTER,
                deal_seed=found.seed,
                sealed_until=found.closes_at,
            )
        return Joined(found, entry, rejoined=False)

    async def standings(
        self, caller: Principal, duplicate_id: str, today: bool
    ) -> tuple[Competition, list[Standing]]:
        now = self.ctx.clock()
        async with self.ctx.db.transaction() as conn:
            await self.ctx.account(conn, caller)
            found = await self._competition(conn, duplicate_id, today, now)
            return found, rank(await store.entries(conn, found.duplicate_id))

    # -- the engine's facts (in the consumer's transaction) ---------------------------

    async def table_finished(self, conn: Connection, event: events_pb2.TableFinished) -> bool:
        """An entrant's table ended: their score and moves, timed from the deal."""
        detail = json_format.MessageToDict(event.outcome.detail)
        results, moves = list(detail.get("results") or []), list(detail.get("moves") or [])
        if not event.outcome.scores or not results or not moves:
            return False  # not a Solitario outcome: no entry plays this table
        return await store.finish_entry(
            conn,
            event.table_id,
            str(results[0]),
            int(event.outcome.scores[0]),
            int(moves[0]),
            event.header.occurred_at.ToDatetime(tzinfo=self.ctx.clock().tzinfo),
        )

    async def table_aborted(self, conn: Connection, event: events_pb2.TableAborted) -> bool:
        """An entrant left their table: the entry ends with no score, after every result."""
        ended = event.header.occurred_at.ToDatetime(tzinfo=self.ctx.clock().tzinfo)
        return await store.finish_entry(conn, event.table_id, ABORTED, 0, 0, ended)

    # -- finding a competition ---------------------------------------------------------

    async def _competition(
        self, conn: Connection, duplicate_id: str, today: bool, now: datetime
    ) -> Competition:
        if today:
            if duplicate_id and duplicate_id != daily_id(now):
                raise InvalidArgument(
                    "ask for today's competition or name one, not both",
                    reason="COMPETITION_INVALID",
                    metadata={"field": "duplicate_id"},
                )
            return await self._daily(conn, now)
        if not duplicate_id:
            raise InvalidArgument(
                "name a competition, or ask for today's daily one",
                reason="FIELD_REQUIRED",
                metadata={"field": "duplicate_id"},
            )
        found = await store.competition(conn, duplicate_id)
        if found is None:
            raise NotFound(
                f"there is no competition {duplicate_id}",
                reason="COMPETITION_NOT_FOUND",
                metadata={"duplicate_id": duplicate_id},
            )
        return found

    async def _daily(self, conn: Connection, now: datetime) -> Competition:
        await store.insert(conn, daily(now, self._new_seed()), DAILY_CREATOR, now)
        found = await store.competition(conn, daily_id(now))
        assert found is not None  # inserted above, or by an earlier caller
        return found
