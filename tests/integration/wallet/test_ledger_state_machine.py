"""Random holds, posts, voids, grants, payouts and refunds, run by concurrent workers on a real
PostgreSQL (guarantee 7, AUDIT-5, MODE-4).

Two rules. ``stake_table_round`` plays one stake table's life in three phases — holds, then
posts into escrow racing voids of the same holds, then its end racing a second end (a
replayed finish, or an abort) — each phase started at once on separate connections
together with random other operations. ``random_batch`` throws operations at holds and
tables that already exist. After every step: the posted balances sum to zero, no player or
escrow balance is negative, every account's counters equal what its transfers add up to,
no hold is resolved twice, every settled table's escrow is empty, and every answer about
a hold's resolution is the first one.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

import asyncpg
import pytest
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, invariant, rule, run_state_machine_as_test

from tavolo.servicekit.errors import DomainError
from tavolo.wallet import store
from tavolo.wallet.app import WalletApp
from tavolo.wallet.config import WalletConfig
from tavolo.wallet.facts import MatchFormed, Mode, SeatResult, TableAborted, TableFinished
from tavolo.wallet.settlement import RetryLater, Settlement
from tavolo.wallet.transfers import TransferState
from tests.scale import scaled

from .conftest import LOBBY, OPERATOR, Clock
from .ledger_audit import audit
from .registered import register

PLAYERS = ("ann", "bob", "cy")
STAKES = (100, 250, 500)

pytestmark = pytest.mark.integration


@dataclass(frozen=True)
class Grant:
    player: str
    amount: int


@dataclass(frozen=True)
class Hold:
    hold_id: str
    player: str
    stake: int
    expires: int


@dataclass(frozen=True)
class Post:
    hold_id: str
    table: str
    seat: int


@dataclass(frozen=True)
class Void:
    hold_id: str


@dataclass(frozen=True)
class Finish:
    table: str
    players: tuple[str, ...]
    places: tuple[int, ...]


@dataclass(frozen=True)
class Abort:
    table: str


@dataclass(frozen=True)
class Sweep:
    seconds: int


class ConcurrentLedger(RuleBasedStateMachine):
    """The ledger under batches of racing operations."""

    loop: asyncio.AbstractEventLoop
    pool: asyncpg.Pool

    def __init__(self) -> None:
        super().__init__()
        self.clock = Clock()
        self.wallet = WalletApp(self.pool, WalletConfig(), self.clock)
        self.settlement = Settlement(WalletConfig(), self.clock)
        self.ids = itertools.count()
        self.first_answer: dict[str, str] = {}
        self.hold_ids: list[str] = []
        self.tables: list[str] = []
        self.loop.run_until_complete(self._fresh_ledger())

    async def _fresh_ledger(self) -> None:
        """An empty ledger, then coins for everyone so that most holds can succeed."""
        async with self.pool.acquire() as conn:
            await conn.execute("DROP SCHEMA IF EXISTS wallet CASCADE")
        await store.migrate(self.pool)
        await register(self.pool, *PLAYERS)
        for player in PLAYERS:
            await self.wallet.grant(OPERATOR, f"start-{player}", player, 1500, "start")

    # -- drawing operations ------------------------------------------------------------

    def _new_hold(self, data: st.DataObject, player: str | None = None) -> Hold:
        hold_id = f"h{len(self.hold_ids)}"
        self.hold_ids.append(hold_id)
        return Hold(
            hold_id,
            player or data.draw(st.sampled_from(PLAYERS)),
            data.draw(st.sampled_from(STAKES)),
            data.draw(st.sampled_from([0, 0, 30])),
        )

    def _random(self, data: st.DataObject) -> Any:
        """Any operation, aimed at holds and tables that exist, so that operations collide."""
        kind = data.draw(
            st.sampled_from(["grant", "hold", "again", "post", "void", "end", "sweep"])
        )
        holds = st.sampled_from(self.hold_ids) if self.hold_ids else st.just("h-none")
        tables = st.sampled_from(self.tables) if self.tables else st.just("t-none")
        if kind == "grant":
            player = data.draw(st.sampled_from(PLAYERS))
            return Grant(player, data.draw(st.sampled_from([50, 100, 400, 1000])))
        if kind == "hold":
            return self._new_hold(data)
        if kind == "again":  # the same hold id again: a retry, or other content refused
            return Hold(
                data.draw(holds),
                data.draw(st.sampled_from(PLAYERS)),
                data.draw(st.sampled_from(STAKES)),
                0,
            )
        if kind == "post":
            return Post(data.draw(holds), data.draw(tables), data.draw(st.integers(0, 3)))
        if kind == "void":
            return Void(data.draw(holds))
        if kind == "end":
            return self._end(data, data.draw(tables), PLAYERS)
        return Sweep(data.draw(st.sampled_from([0, 40])))

    def _end(self, data: st.DataObject, table: str, players: Sequence[str]) -> Any:
        if data.draw(st.integers(0, 3)) == 0:
            return Abort(table)
        places = tuple(data.draw(st.integers(1, len(players))) for _ in players)
        return Finish(table, tuple(players), places)

    def _noise(self, data: st.DataObject) -> list[Any]:
        return [self._random(data) for _ in range(data.draw(st.integers(0, 3)))]

    # -- running them ------------------------------------------------------------------

    def _together(self, batch: list[Any]) -> None:
        async def run_all() -> None:
            # Every operation finishes before the step ends, whatever the others do.
            results = await asyncio.gather(*(self._run(op) for op in batch), return_exceptions=True)
            for result in results:
                if isinstance(result, BaseException):
                    raise result

        self.loop.run_until_complete(run_all())

    async def _run(self, op: Any) -> None:
        n = next(self.ids)
        # Refused or early: the invariants must hold all the same.
        with contextlib.suppress(DomainError, RetryLater):
            await self._apply(op, n)

    def _remember(self, hold_id: str, state: TransferState) -> None:
        """A resolved hold must always be reported with its first resolution."""
        if state is TransferState.PENDING:
            return
        first = self.first_answer.setdefault(hold_id, state.value)
        assert first == state.value, f"hold {hold_id} reported {state.value} after {first}"

    async def _apply(self, op: Any, n: int) -> None:
        wallet = self.wallet
        if isinstance(op, Grant):
            await wallet.grant(OPERATOR, f"g{n}", op.player, op.amount, "bonus")
        elif isinstance(op, Hold):
            held = await wallet.hold_stake(LOBBY, op.hold_id, op.player, op.stake, "", op.expires)
            self._remember(op.hold_id, held.state)
        elif isinstance(op, Void):
            self._remember(op.hold_id, (await wallet.release_hold(LOBBY, op.hold_id)).state)
        elif isinstance(op, Sweep):
            self.clock.advance(op.seconds)
            await wallet.sweep_expired_holds()
        else:
            async with self.pool.acquire() as conn, conn.transaction():
                await self._apply_event(conn, op, n)

    async def _apply_event(self, conn: Any, op: Any, n: int) -> None:
        settlement = self.settlement
        if isinstance(op, Post):
            owner = await conn.fetchval(
                "SELECT debit_account FROM wallet.transfers WHERE transfer_id = $1", op.hold_id
            )
            if owner is None:
                return
            seat = SeatResult(op.seat, owner.removeprefix("player:"))
            formed = MatchFormed(
                f"mf{n}", op.table, Mode.STAKE, 100, (seat,), {op.seat: op.hold_id}
            )
            await settlement.match_formed(conn, formed)
        elif isinstance(op, Finish):
            seats = tuple(SeatResult(i, p, place=op.places[i]) for i, p in enumerate(op.players))
            end = TableFinished(f"tf{n}", op.table, Mode.STAKE, 100, seats)
            await settlement.table_finished(conn, end)
        elif isinstance(op, Abort):
            aborted = TableAborted(f"ta{n}", op.table, Mode.STAKE, 100, "test")
            await settlement.table_aborted(conn, aborted)

    # -- rules ---------------------------------------------------------------------------

    @rule(data=st.data())
    def stake_table_round(self, data: st.DataObject) -> None:
        """Holds; posts racing voids; the end racing a second end; noise in every phase."""
        table = f"t{len(self.tables)}"
        self.tables.append(table)
        players = data.draw(st.lists(st.sampled_from(PLAYERS), min_size=1, max_size=4))
        holds = [self._new_hold(data, player) for player in players]
        self._together([*holds, *self._noise(data)])
        posts: list[Any] = [Post(h.hold_id, table, seat) for seat, h in enumerate(holds)]
        voids = [Void(h.hold_id) for h in holds if data.draw(st.integers(0, 3)) == 0]
        self._together([*posts, *voids, *self._noise(data)])
        ends = [self._end(data, table, players) for _ in range(data.draw(st.integers(1, 2)))]
        self._together([*ends, *self._noise(data)])

    @rule(data=st.data())
    def random_batch(self, data: st.DataObject) -> None:
        """Two to eight operations drawn now, then started together."""
        self._together([self._random(data) for _ in range(data.draw(st.integers(2, 8)))])

    @invariant()
    def ledger_is_sound(self) -> None:
        async def check() -> None:
            async with self.pool.acquire() as conn:
                found = await audit(conn)
                settled_but_not_empty = await conn.fetch(
                    "SELECT a.account_id FROM wallet.accounts a"
                    " JOIN wallet.table_settlements s ON a.account_id = 'escrow:' || s.table_id"
                    " WHERE a.credits_posted <> a.debits_posted"
                )
                answers = await conn.fetch(
                    "SELECT pending_id, kind FROM wallet.transfers WHERE pending_id IS NOT NULL"
                )
            assert found.problems == []
            assert settled_but_not_empty == []
            for row in answers:
                state = "posted" if row["kind"] == "post_pending" else "voided"
                assert self.first_answer.get(row["pending_id"], state) == state

        self.loop.run_until_complete(check())


def _run_machine(database_url: str) -> None:
    loop = asyncio.new_event_loop()
    asyncio.set_event_loop(loop)

    async def open_pool() -> asyncpg.Pool:
        return await asyncpg.create_pool(database_url, min_size=2, max_size=12)

    try:
        pool = loop.run_until_complete(open_pool())
        ConcurrentLedger.loop = loop
        ConcurrentLedger.pool = pool
        try:
            run_state_machine_as_test(
                ConcurrentLedger,
                settings=settings(
                    max_examples=scaled(15, 200),
                    stateful_step_count=scaled(8, 30),
                    deadline=None,
                    suppress_health_check=list(HealthCheck),
                    database=None,
                ),
            )
        finally:
            loop.run_until_complete(pool.close())
    finally:
        asyncio.set_event_loop(None)
        loop.close()


async def test_guarantee7_random_concurrent_ledger_operations_keep_every_invariant(
    database_url: str,
) -> None:
    await asyncio.to_thread(_run_machine, database_url)
