"""Where the engine's commit statement spends its time, beside a bare INSERT.

    .venv/bin/python bench/bench_commit.py [--actions 600]

The engine (no gRPC, no timer loop) plays a four-player table of people (no bots), so
every action is one ``commit_command`` statement exactly as the engine sends it (a
player's command with its request id, one event, the turn timer). Against it, on the
same server and in turns with it, a bare one-row INSERT in its own transaction. Prints:

- the round trip of each (client's clock), interleaved, p50 and p99;
- the server's time in each PL/pgSQL function per call (``track_functions``): how much
  of ``commit_command`` is the event log's ``append_one``;
- WAL bytes per statement (the server's insert position before and after), the commit
  record included;
- the round trip of the statement's arguments alone (a statement that only counts
  them) against ``SELECT 1``;
- ``EXPLAIN (ANALYZE, BUFFERS, WAL)`` of one captured statement and of each statement
  of ``commit_command``'s body run alone with the same arguments (each in a transaction
  rolled back), and of the INSERT.

``--without-references`` first drops the foreign keys of ``requests`` and ``deadlines``
to ``tables``, to price their checks (run it in turns with a run without).

Starts an embedded PostgreSQL unless TAVOLO_DATABASE_URL is set (no NATS is used).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import re
import time
import uuid
from typing import Any

import asyncpg

from tavolo.engine.bootstrap import build_engine
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.embedded import run_on_servers, scratch_database
from tavolo.tablelog.setup import SeatInfo, build_setup

SCHEMA = "engine_commit"

# commit_command's own statements, for a player's command that writes (wait true, no
# fired timer), on its arguments $1..$21 (see 003_commit_commands.sql).
BODY = {
    "lock the table's row": "SELECT t.version FROM tables AS t WHERE t.table_id = $2 FOR UPDATE",
    "request id seen?": "SELECT q.version FROM requests AS q"
    " WHERE q.table_id = $2 AND q.player_id = $8 AND q.request_id = $9",
    "stream moved on?": "SELECT EXISTS (SELECT 1 FROM events AS e"
    " WHERE e.stream_id = $3 AND e.version > $4)",
    "append_one (event log)": "SELECT append_one($3, $4, $20[1], $14, $15, $16, $17, $18, $19,"
    " $20, $21)",
    "insert the request id": "INSERT INTO requests (table_id, player_id, request_id, version)"
    " VALUES ($2, $8, $9, $6)",
    "stop timers not wanted": "DELETE FROM deadlines AS d"
    " WHERE d.table_id = $2 AND NOT d.timer_key = ANY ($10)",
    "upsert wanted timers": "INSERT INTO deadlines (table_id, timer_key, seat, kind, due_at)"
    " SELECT $2, w.k, w.s, w.kd, w.du FROM unnest($10::text[], $11::int[], $12::text[],"
    " $13::timestamptz[]) AS w(k, s, kd, du) ON CONFLICT (table_id, timer_key) DO UPDATE"
    " SET seat = excluded.seat, kind = excluded.kind, due_at = excluded.due_at"
    " WHERE excluded.timer_key = $5",
    "move the row's head": "UPDATE tables AS t SET version = $6, status = $7,"
    " closed_at = CASE WHEN $7 = 'playing' THEN NULL ELSE now() END WHERE t.table_id = $2",
}
PARAMETERS = (
    "boolean, text, text, integer, text, integer, text, text, text, text[], integer[],"
    " text[], timestamptz[], integer[], uuid[], text[], text[], text[], timestamptz[],"
    " bytea[], bytea[]"
)


class Rollback(Exception):
    """Leaves a transaction opened only to explain a statement."""


class Recorder:
    """A connection that passes the commit statement on, timing its round trip, and
    keeps the newest statement's arguments for the plans."""

    def __init__(self, conn: Any, times: list[float], captured: list[tuple[str, tuple[Any, ...]]]):
        self._conn = conn
        self._times = times
        self._captured = captured

    async def fetchrow(self, query: str, *args: Any) -> Any:
        self._captured[:] = [(query, args)]  # the newest: its table is likely in play
        started = time.perf_counter()
        row = await self._conn.fetchrow(query, *args)
        self._times.append(time.perf_counter() - started)
        return row

    async def fetch(self, query: str, *args: Any) -> Any:
        return await self._conn.fetch(query, *args)


def pct(samples: list[float], q: float) -> float:
    ordered = sorted(samples)
    return ordered[min(len(ordered) - 1, int(q * len(ordered)))] * 1000


async def wal(conn: asyncpg.Connection) -> int:
    """Where the server's WAL insert position is (bytes): read at once, where
    ``pg_stat_wal`` waits for each backend to flush its counters."""
    return int(await conn.fetchval("SELECT pg_current_wal_insert_lsn() - '0/0'::pg_lsn"))


async def explain(conn: asyncpg.Connection, query: str, *args: Any) -> dict[str, Any]:
    """The plan of ``query`` run once, in a transaction rolled back afterwards."""
    found: dict[str, Any] = {}
    try:
        async with conn.transaction():
            plan = await conn.fetchval(
                f"EXPLAIN (ANALYZE, BUFFERS, WAL, FORMAT JSON) {query}", *args
            )
            found = json.loads(plan)[0]
            raise Rollback
    except Rollback:
        pass
    return found


def plan_line(label: str, plan: dict[str, Any]) -> str:
    top = plan["Plan"]
    hit, dirtied = top.get("Shared Hit Blocks", 0), top.get("Shared Dirtied Blocks", 0)
    buffers = f"shared hit {hit}, dirtied {dirtied}"
    triggers = sum(t["Time"] for t in plan.get("Triggers", ()))
    return (
        f"  {label:<34} {plan['Execution Time']:7.3f} ms (foreign-key checks {triggers:.3f})"
        f" (planning {plan.get('Planning Time', 0):.3f})   {buffers};"
        f" WAL {top.get('WAL Records', 0)} records, {top.get('WAL Bytes', 0)} B,"
        f" {top.get('WAL FPI', 0)} FPI"
    )


async def run(server_url: str, args: argparse.Namespace) -> None:
    async with scratch_database(server_url, "bench_commit") as url:
        admin = await asyncpg.connect(url)
        database = await admin.fetchval("SELECT current_database()")
        await admin.execute(f"ALTER DATABASE \"{database}\" SET track_functions = 'pl'")
        await admin.execute("CREATE TABLE bench_plain (id uuid PRIMARY KEY, n int)")
        pool = await asyncpg.create_pool(url, min_size=1, max_size=4)
        try:
            await measure(pool, admin, args)
        finally:
            await pool.close()
            await admin.close()


async def measure(pool: asyncpg.Pool, admin: asyncpg.Connection, args: argparse.Namespace) -> None:
    engine = await build_engine(pool, schema=SCHEMA)
    players = [f"c-p{s}" for s in range(4)]
    who = [Principal(p, frozenset({Role.PLAYER})) for p in players]
    commits: list[float] = []
    inserts: list[float] = []
    captured: list[tuple[str, tuple[Any, ...]]] = []
    store = engine.repo.store
    if args.without_references:
        for table, key in (
            ("requests", "requests_table_id_fkey"),
            ("deadlines", "deadlines_table_id_fkey"),
        ):
            await admin.execute(f"ALTER TABLE {SCHEMA}.{table} DROP CONSTRAINT IF EXISTS {key}")
    original = store.commit_commands

    async def recorded(commands: Any, events: Any, *, wait: bool, conn: Any = None) -> Any:
        if conn is not None:  # opening a table, inside its transaction: not a command's
            return await original(commands, events, wait=wait, conn=conn)
        async with pool.acquire() as held:
            return await original(
                commands, events, wait=wait, conn=Recorder(held, commits, captured)
            )

    store.commit_commands = recorded  # type: ignore[method-assign]
    insert = "INSERT INTO bench_plain VALUES ($1, $2)"
    wal_commit = wal_insert = 0
    table_count = 0
    while len(commits) < args.actions:
        table_count += 1
        setup = build_setup(
            table_id=f"t{table_count}-{uuid.uuid4().hex[:8]}",
            game="pika",
            options={},
            seats=[SeatInfo(s, players[s]) for s in range(4)],
            mode="versus_friends",
            turn_seconds=30,
        )
        table = await engine.app.open_setup(setup)
        while len(commits) < args.actions:
            live = await engine.repo.live(table.table_id)
            if not live.table.playing:
                break
            seat = min(live.table.game.to_act(live.table.state))
            legal = live.table.game.legal_actions(live.table.state, seat)
            before = await wal(admin)
            await engine.app.act(who[seat], table.table_id, legal[0], request_id=uuid.uuid4().hex)
            wal_commit += await wal(admin) - before
            before = await wal(admin)
            started = time.perf_counter()
            await admin.execute(insert, uuid.uuid4(), len(inserts))
            inserts.append(time.perf_counter() - started)
            wal_insert += await wal(admin) - before
    load = " ".join(f"{x:.1f}" for x in os.getloadavg())
    print(f"load average: {load}")
    print(
        f"commit_command round trip  p50 {pct(commits, 0.5):.3f} ms  p99 {pct(commits, 0.99):.3f}"
        f" ms   bare INSERT p50 {pct(inserts, 0.5):.3f} ms  p99 {pct(inserts, 0.99):.3f} ms"
        f"   ({len(commits)} / {len(inserts)}, in turns)"
    )
    n, m = len(commits), len(inserts)
    print(
        f"WAL per statement, commit record included: commit_command {wal_commit / n:.0f} B,"
        f" INSERT {wal_insert / m:.0f} B"
    )
    await asyncio.sleep(1.5)  # the pool's backend flushes its function statistics when idle
    async with pool.acquire() as conn:
        await conn.execute("SELECT pg_stat_force_next_flush()")
    await admin.execute("SELECT pg_stat_clear_snapshot()")
    rows = await admin.fetch(
        "SELECT funcname, calls, total_time, self_time FROM pg_stat_user_functions"
        " WHERE schemaname = $1 ORDER BY total_time DESC",
        SCHEMA,
    )
    for r in rows:
        print(
            f"  server time in {r['funcname']:<16} {r['calls']:5} calls:"
            f" {1000 * r['total_time'] / r['calls']:6.1f} µs a call,"
            f" {1000 * r['self_time'] / r['calls']:6.1f} µs its own"
        )
    for r in await admin.fetch(
        "SELECT relname, n_tup_upd, n_tup_hot_upd FROM pg_stat_user_tables"
        " WHERE schemaname = $1 AND n_tup_upd > 0 ORDER BY relname",
        SCHEMA,
    ):
        print(
            f"  updates of {r['relname']:<10} {r['n_tup_upd']:5}, of which in place (HOT)"
            f" {r['n_tup_hot_upd']}"
        )
    query, values = captured[0]
    print(await carrying(pool, list(values), args.actions))
    print("plans (one statement as the engine sent it, then its body's statements alone):")
    async with pool.acquire() as conn:
        await conn.execute(f"SET search_path = {SCHEMA}")
        # The captured command's table and stream have moved on since: explain it on the
        # newest head, as the engine would send it now.
        head = await conn.fetchrow(
            "SELECT version, hash FROM events WHERE stream_id = $1 ORDER BY version DESC LIMIT 1",
            values[2],
        )
        table_row = await conn.fetchval("SELECT version FROM tables WHERE table_id = $1", values[1])
        if table_row is None or head is None:
            return
        fresh = list(values)
        version = int(head["version"])
        fresh[3], fresh[5] = version, version + 1
        fresh[8] = uuid.uuid4().hex
        fresh[13] = [version + 1]
        fresh[14] = [uuid.uuid4()]
        fresh[19], fresh[20] = [bytes(head["hash"])], [os.urandom(32)]
        print(plan_line("commit_command, whole", await explain(conn, query, *fresh)))
        for label, statement in BODY.items():
            text, used = typed(statement, fresh)
            print(plan_line(label, await explain(conn, text, *used)))
        print(
            plan_line(
                "bare INSERT",
                await explain(
                    conn, insert.replace("bench_plain", "public.bench_plain"), uuid.uuid4(), 0
                ),
            )
        )


async def carrying(pool: asyncpg.Pool, values: list[Any], rounds: int) -> str:
    """What carrying the statement's 21 arguments costs apart from running it: the
    round trip of a statement that only counts them, in turns with ``SELECT 1`` (neither
    writes, so no commit waits for the disk)."""
    types = [t.strip() for t in PARAMETERS.split(",")]
    casts = ", ".join(f"${n}::{t}" for n, t in enumerate(types, start=1))
    counting = f"SELECT count(*) FROM (SELECT {casts}) AS a"
    bare: list[float] = []
    carried: list[float] = []
    async with pool.acquire() as conn:
        for _ in range(rounds):
            started = time.perf_counter()
            await conn.fetchval("SELECT 1")
            bare.append(time.perf_counter() - started)
            started = time.perf_counter()
            await conn.fetchval(counting, *values)
            carried.append(time.perf_counter() - started)
    return (
        f"the arguments alone: p50 {pct(carried, 0.5):.3f} ms against SELECT 1"
        f" {pct(bare, 0.5):.3f} ms ({rounds} each, in turns)"
    )


def typed(statement: str, values: list[Any]) -> tuple[str, list[Any]]:
    """The statement on its own parameters: those of commit_command it uses, numbered
    from 1 and cast to commit_command's types, and their values."""
    types = [t.strip() for t in PARAMETERS.split(",")]
    used: list[int] = []

    def renumber(found: re.Match[str]) -> str:
        n = int(found.group(1))
        if n not in used:
            used.append(n)
        return f"(${used.index(n) + 1}::{types[n - 1]})"

    text = re.sub(r"\$(\d+)(?:::[a-z\[\]]+)?", renumber, statement)
    return text, [values[n - 1] for n in used]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--actions", type=int, default=600)
    parser.add_argument(
        "--without-references",
        action="store_true",
        help="drop the requests' and deadlines' foreign keys to tables first (to price them)",
    )
    args = parser.parse_args()
    run_on_servers(lambda database_url, _nats: run(database_url, args))


if __name__ == "__main__":
    main()
