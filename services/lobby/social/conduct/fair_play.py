"""Collusion signals for moderators (PCG-3): facts recorded as they happen, signals
rebuilt from them on request. Nothing here sanctions anyone: a moderator reads the
evidence, audits the tables (``tavolo audit --table``) and decides (PCG-4).

Soft play needs each turn of a finished table, which only the engine's log holds. The
TableFinished consumer queues the table; :meth:`FairPlay.read_logs` later asks the engine
for the log, outside any transaction (a slow or absent engine must not hold the lobby's
consumer), records the turn facts and drops the queue row in one transaction. Facts are
idempotent by id, so two replicas reading the same table record it once.
"""

from __future__ import annotations

import asyncio
import re
import socket
from collections.abc import Callable, Iterable, Mapping, Sequence
from datetime import UTC
from typing import Any, Protocol, runtime_checkable

import structlog

from tavolo.lobby.context import LobbyContext
from tavolo.lobby.play import tables_store
from tavolo.lobby.social.conduct import collusion_store
from tavolo.lobby.social.conduct.collusion import (
    SessionSeen,
    TurnPassed,
    captures_of,
    rebuild,
    rule_events,
    table_result,
    turns_of,
)
from tavolo.lobby.social.conduct.collusion_signals import PairSignals, ranked
from tavolo.lobby.store import Connection
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import InvalidArgument, NotFound
from tavolo.v1 import common_pb2

log = structlog.get_logger(__name__)

INSTALLATION_HEADER = "x-tavolo-installation"
_INSTALLATION = re.compile(r"[A-Za-z0-9._:-]{1,100}")
DEFAULT_LIMIT = 50
MAX_LIMIT = 500
#: Games whose turns are read for soft play, and how: free-for-all games, where hurting
#: one another is the game. Fishing games count only without partners (two or three seats).
ReadTurns = Callable[[str, Sequence[str | None], Iterable[Mapping[str, Any]]], list[TurnPassed]]
SOFT_PLAY: Mapping[str, ReadTurns] = {
    "pika": turns_of,
    "scopa": captures_of,
    "asso": captures_of,
    "cirulla": captures_of,
}
PAIRED_FROM_SEATS = {"scopa": 4, "asso": 4, "cirulla": 4}
LOGS_PER_PASS = 20
READ_LOGS_EVERY = 1.0


@runtime_checkable
class TableLogs(Protocol):
    """Where finished tables' logs come from: the engine."""

    async def table_log(self, table_id: str) -> Sequence[tuple[str, Mapping[str, Any]]]:
        """Each stored event's type and data, in order (NotFound for an unknown table)."""
        ...


def peer_address(peer: str) -> str:
    """The address of a gRPC peer string (``ipv4:1.2.3.4:5``, ``ipv6:[::1]:5``), no port."""
    kind, _, rest = peer.partition(":")
    if kind == "ipv4":
        return rest.rsplit(":", 1)[0]
    if kind == "ipv6":
        return rest.rsplit(":", 1)[0].strip("[]")
    return ""  # a unix socket or an in-process channel: no network address


def installation_id(value: str) -> str:
    if value and not _INSTALLATION.fullmatch(value):
        raise InvalidArgument(
            f"{INSTALLATION_HEADER} is at most 100 letters, digits and . _ : - characters",
            reason="FIELD_INVALID",
            metadata={"field": INSTALLATION_HEADER},
        )
    return value


def host_addresses() -> frozenset[str]:
    """The addresses this machine answers on: a client seen from one of them is the
    platform itself (a proxy, a tool on the host), not a household."""
    try:
        _, _, found = socket.gethostbyname_ex(socket.gethostname())
    except OSError:
        return frozenset()
    return frozenset(found)


class FairPlay:
    def __init__(self, ctx: LobbyContext) -> None:
        self.ctx = ctx
        self.platform_addresses = host_addresses() | ctx.config.platform_addresses

    async def session_seen(self, player_id: str, address: str, installation: str) -> None:
        fact = SessionSeen(
            f"session:{player_id}:{address}:{installation}", player_id, address, installation
        )
        async with self.ctx.db.transaction() as conn:
            await collusion_store.record(conn, fact, self.ctx.clock())

    async def table_finished(self, conn: Connection, fact_id: str, finished: Any) -> None:
        """Inside the consumer's transaction: the finished table becomes a fact, and its
        log is queued for reading when its game has soft play to look for."""
        record = await tables_store.table(conn, finished.table_id)
        stamp = finished.header.occurred_at
        # When the engine recorded the end; the lobby's clock when the event carries none.
        now = stamp.ToDatetime(tzinfo=UTC) if stamp.seconds else self.ctx.clock()
        seconds = None
        if record is not None:
            seconds = max(0.0, (now - (record.started_at or record.formed_at)).total_seconds())
        mode = common_pb2.Mode.Name(finished.mode).removeprefix("MODE_").lower()
        result = table_result(fact_id, finished, mode, seconds, now.date().isoformat())
        await collusion_store.record(conn, result, self.ctx.clock())
        seats = len(finished.seats)
        free_for_all = seats < PAIRED_FROM_SEATS.get(finished.game, seats + 1)
        if finished.game in SOFT_PLAY and free_for_all and len(result.places) >= 2:
            players: list[str | None] = [None] * len(finished.seats)
            for seat in finished.seats:
                if seat.player_id and not seat.bot and 0 <= seat.seat < len(players):
                    players[seat.seat] = seat.player_id
            await collusion_store.queue_log(
                conn, finished.table_id, finished.game, players, self.ctx.clock()
            )

    async def read_logs_once(self, logs: TableLogs) -> int:
        """Read the queued tables' logs into turn facts; how many tables were done."""
        async with self.ctx.db.connection() as conn:
            queued = await collusion_store.logs_to_read(conn, LOGS_PER_PASS)
        done = 0
        for table_id, game, players in queued:
            try:
                events = await logs.table_log(table_id)
            except NotFound:
                log.warning("a finished table's log is gone; no soft play read", table=table_id)
                events = []
            read_turns: ReadTurns = SOFT_PLAY.get(game) or turns_of
            turns = read_turns(table_id, players, rule_events(events))
            async with self.ctx.db.transaction() as conn:
                for fact in turns:
                    await collusion_store.record(conn, fact, self.ctx.clock())
                await collusion_store.log_read(conn, table_id)
            done += 1
        return done

    async def read_logs(self, logs: TableLogs) -> None:
        """Forever: read what is queued, then wait; an engine error waits and tries again."""
        while True:
            try:
                await self.read_logs_once(logs)
            except asyncio.CancelledError:
                raise
            except Exception as exc:  # the engine or the database away: next pass
                log.warning("soft play logs not read", error=str(exc))
            await asyncio.sleep(READ_LOGS_EVERY)

    async def signals(self, caller: Principal, limit: int) -> list[PairSignals]:
        caller.require(Role.MODERATOR, Role.AUDITOR)
        if limit < 0:
            raise InvalidArgument(
                "limit cannot be negative", reason="FIELD_INVALID", metadata={"field": "limit"}
            )
        async with self.ctx.db.connection() as conn:
            facts = await collusion_store.every_fact(conn)
        found = ranked(rebuild(facts), self.platform_addresses)
        return found[: min(limit or DEFAULT_LIMIT, MAX_LIMIT)]
