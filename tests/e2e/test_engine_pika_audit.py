"""Four players play Pika over gRPC, then an auditor checks the games with `tavolo audit`
(PLAT-3, PLAT-4, AUDIT-1..4): a clean log verifies; a tampered one is caught."""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from pathlib import Path

import asyncpg
import pytest

from tavolo.cli.main import main as tavolo
from tavolo.servicekit.auth import Role
from tavolo.tablelog.convert import action_from_proto
from tavolo.v1 import engine_pb2
from tests.integration.engine.helpers import (
    auth,
    channel,
    human,
    open_request,
    play_seat,
    running_engine,
    settings,
    token,
)

pytestmark = pytest.mark.e2e

AUDITOR = token("auditor", Role.AUDITOR)  # an auditor's session, as the lobby issues it


async def _cli(*argv: str) -> int:
    return await asyncio.to_thread(tavolo, list(argv))


async def test_four_grpc_players_finish_pika_games_that_audit_verify_accepts_and_tampering_fails(
    database_url: str,
    nats_url: str,
    namespace: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
) -> None:
    async with running_engine(settings(database_url, nats_url, namespace)) as engine:
        server = f"127.0.0.1:{engine.port}"
        async with channel(engine.port) as stub:
            tables = []
            for game in range(2):
                players = [f"p{s}-{uuid.uuid4().hex[:6]}" for s in range(4)]
                opened = await stub.OpenTable(
                    open_request([human(s, p) for s, p in enumerate(players)], turn_seconds=30),
                    metadata=auth("ops", Role.OPERATOR),
                )
                seen: list[list[engine_pb2.TableView]] = [[] for _ in players]
                finals = await asyncio.wait_for(
                    asyncio.gather(
                        *(
                            play_seat(
                                stub, opened.table_id, p, random.Random(game * 10 + s), seen[s]
                            )
                            for s, p in enumerate(players)
                        )
                    ),
                    timeout=120,
                )
                assert all(f.status == engine_pb2.TABLE_STATUS_FINISHED for f in finals)
                assert {tuple(f.outcome.places) for f in finals} == {
                    tuple(finals[0].outcome.places)
                }
                tables.append((opened.table_id, seen))

        # A clean game verifies, from the server and from an exported file.
        table_id, seen = tables[0]
        capsys.readouterr()
        assert await _cli("audit", "verify", table_id, "--server", server, "--token", AUDITOR) == 0
        out = capsys.readouterr().out
        assert "ok: hash chain intact" in out and "verdict: OK" in out
        exported = tmp_path / "log.jsonl"
        assert (
            await _cli(
                "audit",
                "export",
                table_id,
                "--server",
                server,
                "--token",
                AUDITOR,
                "-o",
                str(exported),
            )
            == 0
        )
        assert await _cli("audit", "verify", table_id, "--file", str(exported)) == 0

        # AUDIT-4: what a seat saw after event K is what the engine streamed to it then.
        k = len(seen[1]) // 2
        streamed = next(v for v in seen[1] if v.version == k)
        capsys.readouterr()
        assert (
            await _cli(
                "audit", "show", table_id, "--file", str(exported), "--seat", "1", "--at", str(k)
            )
            == 0
        )
        shown = json.loads(capsys.readouterr().out.split("\n", 1)[1])
        assert shown["hand"] == list(streamed.hand)
        assert shown["legal_actions"] == [
            action_from_proto(a).to_dict() for a in streamed.legal_actions
        ]

        # A line of the exported file changed: the chain names the event.
        lines = exported.read_text().splitlines()
        record = json.loads(lines[k - 1])
        record["data"]["seat"] = (record["data"]["seat"] + 1) % 4
        lines[k - 1] = json.dumps(record)
        forged = tmp_path / "forged.jsonl"
        forged.write_text("\n".join(lines) + "\n")
        capsys.readouterr()
        assert await _cli("audit", "verify", table_id, "--file", str(forged)) == 1
        assert f"event {k}" in capsys.readouterr().out

        # An event changed in the database itself (the append-only trigger lifted by the
        # table owner): the auditor's verify through the engine names it.
        other_id, _ = tables[1]
        conn = await asyncpg.connect(database_url)
        try:
            async with conn.transaction():
                await conn.execute("ALTER TABLE engine.events DISABLE TRIGGER events_append_only")
                await conn.execute(
                    "UPDATE engine.events"
                    " SET data = jsonb_set(data::jsonb, '{by}', '\"bot\"')::json"
                    " WHERE stream_id = $1 AND version = 3",
                    f"table-{other_id}",
                )
                await conn.execute("ALTER TABLE engine.events ENABLE TRIGGER events_append_only")
        finally:
            await conn.close()
        capsys.readouterr()
        assert await _cli("audit", "verify", other_id, "--server", server, "--token", AUDITOR) == 1
        report = capsys.readouterr().out
        assert "event 3" in report and "verdict: FAILED" in report
