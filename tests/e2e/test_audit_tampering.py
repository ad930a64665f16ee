"""Tables finish over gRPC, each seat keeps its receipt, then the engine's log is tampered
with in PostgreSQL itself (the append-only trigger lifted as tavolo.eventlog.schema shows):
an event removed, altered, reordered, the tail cut, the whole chain rewritten with another
seed. `tavolo audit verify` names the table, the event and what is wrong for each
(AUDIT-1..3); the signed checkpoints the engine publishes show even the rewritten chain."""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import uuid
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import asyncpg
import pytest

from tavolo.cli.main import main as tavolo
from tavolo.eventlog import PostgresEventStore
from tavolo.eventlog.checkpoint import Checkpoint, public_hex, signing_key
from tavolo.eventlog.integrity import IndexEntry
from tavolo.eventlog.verification import event_hash
from tavolo.servicekit.auth import Role
from tavolo.tablelog.convert import index_from_proto
from tavolo.v1 import engine_pb2
from tests.integration.engine.helpers import (
    auth,
    bot,
    channel,
    human,
    open_request,
    play_seat,
    running_engine,
    settings,
    token,
)
from tests.secret import TEST_CHECKPOINT_KEY
from tests.waiting import eventually

pytestmark = pytest.mark.e2e

AUDITOR = token("auditor", Role.AUDITOR)  # an auditor's session, as the lobby issues it

Tamper = Callable[[asyncpg.Connection, str], Awaitable[None]]


async def _verify(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str]:
    capsys.readouterr()
    code = await asyncio.to_thread(tavolo, ["audit", "verify", *argv])
    return code, capsys.readouterr().out


async def _unguarded(database_url: str, change: Tamper, stream: str) -> None:
    """Run ``change`` with the append-only trigger lifted for one transaction."""
    conn = await asyncpg.connect(database_url)
    try:
        async with conn.transaction():
            await conn.execute("ALTER TABLE engine.events DISABLE TRIGGER events_append_only")
            await change(conn, stream)
            await conn.execute("ALTER TABLE engine.events ENABLE TRIGGER events_append_only")
    finally:
        await conn.close()


async def _remove_event_5(conn: asyncpg.Connection, stream: str) -> None:
    await conn.execute("DELETE FROM engine.events WHERE stream_id = $1 AND version = 5", stream)


async def _alter_event_3(conn: asyncpg.Connection, stream: str) -> None:
    await conn.execute(
        "UPDATE engine.events SET data = jsonb_set(data::jsonb, '{by}', '\"timer\"')::json"
        " WHERE stream_id = $1 AND version = 3",
        stream,
    )


async def _swap_events_4_and_5(conn: asyncpg.Connection, stream: str) -> None:
    swap = "UPDATE engine.events SET version = $3 WHERE stream_id = $1 AND version = $2"
    await conn.execute(swap, stream, 4, 100_000)
    await conn.execute(swap, stream, 5, 4)
    await conn.execute(swap, stream, 100_000, 5)


async def _cut_last_two(conn: asyncpg.Connection, stream: str) -> None:
    last = await conn.fetchval(
        "SELECT max(version) FROM engine.events WHERE stream_id = $1", stream
    )
    await conn.execute(
        "DELETE FROM engine.events WHERE stream_id = $1 AND version > $2", stream, last - 2
    )


async def _rewrite_with_another_seed(conn: asyncpg.Connection, stream: str) -> None:
    """Another seed in the closing event, and every hash of the chain recomputed: the
    chain alone cannot tell; the commitment and the receipt can."""
    # The store reads through the connection it is handed; it needs no pool of its own.
    store = PostgresEventStore(None, "engine")  # type: ignore[arg-type]
    events = await store.read_stream(stream, conn=conn)
    prev = events[0].prev_hash
    for event in events:
        data = dict(event.data)
        if event is events[-1]:
            data["seed"] = "ab" * 32
        rebuilt = event_hash(dataclasses.replace(event, data=data), prev)
        await conn.execute(
            "UPDATE engine.events SET data = $3::json, prev_hash = $4, hash = $5"
            " WHERE stream_id = $1 AND version = $2",
            stream,
            event.version,
            json.dumps(data),
            prev,
            rebuilt,
        )
        prev = rebuilt


async def _whole_index(stub: Any, *, columnar: bool) -> list[IndexEntry]:
    entries: list[IndexEntry] = []
    while True:
        page = await stub.GetLogIndex(
            engine_pb2.GetLogIndexRequest(
                after_position=entries[-1].position if entries else 0, limit=7, columnar=columnar
            ),
            metadata=(("authorization", f"Bearer {AUDITOR}"),),
        )
        assert page.HasField("columns") == columnar and (columnar or not page.columns.positions)
        found = index_from_proto(page)
        if not found:
            return entries
        assert len(found) <= 7
        entries += found


async def test_verify_names_every_kind_of_tampering_in_postgresql(
    database_url: str, nats_url: str, namespace: str, capsys: pytest.CaptureFixture[str]
) -> None:
    async with running_engine(settings(database_url, nats_url, namespace)) as engine:
        server = ("--server", f"127.0.0.1:{engine.port}", "--token", AUDITOR)
        async with channel(engine.port) as stub:
            tables: dict[str, tuple[str, str]] = {}
            players: dict[str, str] = {}
            for name in ("clean", "removed", "altered", "reordered", "cut", "rewritten"):
                player = f"p-{uuid.uuid4().hex[:8]}"
                opened = await stub.OpenTable(
                    open_request([human(0, player), bot(1), bot(2), bot(3)]),
                    metadata=auth("ops", Role.OPERATOR),
                )
                final = await asyncio.wait_for(
                    play_seat(stub, opened.table_id, player, random.Random(name)), timeout=120
                )
                assert final.status == engine_pb2.TABLE_STATUS_FINISHED
                # Receipts: the finishing view and GetTable carry the log's last hash.
                assert len(final.log_hash) == 64
                again = await stub.GetTable(
                    engine_pb2.GetTableRequest(table_id=opened.table_id), metadata=auth(player)
                )
                assert again.log_hash == final.log_hash
                tables[name] = (opened.table_id, final.log_hash)
                players[name] = player

            clean, clean_receipt = tables["clean"]
            code, out = await _verify(capsys, clean, *server, "--receipt", clean_receipt)
            assert code == 0, out
            assert "verdict: OK" in out and "the stored log is the one the players were" in out
            assert "none deleted" in out
            # The table's own player checks it with their receipt, on their own session;
            # the whole log's index is for auditors, and the report says it was not checked.
            own = ("--server", server[1], "--token", token(players["clean"]))
            code, out = await _verify(capsys, clean, *own, "--receipt", clean_receipt)
            assert code == 0, out
            assert "the stored log is the one the players were given" in out
            assert "not checked: whether events were deleted elsewhere" in out

            kinds: dict[str, Tamper] = {
                "removed": _remove_event_5,
                "altered": _alter_event_3,
                "reordered": _swap_events_4_and_5,
                "cut": _cut_last_two,
                "rewritten": _rewrite_with_another_seed,
            }
            for name, change in kinds.items():
                await _unguarded(database_url, change, f"table-{tables[name][0]}")

            # The index reads the same whether asked for as entries or as columns, gaps
            # included, page by page.
            assert await _whole_index(stub, columnar=True) == await _whole_index(
                stub, columnar=False
            )

            findings: dict[str, str] = {}
            for name in kinds:
                table_id, receipt = tables[name]
                code, out = await _verify(capsys, table_id, *server, "--receipt", receipt)
                assert code == 1, out
                assert "verdict: FAILED" in out
                findings[name] = out
                with capsys.disabled():  # the findings, for the record (pytest -s)
                    print(f"--- {name}\n{out}")

        removed = tables["removed"][0]
        assert f"table {removed}: version 5 is missing" in findings["removed"]
        assert f"table {removed} event 5: deleted" in findings["removed"]

        altered = tables["altered"][0]
        assert f"table {altered}: event 3 (id" in findings["altered"]
        assert "was changed: its contents do not match its hash" in findings["altered"]

        reordered = tables["reordered"][0]
        assert f"table {reordered}: event 4 (id" in findings["reordered"]
        assert "does not follow event 3" in findings["reordered"]

        cut = tables["cut"][0]
        assert "neither finished nor aborted" in findings["cut"]
        assert f"table {cut} event" in findings["cut"] and "cut off" in findings["cut"]

        rewritten = tables["rewritten"][0]
        assert "hash chain intact" in findings["rewritten"]
        assert f"table {rewritten} event" in findings["rewritten"]
        assert "does not hash to the commitment in event 1" in findings["rewritten"]
        assert "is not the hash of any stored event" in findings["rewritten"]

        # A deleted event elsewhere is the platform's finding, reported once beside the
        # verdict of an untouched table, naming the event the log still places there; the
        # table's own verdict depends only on its own chain and positions (AUDIT-1).
        code, out = await _verify(capsys, clean, *server)
        assert code == 0, out
        assert "verdict: OK" in out
        gaps = [line for line in out.splitlines() if line.startswith("ENGINE LOG FINDING")]
        assert any(
            f"the log places table-{removed} event 5 there, and that event was deleted" in gap
            for gap in gaps
        ), out
        assert "the platform's, not in this table's verdict" in out


async def test_signed_checkpoints_hold_the_log_even_against_a_rewritten_chain(
    database_url: str,
    nats_url: str,
    namespace: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    cfg = dataclasses.replace(settings(database_url, nats_url, namespace), checkpoint_seconds=0.2)
    async with running_engine(cfg) as engine:
        server = ("--server", f"127.0.0.1:{engine.port}", "--token", AUDITOR)
        async with channel(engine.port) as stub:
            player = f"p-{uuid.uuid4().hex[:8]}"
            opened = await stub.OpenTable(
                open_request([human(0, player), bot(1), bot(2), bot(3)]),
                metadata=auth("ops", Role.OPERATOR),
            )
            final = await asyncio.wait_for(
                play_seat(stub, opened.table_id, player, random.Random(7)), timeout=120
            )
            table_id = opened.table_id
            kept = tmp_path / "checkpoints.jsonl"
            collect = ["audit", "checkpoints", "-o", str(kept), "--seconds", "30"]
            collect += ["--nats", nats_url, "--namespace", namespace]
            collector = asyncio.create_task(asyncio.to_thread(tavolo, collect))

            # The file fills as checkpoints arrive, long before the collector stops.
            async def written() -> bool:
                return collector.done() or (kept.exists() and bool(kept.read_text().strip()))

            await eventually(written, "a checkpoint in the file", within=40)
            assert not collector.done(), "the file stayed empty until the collector stopped"
            assert await collector == 0
            checkpoints = [Checkpoint.from_json(line) for line in kept.read_text().splitlines()]
            assert max(c.position for c in checkpoints) >= final.version
            # Signed with this installation's key, not the development key in the source.
            assert all(not c.signature_ok(public_hex(signing_key())) for c in checkpoints)
            server += ("--checkpoint-key", public_hex(signing_key(TEST_CHECKPOINT_KEY)))

            code, out = await _verify(capsys, table_id, *server, "--checkpoints", str(kept))
            assert code == 0, out
            assert "the log up to it folds to the signed digest" in out

            # A checkpoint whose digest was changed after signing is refused.
            forged = tmp_path / "forged.jsonl"
            bad = dataclasses.replace(checkpoints[-1], digest=bytes(32))
            forged.write_text(bad.to_json() + "\n")
            code, out = await _verify(capsys, table_id, *server, "--checkpoints", str(forged))
            assert code == 1 and "its signature does not verify with the key given" in out

            # The whole chain rewritten in the database: the chain is intact, the
            # checkpoints are not.
            await _unguarded(database_url, _rewrite_with_another_seed, f"table-{table_id}")
            code, out = await _verify(capsys, table_id, *server, "--checkpoints", str(kept))
            with capsys.disabled():
                print(f"--- rewritten, against checkpoints\n{out}")
            assert code == 1
            assert "ok: hash chain intact" in out
            assert "no longer folds to the signed digest" in out
            assert f"table {table_id} events 1 to {final.version} lie between positions" in out
