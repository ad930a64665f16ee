"""What must hold at the end of every simulated run, chaos or not, each a named check.

Each check answers with a :class:`Check`: its name, whether it held, what it looked at,
and the problems found. Where the platform offers a way to ask, the check asks it as an
operator would (``GetTable``, ``GetTableLog`` and ``GetLogIndex`` with ``tavolo audit``'s
own verifier, ``ListTransfers``, ``RebuildProjection``, ``ListDeadLetters``); the ledger's
sums and the outboxes' relay positions have no RPC, so those two read PostgreSQL, and the
consumers' backlog is read from JetStream itself.
"""

from __future__ import annotations

import asyncio
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from typing import Any

import asyncpg
import grpc
import nats

from tavolo.cli.audit.checks import EngineFacts, check_table
from tavolo.cli.audit.ledger import audit
from tavolo.cli.simulate.client import Client
from tavolo.cli.simulate.stats import Stats, TableRecord
from tavolo.eventlog.integrity import IndexEntry
from tavolo.tablelog.convert import STATUS_VALUES, index_from_proto, recorded_from_proto
from tavolo.v1 import engine_pb2, leaderboard_pb2, lobby_pb2, wallet_pb2

SETTLE_SECONDS = 120.0
"""How long the end of a run waits for the consumers to catch up before checking."""
SHOWN = 10
"""Problems listed per check; the count says how many there were."""


@dataclass
class Check:
    """One invariant's verdict."""

    name: str
    checked: str = ""
    problems: list[str] = field(default_factory=list)

    @property
    def held(self) -> bool:
        return not self.problems

    def as_dict(self) -> dict[str, Any]:
        return {
            "name": self.name,
            "held": self.held,
            "checked": self.checked,
            "problems": self.problems[:SHOWN],
            "problem_count": len(self.problems),
        }


@dataclass
class Checker:
    """Everything the checks ask: the operator's session, the players', the servers."""

    operator: Client
    players: dict[str, Client]
    stats: Stats
    database_url: str
    nats_url: str

    async def run_all(self) -> list[Check]:
        await self.settle()
        checks: list[Callable[[], Awaitable[Check]]] = [
            self.ledger,
            self.settlements,
            self.tables,
            self.logs,
            self.league,
            self.statuses,
            self.delivery,
        ]
        found = []
        for check in checks:
            try:
                found.append(await check())
            except (grpc.aio.AioRpcError, OSError, asyncpg.PostgresError) as exc:
                found.append(Check(check.__name__, problems=[f"could not check: {exc!r}"[:300]]))
        return found

    async def settle(self) -> None:
        """Wait until every JetStream consumer has delivered and had acked all it holds."""
        deadline = time.monotonic() + SETTLE_SECONDS
        while time.monotonic() < deadline:
            backlog = await self._consumer_backlog()
            if not backlog:
                return
            await asyncio.sleep(2.0)

    async def _consumer_backlog(self) -> list[str]:
        connection = await nats.connect(self.nats_url.split(","))
        try:
            js = connection.jetstream()
            found = []
            for stream in await js.streams_info():
                name = stream.config.name or ""
                for consumer in await js.consumers_info(name):
                    pending = consumer.num_pending or 0
                    unacked = consumer.num_ack_pending or 0
                    if pending or unacked:
                        found.append(
                            f"consumer {consumer.name} on {name}: "
                            f"{pending} not delivered, {unacked} not acknowledged"
                        )
            return found
        finally:
            await connection.close()

    # -- the ledger ------------------------------------------------------------------------

    async def ledger(self) -> Check:
        check = Check("ledger sums to zero, no balance negative")
        connection = await asyncpg.connect(self.database_url)
        try:
            found = await audit(connection)
            accounts = await connection.fetchval("SELECT count(*) FROM wallet.accounts")
        finally:
            await connection.close()
        check.checked = f"{accounts} accounts; posted balances sum to {found.posted_sum}"
        check.problems = found.problems
        return check

    async def settlements(self) -> Check:
        """Paid once, refunded once, welcomed once: read from every player's transfers."""
        check = Check("every stake table paid once, every cancelled stake refunded once")
        ids: Counter[str] = Counter()
        welcomed: Counter[str] = Counter()
        held: dict[str, int] = {}
        wallet = self.operator.stubs.wallet
        for player_id in self.players:
            for transfer in await self._transfers(player_id):
                ids[transfer.transfer_id] += 1
                if transfer.transfer_id.startswith("welcome:"):
                    welcomed[player_id] += 1
            balance = await self.operator.call(
                "GetBalance", wallet.GetBalance, wallet_pb2.GetBalanceRequest(player_id=player_id)
            )
            held[player_id] = balance.held
        check.problems += [f"transfer {i} listed {n} times" for i, n in ids.items() if n > 1]
        paid = {_table_of(i) for i in ids if i.startswith("payout:")}
        refunded = {_table_of(i) for i in ids if i.startswith("refund:")}
        check.problems += [f"table {t} both paid out and refunded" for t in paid & refunded]
        records = self.stats.tables.values()
        stake_tables = [r for r in records if r.stake and r.status == "FINISHED"]
        check.problems += [
            f"stake table {r.table_id} finished, neither paid out nor refunded (a draw)"
            for r in stake_tables
            if r.table_id not in paid | refunded
        ]
        live_stakes = {p for r in records if r.stake and r.status == "PLAYING" for p in r.players}
        for player_id, coins in held.items():
            if coins and player_id not in live_stakes:
                check.problems += await self._unexplained_holds(player_id, coins)
        check.problems += [
            f"player {p} welcomed {welcomed[p]} times" for p in self.players if welcomed[p] != 1
        ]
        check.checked = (
            f"{len(stake_tables)} finished stake tables ({len(paid)} paid out), "
            f"{self.stats.cancelled_stakes} cancelled stake tickets, {len(refunded)} tables "
            f"refunded, {len(self.players)} players' holds and welcome grants"
        )
        return check

    async def _unexplained_holds(self, player_id: str, coins: int) -> list[str]:
        """Each open hold of a player seen at no live stake table, unless the lobby still
        has its ticket waiting in the queue or seated at a table the engine still plays
        (a table its player never heard of, say, when the news was lost to a kill). Read
        from PostgreSQL: no RPC joins a hold to its ticket and the ticket to its table."""
        connection = await asyncpg.connect(self.database_url)
        try:
            rows = await connection.fetch(
                "SELECT h.hold_id, h.expires_at, t.amount, t.created_at,"
                " k.state AS ticket, k.table_id, e.status AS table_status,"
                " r.done_at AS released, r.attempts, r.last_error"
                " FROM wallet.open_holds h"
                " JOIN wallet.transfers t ON t.transfer_id = h.hold_id"
                " LEFT JOIN lobby.tickets k ON k.hold_id = h.hold_id"
                " LEFT JOIN engine.tables e ON e.table_id = k.table_id"
                " LEFT JOIN lobby.hold_releases r ON r.hold_id = h.hold_id"
                " WHERE h.account_id = $1",
                f"player:{player_id}",
            )
        finally:
            await connection.close()
        problems = []
        for row in rows:
            if row["ticket"] == "waiting" or row["table_status"] == "playing":
                continue
            problems.append(
                f"player {player_id} has {row['amount']} coins held since"
                f" {row['created_at']:%H:%M:%S} (hold {row['hold_id']}, expiry"
                f" {row['expires_at'] or 'none'}): ticket {row['ticket'] or 'not recorded'},"
                f" table {row['table_id'] or '-'} {row['table_status'] or ''},"
                f" release {_release_state(row)}"
            )
        if not rows:
            problems.append(f"player {player_id} shows {coins} coins held but has no open hold")
        return problems

    async def _transfers(self, player_id: str) -> list[wallet_pb2.Transfer]:
        wallet = self.operator.stubs.wallet
        found: list[wallet_pb2.Transfer] = []
        token = ""
        while True:
            request = wallet_pb2.ListTransfersRequest(player_id=player_id)
            request.page.page_size = 100
            request.page.page_token = token
            page = await self.operator.call("ListTransfers", wallet.ListTransfers, request)
            found += page.transfers
            token = page.page.next_page_token
            if not token:
                return found

    # -- tables ----------------------------------------------------------------------------

    async def tables(self) -> Check:
        """Every table ended (finished or aborted) or is live and resumable by its player."""
        check = Check("every table finished, aborted, or live and resumable")
        statuses: Counter[str] = Counter()
        for record in list(self.stats.tables.values()):
            status = await self._table_status(record, check)
            statuses[status] += 1
        check.checked = f"{len(self.stats.tables)} tables: " + ", ".join(
            f"{n} {s.lower()}" for s, n in sorted(statuses.items())
        )
        return check

    async def _table_status(self, record: TableRecord, check: Check) -> str:
        client = next((self.players[p] for p in record.players if p in self.players), None)
        if client is None:
            check.problems.append(f"table {record.table_id}: no player of its own to ask")
            return "UNKNOWN"
        engine = client.stubs.engine
        view = await client.call(
            "GetTable", engine.GetTable, engine_pb2.GetTableRequest(table_id=record.table_id)
        )
        status = engine_pb2.TableStatus.Name(view.status).removeprefix("TABLE_STATUS_")
        record.status = status  # what the table came to after its players stopped
        if status != "PLAYING":
            return status
        stream = engine.WatchTable(
            engine_pb2.WatchTableRequest(table_id=record.table_id, after_version=0),
            metadata=await client.metadata(),
        )
        try:
            first = await asyncio.wait_for(stream.read(), timeout=15)
        except (TimeoutError, grpc.aio.AioRpcError) as exc:
            check.problems.append(f"table {record.table_id}: live, not resumable ({exc!r})"[:300])
            return "PLAYING"
        finally:
            stream.cancel()
        if not isinstance(first, engine_pb2.TableView) or first.version < view.version:
            check.problems.append(f"table {record.table_id}: live, the stream gave no view")
        return "PLAYING"

    async def logs(self) -> Check:
        """``tavolo audit verify`` on every table: chain, seed, re-execution, gaps, receipt."""
        check = Check("every stored table verifies and replays")
        whole, head = await self._log_index()
        index: list[IndexEntry] | None = whole
        head_position: int | None = head
        statuses = {value: name for name, value in STATUS_VALUES.items()}
        engine = self.operator.stubs.engine
        for record in list(self.stats.tables.values()):
            log = await self.operator.call(
                "GetTableLog",
                engine.GetTableLog,
                engine_pb2.GetTableLogRequest(table_id=record.table_id),
            )
            facts = EngineFacts(log.head_version, statuses.get(log.status), index, head_position)
            events = [recorded_from_proto(e) for e in log.events]
            verdict = check_table(record.table_id, events, facts, receipt=record.receipt or None)
            check.problems += verdict.findings + verdict.platform
            index = None  # the gaps of the whole log are checked once
            head_position = None
        check.checked = f"{len(self.stats.tables)} tables' logs re-executed from their seeds"
        return check

    async def _log_index(self) -> tuple[list[IndexEntry], int]:
        engine = self.operator.stubs.engine
        entries: list[IndexEntry] = []
        head = 0
        while True:
            after = entries[-1].position if entries else 0
            page = await self.operator.call(
                "GetLogIndex",
                engine.GetLogIndex,
                engine_pb2.GetLogIndexRequest(after_position=after, columnar=True),
            )
            head = max(head, page.head_position)
            found = index_from_proto(page)
            if not found:
                return entries, head
            entries += found

    # -- the league ------------------------------------------------------------------------

    async def league(self) -> Check:
        """The live league, rebuilt from the recorded TableFinished events, is the same."""
        check = Check("the league equals its rebuild")
        before = await self._league_rows()
        board = self.operator.stubs.leaderboard
        rebuilt = await self.operator.call(
            "RebuildProjection",
            board.RebuildProjection,
            leaderboard_pb2.RebuildProjectionRequest(),
            seconds=300,
        )
        after = await self._league_rows()
        if before != after:
            changed = sorted(set(before) ^ set(after))
            check.problems += [f"row differs: {row}" for row in changed]
        check.checked = (
            f"{len(before)} league rows; {rebuilt.events_replayed} TableFinished events replayed"
        )
        return check

    async def _league_rows(self) -> list[tuple[int, str, int, int]]:
        board = self.operator.stubs.leaderboard
        rows: list[tuple[int, str, int, int]] = []
        token = ""
        while True:
            request = leaderboard_pb2.GetLeagueRequest()
            request.page.page_size = 100
            request.page.page_token = token
            page = await self.operator.call("GetLeague", board.GetLeague, request)
            rows += [_row(entry) for entry in page.entries]
            token = page.page.next_page_token
            if not token:
                return sorted(rows)

    # -- what the clients saw, what crossed NATS ---------------------------------------------

    async def statuses(self) -> Check:
        check = Check("no client saw INTERNAL or UNKNOWN")
        check.problems = list(self.stats.unexpected)
        check.checked = f"{sum(self.stats.calls.values())} calls"
        return check

    async def delivery(self) -> Check:
        """The outboxes relayed everything, the consumers took everything, none gave up."""
        check = Check("nothing published was lost between the outboxes and the consumers")
        check.problems += await self._outbox_backlog()
        check.problems += await self._consumer_backlog()
        lobby = self.operator.stubs.lobby
        letters = await self.operator.call(
            "ListDeadLetters",
            lobby.ListDeadLetters,
            lobby_pb2.ListDeadLettersRequest(limit=500),
        )
        check.problems += [
            f"dead letter: {d.consumer} gave up on {d.subject} {d.message_id}: {d.error}"
            for d in letters.letters
        ]
        check.checked = "every outbox relay, every JetStream consumer, the dead letters"
        return check

    async def _outbox_backlog(self) -> list[str]:
        """Each relay reaches the head its event log had when the check began: tables
        still live keep appending (their bots play on), so a later head is no backlog."""
        connection = await asyncpg.connect(self.database_url)
        try:
            schemas = await connection.fetch(
                "SELECT table_schema FROM information_schema.tables"
                " WHERE table_name = 'relay_checkpoints'"
            )
            heads = {}
            for (schema,) in schemas:
                heads[schema] = await connection.fetchval(
                    f'SELECT coalesce(max(position), 0) FROM "{schema}".events'
                )
            found: list[str] = []
            deadline = time.monotonic() + SETTLE_SECONDS
            while True:
                found = []
                for schema, head in heads.items():
                    relayed = await connection.fetchval(
                        f'SELECT coalesce(max(position), 0) FROM "{schema}".relay_checkpoints'
                    )
                    if relayed < head:
                        found.append(f"{schema}: events up to {head}, relayed up to {relayed}")
                if not found or time.monotonic() > deadline:
                    return found
                await asyncio.sleep(1.0)
        finally:
            await connection.close()


def _row(entry: leaderboard_pb2.RankingEntry) -> tuple[int, str, int, int]:
    return (entry.rank, entry.player_id, entry.points_x2, entry.games)


def _table_of(transfer_id: str) -> str:
    """The table of a ``payout:<table>:<seat>`` (or refund, stake, reward) transfer id."""
    return transfer_id.split(":")[1]


def _release_state(row: asyncpg.Record) -> str:
    """What the lobby did about voiding a hold: never asked, asked and retrying, or done."""
    if row["attempts"] is None:
        return "never requested"
    if row["released"] is None:
        return f"pending after {row['attempts']} attempts ({row['last_error'] or 'no error'})"
    return f"done at {row['released']:%H:%M:%S} yet the hold is open"
