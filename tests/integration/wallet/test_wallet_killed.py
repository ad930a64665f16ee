"""The wallet process killed with SIGKILL at random moments while 200 stake tables settle,
and restarted each time (guarantee 6, guarantee 7, MODE-4).

Every table is formed from real holds and then finished, aborted or cancelled by events
on JetStream, some of them published twice under a new message id as a replay would be.
The wallet runs as ``python -m tavolo.wallet`` in a subprocess that this test kills and
restarts while the events arrive. At the end every table must be paid exactly once or
refunded exactly once, every hold resolved once, every escrow empty, the ledger summing
to zero, and every player's balance exactly what the table results say.
"""

from __future__ import annotations

import asyncio
import os
import random
import signal
import subprocess
import sys
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

import asyncpg
import nats
import pytest

from tavolo.messaging import Topology, ensure_streams, install_processed_messages
from tavolo.servicekit.embedded import stop_process
from tavolo.wallet import store
from tavolo.wallet.app import WalletApp
from tavolo.wallet.config import WalletConfig
from tavolo.wallet.payouts import split_pot
from tests.scale import scaled
from tests.secret import TEST_CHECKPOINT_KEY, TEST_TOKEN_SECRET

from . import wire
from .conftest import LOBBY, OPERATOR
from .ledger_audit import audit
from .registered import register

pytestmark = [pytest.mark.integration, pytest.mark.fault]

PLAYERS = [f"p{i}" for i in range(16)]
# Every hold is taken before any event, so each player must cover all their holds at once:
# at full scale up to 1,000 tables at the top stake.
GRANT = scaled(100_000, 1_000_000)
STAKES = (100, 250, 500, 1000)


@dataclass(frozen=True)
class Plan:
    """One table's fate, decided up front so the expected balances are known."""

    table: str
    players: tuple[str, ...]
    stake: int
    end: str  # "finished", "aborted" or "cancelled"
    places: tuple[int, ...]
    replayed: bool

    def hold_id(self, seat: int) -> str:
        return f"{self.table}-s{seat}"

    def effect(self) -> dict[str, int]:
        """What the table does to each player's balance."""
        change = dict.fromkeys(self.players, 0)
        if self.end != "finished":
            return change  # a cancelled hold moved nothing; an aborted stake came back
        for player in self.players:
            change[player] -= self.stake
        for seat, share in split_pot(self.stake * len(self.players), self.winners).items():
            change[self.players[seat]] += share
        return change

    @property
    def winners(self) -> list[int]:
        """Seats sharing the best place."""
        return [s for s, place in enumerate(self.places) if place == min(self.places)]


def plans(count: int, rng: random.Random) -> list[Plan]:
    made = []
    for n in range(count):
        size = rng.choice([2, 3, 4])
        players = tuple(rng.sample(PLAYERS, size))
        places = tuple(rng.choice([1, 1, 2, 3]) for _ in players)
        end = rng.choices(["finished", "aborted", "cancelled"], weights=[70, 15, 15])[0]
        made.append(Plan(f"t{n}", players, rng.choice(STAKES), end, places, rng.random() < 0.2))
    return made


def events(plan: Plan) -> Iterator[object]:
    """The table's events in the order the lobby and the engine publish them."""
    holds = {seat: plan.hold_id(seat) for seat in range(len(plan.players))}
    if plan.end == "cancelled":
        by_player = {p: plan.hold_id(seat) for seat, p in enumerate(plan.players)}
        yield wire.match_cancelled(plan.table, by_player)
        return
    yield wire.match_formed(plan.table, plan.players, plan.stake, holds)
    if plan.end == "finished":
        yield wire.table_finished(plan.table, plan.players, plan.places, stake=plan.stake)
    else:
        yield wire.table_aborted(plan.table, plan.stake)


class WalletProcess:
    """``python -m tavolo.wallet`` that can be killed without warning and started again."""

    def __init__(self, env: dict[str, str], log: Path) -> None:
        self._env = env
        self._log = log
        self._process: subprocess.Popen[bytes] | None = None
        self.kills = 0

    def start(self) -> None:
        with self._log.open("ab") as log:
            self._process = subprocess.Popen(
                [sys.executable, "-m", "tavolo.wallet"],
                env=self._env,
                stdout=log,
                stderr=subprocess.STDOUT,
            )

    def kill(self) -> None:
        assert self._process is not None
        assert self._process.poll() is None, f"the wallet exited by itself; see {self._log}"
        self._process.send_signal(signal.SIGKILL)
        self._process.wait()
        self.kills += 1

    def stop(self) -> None:
        if self._process is not None:
            stop_process(self._process)


async def test_guarantee6_wallet_killed_at_random_points_settles_every_table_exactly_once(
    database_url: str, nats_url: str, namespace: str, tmp_path: Path
) -> None:
    rng = random.Random(20260302)
    tables = plans(scaled(200, 1000), rng)
    pool = await asyncpg.create_pool(database_url, min_size=1, max_size=4)
    nc = await nats.connect(nats_url)
    wallet_process = WalletProcess(
        {
            **os.environ,
            "TAVOLO_DATABASE_URL": database_url,
            "TAVOLO_NATS_URL": nats_url,
            "TAVOLO_TOKEN_SECRET": TEST_TOKEN_SECRET,
            "TAVOLO_CHECKPOINT_KEY": TEST_CHECKPOINT_KEY,
            "TAVOLO_NAMESPACE": namespace,
            "TAVOLO_WALLET_PORT": "0",
            "TAVOLO_WALLET_METRICS_PORT": "0",
            "TAVOLO_WALLET_ACK_WAIT": "1",
            "TAVOLO_LOG_LEVEL": "warning",
        },
        tmp_path / "wallet.log",
    )
    try:
        js = nc.jetstream()
        topology = Topology(namespace)
        await ensure_streams(js, topology)
        await store.migrate(pool)
        async with pool.acquire() as conn:
            await install_processed_messages(conn, store.SCHEMA)
        wallet = WalletApp(pool, WalletConfig())
        await register(pool, *PLAYERS)
        for player in PLAYERS:
            await wallet.grant(OPERATOR, f"grant-{player}", player, GRANT, "start")
        for plan in tables:
            for seat, player in enumerate(plan.players):
                await wallet.hold_stake(LOBBY, plan.hold_id(seat), player, plan.stake, "", 0)

        published: list[str] = []

        async def handled_count() -> int:
            async with pool.acquire() as conn:
                return int(
                    await conn.fetchval(
                        "SELECT count(*) FROM wallet.processed_messages"
                        " WHERE message_id = ANY($1::text[])",
                        published,
                    )
                )

        async def busy_since(before: int) -> None:
            """Wait until the wallet handles events again (it may still be starting)."""
            async with asyncio.timeout(60):
                while True:
                    if await handled_count() > before:
                        return
                    await asyncio.sleep(0.02)

        # Publish in bursts; after most bursts, kill the wallet while it works on them.
        wallet_process.start()
        queue = [(plan, event) for plan in tables for event in events(plan)]
        position = 0
        while position < len(queue):
            before = await handled_count()
            burst = queue[position : position + rng.randint(10, 40)]
            position += len(burst)
            for plan, event in burst:
                await wire.publish(js, topology, event)
                published.append(event.header.event_id)  # type: ignore[attr-defined]
                if plan.replayed:
                    replay_id = f"replay-{event.header.event_id}"  # type: ignore[attr-defined]
                    await wire.publish(js, topology, event, msg_id=replay_id)
                    published.append(replay_id)
            if rng.random() < 0.7:
                await busy_since(before)
                await asyncio.sleep(rng.uniform(0.0, 0.1))
                wallet_process.kill()
                wallet_process.start()

        async with asyncio.timeout(120):
            while True:
                if await handled_count() == len(published):
                    break
                await asyncio.sleep(0.2)
    finally:
        wallet_process.stop()
        await nc.close()

    try:
        assert wallet_process.kills >= 3
        async with pool.acquire() as conn:
            found = await audit(conn)
            settlements = {
                r["table_id"]: r["outcome"]
                for r in await conn.fetch("SELECT table_id, outcome FROM wallet.table_settlements")
            }
            moved = await conn.fetch(
                "SELECT split_part(transfer_id, ':', 1) AS kind, split_part(transfer_id, ':', 2)"
                " AS table_id, count(*) AS n, sum(amount) AS coins FROM wallet.transfers"
                " WHERE transfer_id ~ '^(payout|refund):' GROUP BY 1, 2"
            )
            open_holds = await conn.fetchval("SELECT count(*) FROM wallet.open_holds")
            escrows = await conn.fetchval(
                "SELECT count(*) FROM wallet.accounts WHERE kind = 'escrow'"
                " AND credits_posted <> debits_posted"
            )
            balances = {
                r["account_id"].removeprefix("player:"): r["balance"]
                for r in await conn.fetch(
                    "SELECT account_id, credits_posted - debits_posted AS balance"
                    " FROM wallet.accounts WHERE kind = 'player'"
                )
            }
    finally:
        await pool.close()

    assert found.problems == []
    assert (open_holds, escrows) == (0, 0)  # every hold resolved, every pot emptied
    outcome = {"finished": "paid", "aborted": "refunded", "cancelled": "cancelled"}
    assert settlements == {plan.table: outcome[plan.end] for plan in tables}
    movements = {(r["kind"], r["table_id"]): (r["n"], r["coins"]) for r in moved}
    for plan in tables:
        pot = plan.stake * len(plan.players)
        payout = movements.get(("payout", plan.table))
        refund = movements.get(("refund", plan.table))
        if plan.end == "finished":
            assert (payout, refund) == ((len(plan.winners), pot), None), plan
        elif plan.end == "aborted":
            assert (payout, refund) == (None, (len(plan.players), pot)), plan
        else:
            assert (payout, refund) == (None, None), plan
    expected = dict.fromkeys(PLAYERS, GRANT)
    for plan in tables:
        for player, change in plan.effect().items():
            expected[player] += change
    assert balances == expected
