"""Every way a database administrator could tamper with the engine's log, each on its own
finished table, checked before and after every service of the platform restarts (lobby,
engine, wallet, leaderboard; AUDIT-1..5, PLAT-3).

The tampering goes round the append-only triggers as an administrator would, with
``SET session_replication_role = replica``. Then, for every table, `tavolo audit verify`,
`verify --receipt`, `export` and the replay page's own check in the browser must name the
right table and event with the right kind of finding; the untouched table must still
verify OK; and no call may answer INTERNAL: a table whose log no longer replays is still
served, with the engine's complaint as data. One platform, one set of finished tables,
shared by every case, so the suite stays a couple of minutes long.
"""

from __future__ import annotations

import asyncio
import dataclasses
import json
import random
import re
import uuid
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import asyncpg
import grpc
import pytest
from selenium.webdriver.common.by import By

from tavolo.cli.main import main as tavolo
from tavolo.eventlog import PostgresEventStore
from tavolo.eventlog.verification import event_hash
from tavolo.servicekit.auth import Role
from tavolo.v1 import engine_pb2
from tests.e2e.chromium import browser, findings, mark
from tests.integration.engine.helpers import (
    auth,
    bot,
    human,
    open_request,
    play_seat,
    token,
)
from tests.integration.lobby.platform import Platform, running_platform

__all__ = ["browser"]

pytestmark = pytest.mark.e2e

AUDITOR = token("auditor", Role.AUDITOR)
STORE = PostgresEventStore(None, "engine")  # type: ignore[arg-type]  # reads via the conn given


@dataclass
class Played:
    table_id: str
    receipt: str
    last: int  # the closing event's version
    player: str

    @property
    def stream(self) -> str:
        return f"table-{self.table_id}"


@dataclass(frozen=True)
class Expected:
    """A finding the checks must make: on this table, at this event, of this kind (a
    phrase of the terminal's wording, and one of the page's)."""

    table: str
    version: int
    kind: str
    page_kind: str


Tamper = Callable[[asyncpg.Connection, dict[str, Played]], Awaitable[list[Expected]]]


async def _as_administrator(database_url: str, change: Tamper, tables: dict[str, Played]) -> Any:
    conn = await asyncpg.connect(database_url)
    try:
        async with conn.transaction():
            await conn.execute("SET LOCAL session_replication_role = replica")
            return await change(conn, tables)
    finally:
        await conn.close()


async def _first_action(conn: asyncpg.Connection, stream: str, at_least: int) -> int:
    found: int = await conn.fetchval(
        "SELECT min(version) FROM engine.events WHERE stream_id = $1 AND type = 'action'"
        " AND version >= $2",
        stream,
        at_least,
    )
    return found


async def change_payload(conn: asyncpg.Connection, tables: dict[str, Played]) -> list[Expected]:
    """The seat of a recorded action moved to the next seat: the rules no longer agree."""
    t = tables["payload"]
    version = await _first_action(conn, t.stream, 3)
    await conn.execute(
        "UPDATE engine.events SET data = jsonb_set(data::jsonb, '{seat}',"
        " to_jsonb(((data::jsonb->>'seat')::int + 1) % 4))::json"
        " WHERE stream_id = $1 AND version = $2",
        t.stream,
        version,
    )
    return [Expected(t.table_id, version, "was changed", "was changed")]


async def change_metadata(conn: asyncpg.Connection, tables: dict[str, Played]) -> list[Expected]:
    """Only the metadata of event 2: the replay cannot see it, the hash can."""
    t = tables["metadata"]
    await conn.execute(
        'UPDATE engine.events SET metadata = (metadata::jsonb || \'{"by": "timer"}\')::json'
        " WHERE stream_id = $1 AND version = 2",
        t.stream,
    )
    return [Expected(t.table_id, 2, "was changed", "was changed")]


async def delete_event(conn: asyncpg.Connection, tables: dict[str, Played]) -> list[Expected]:
    t = tables["deleted"]
    await conn.execute("DELETE FROM engine.events WHERE stream_id = $1 AND version = 5", t.stream)
    return [Expected(t.table_id, 5, "deleted", "deleted")]


async def reorder_events(conn: asyncpg.Connection, tables: dict[str, Played]) -> list[Expected]:
    t = tables["reordered"]
    swap = "UPDATE engine.events SET version = $3 WHERE stream_id = $1 AND version = $2"
    await conn.execute(swap, t.stream, 4, 100_000)
    await conn.execute(swap, t.stream, 5, 4)
    await conn.execute(swap, t.stream, 100_000, 5)
    return [Expected(t.table_id, 4, "does not follow", "does not follow")]


async def cut_tail(conn: asyncpg.Connection, tables: dict[str, Played]) -> list[Expected]:
    t = tables["cut"]
    await conn.execute(
        "DELETE FROM engine.events WHERE stream_id = $1 AND version > $2", t.stream, t.last - 3
    )
    return [Expected(t.table_id, t.last - 2, "cut off", "the log was cut")]


async def insert_forged(conn: asyncpg.Connection, tables: dict[str, Played]) -> list[Expected]:
    """A copy of the closing event appended with a fresh id and a recomputed hash: the
    chain is intact, the table row's head and the receipt are not."""
    t = tables["forged"]
    events = await STORE.read_stream(t.stream, conn=conn)
    last = events[-1]
    forged = dataclasses.replace(
        last, version=last.version + 1, event_id=uuid.uuid4(), prev_hash=last.hash
    )
    forged = dataclasses.replace(forged, hash=event_hash(forged, last.hash))
    await conn.execute(
        "INSERT INTO engine.events (position, stream_id, version, event_id, type, data,"
        " metadata, recorded_at, prev_hash, hash)"
        " VALUES (NULL, $1, $2, $3, $4, $5::json, $6::json, $7, $8, $9)",
        t.stream,
        forged.version,
        forged.event_id,
        forged.type,
        json.dumps(forged.data),
        json.dumps(forged.metadata),
        forged.recorded_at,
        forged.prev_hash,
        forged.hash,
    )
    return [Expected(t.table_id, forged.version, "runs past", "after the table ended")]


async def move_event(conn: asyncpg.Connection, tables: dict[str, Played]) -> list[Expected]:
    """Event 6 of one table moved to the end of another."""
    source, target = tables["moved-from"], tables["moved-to"]
    await conn.execute(
        "UPDATE engine.events SET stream_id = $3, version = $4"
        " WHERE stream_id = $1 AND version = $2",
        source.stream,
        6,
        target.stream,
        target.last + 1,
    )
    return [
        Expected(source.table_id, 6, "deleted", "deleted"),
        Expected(target.table_id, target.last + 1, "moved here", "after the table ended"),
    ]


async def rewrite_head(conn: asyncpg.Connection, tables: dict[str, Played]) -> list[Expected]:
    t = tables["head"]
    await conn.execute(
        "UPDATE engine.tables SET version = version - 2 WHERE table_id = $1", t.table_id
    )
    return [Expected(t.table_id, t.last, "runs past", "runs past")]


TAMPERS: list[Tamper] = [
    change_payload,
    change_metadata,
    delete_event,
    reorder_events,
    cut_tail,
    insert_forged,
    move_event,
    rewrite_head,
]
NAMES = ["clean", "payload", "metadata", "deleted", "reordered", "cut", "forged"]
NAMES += ["moved-from", "moved-to", "head"]


async def _cli(capsys: pytest.CaptureFixture[str], *argv: str) -> tuple[int, str, str]:
    capsys.readouterr()
    code = await asyncio.to_thread(tavolo, list(argv))
    captured = capsys.readouterr()
    return code, captured.out, captured.err


def _names(text: str, expected: Expected) -> bool:
    """A finding line of the terminal's that names the table, the event and the kind."""
    event = rf"(table {expected.table}:? event {expected.version}\b|table {expected.table}: event"
    event += rf" {expected.version} )"
    return any(
        re.search(event, line) and expected.kind in line
        for line in text.splitlines()
        if "FINDING" in line and "ENGINE LOG" not in line
    )


def _labels_right(driver: Any, name: str, played: Played) -> None:
    """The page says what happened in the right words (AUDIT-4): a changed event is not a
    bad seed, a deleted event does not make the last one "event 44 of 43", a cut tail says
    cut, and seat panels left blank by a log that stops replaying say why."""
    mark_text = driver.find_element(By.ID, "mark").text
    assert "seed does not check out" not in mark_text
    driver.find_element(By.ID, "last").click()
    where = driver.find_element(By.ID, "where").text
    shown = int(driver.execute_script("return document.body.dataset.version"))
    count = int(driver.execute_script("return DATA.steps.length"))
    if shown != count:
        assert f"event {shown} of {count}" not in where
        assert "still holds" in where and "missing" in where, where
    if name == "cut":
        banner = driver.find_element(By.ID, "findings").text
        assert "the log was cut" in banner and "has not ended" not in banner
    if name == "payload":
        stopped = int(driver.execute_script("return DATA.stopped_at"))
        assert stopped > 0
        driver.execute_script(
            f"document.getElementById('first').click();"
            f"for (let i = 1; i < {stopped}; i++) document.getElementById('next').click();"
        )
        blank = driver.find_element(By.ID, "seats").text
        assert f"No seat's view from event {stopped} on" in blank, blank


def _addresses(platform: Platform) -> tuple[tuple[str, ...], tuple[str, ...]]:
    """The engine, and the lobby and the wallet the page's chat and coins come from."""
    port = {name: service.port for name, service in platform.services.items()}
    server = ("--server", f"127.0.0.1:{port['engine']}", "--token", AUDITOR)
    return server, (
        "--lobby",
        f"127.0.0.1:{port['lobby']}",
        "--wallet",
        f"127.0.0.1:{port['wallet']}",
    )


async def _check_everything(
    capsys: pytest.CaptureFixture[str],
    addresses: tuple[tuple[str, ...], tuple[str, ...]],
    tables: dict[str, Played],
    expected: list[Expected],
    driver: Any,
    folder: Path,
    when: str,
) -> None:
    server, around = addresses
    by_table: dict[str, list[Expected]] = {}
    for e in expected:
        by_table.setdefault(e.table, []).append(e)
    for name, played in tables.items():
        wanted = by_table.get(played.table_id, [])
        table = played.table_id
        code, out, err = await _cli(capsys, "audit", "verify", table, *server)
        assert "INTERNAL" not in out + err, (when, name, err)
        code_receipt, out_receipt, err_receipt = await _cli(
            capsys, "audit", "verify", table, *server, "--receipt", played.receipt
        )
        assert "INTERNAL" not in out_receipt + err_receipt, (when, name, err_receipt)
        page = folder / f"{when}-{name}.html"
        code_export, _, err_export = await _cli(
            capsys, "audit", "export", table, *server, *around, "--html", str(page)
        )
        assert "INTERNAL" not in err_export, (when, name, err_export)
        assert "the page leaves out" not in err_export, (when, name, err_export)
        driver.get(page.as_uri())
        banner = findings(driver)
        driver.save_screenshot(str(page.with_suffix(".png")))
        _labels_right(driver, name, played)
        if not wanted:  # AUDIT-1: the untouched table verifies OK, deletions elsewhere aside
            assert code == 0 and "verdict: OK" in out, (when, out)
            assert code_receipt == 0, (when, out_receipt)
            assert code_export == 0, (when, err_export)
            assert banner == [], (when, banner)
            assert mark(driver)[0] == "green", (when, mark(driver))
            continue
        assert code == 1 and "verdict: FAILED" in out, (when, name, out)
        assert code_receipt == 1, (when, name, out_receipt)
        assert code_export == 1, (when, name, err_export)
        for e in wanted:
            assert _names(out, e), (when, name, e, out)
            assert _names(out_receipt, e), (when, name, e, out_receipt)
            assert _names(err_export, e), (when, name, e, err_export)
            in_browser = [
                text
                for source, version, text in banner
                if source == "browser" and version == str(e.version)
            ]
            assert any(
                e.page_kind in text and f"table {table} event {e.version}" in text
                for text in in_browser
            ), (when, name, e, banner)
        if name == "forged":  # the receipt shows events were added after it was given
            assert "events were added after the players were given their receipt" in out_receipt


async def test_every_kind_of_tampering_is_named_before_and_after_a_restart(
    database_url: str,
    nats_url: str,
    namespace: str,
    tmp_path: Path,
    browser: Any,
    capsys: pytest.CaptureFixture[str],
) -> None:
    tables: dict[str, Played] = {}
    async with running_platform(database_url, nats_url, namespace, with_leaderboard=True) as up:
        for name in NAMES:
            player = f"p-{uuid.uuid4().hex[:8]}"
            opened = await up.engine.OpenTable(
                open_request([human(0, player), bot(1), bot(2), bot(3)]),
                metadata=auth("ops", Role.OPERATOR),
            )
            final = await asyncio.wait_for(
                play_seat(up.engine, opened.table_id, player, random.Random(name)), timeout=120
            )
            assert final.status == engine_pb2.TABLE_STATUS_FINISHED
            tables[name] = Played(opened.table_id, final.log_hash, final.version, player)
        expected: list[Expected] = []
        for change in TAMPERS:
            expected += await _as_administrator(database_url, change, tables)
        await _check_everything(
            capsys, _addresses(up), tables, expected, browser, tmp_path, "before"
        )

    # Every service restarts: the engine loads every table again from the tampered log.
    async with running_platform(database_url, nats_url, namespace, with_leaderboard=True) as up:
        await _check_everything(
            capsys, _addresses(up), tables, expected, browser, tmp_path, "after"
        )
        stub = up.engine
        for name, played in tables.items():
            request = engine_pb2.GetTableRequest(table_id=played.table_id)
            try:
                await stub.GetTable(request, metadata=auth("ops", Role.OPERATOR))
            except grpc.aio.AioRpcError as exc:
                # A log that no longer replays is named as lost data, never INTERNAL.
                assert exc.code() == grpc.StatusCode.DATA_LOSS, (name, exc.details())
                assert played.table_id in (exc.details() or "")
            log = await stub.GetTableLog(
                engine_pb2.GetTableLogRequest(table_id=played.table_id),
                metadata=(("authorization", f"Bearer {AUDITOR}"),),
            )
            assert log.events, name
            # The player who holds the receipt still reads the log of their table, with
            # the engine's own complaint beside it when it no longer replays.
            own = await stub.GetTableLog(
                engine_pb2.GetTableLogRequest(table_id=played.table_id),
                metadata=auth(played.player),
            )
            assert [e.hash for e in own.events] == [e.hash for e in log.events]
            assert own.replay_problem == log.replay_problem
            if name in ("payload", "deleted", "reordered", "forged"):
                assert log.replay_problem.startswith("event "), (name, log.replay_problem)
            if name == "clean":
                assert log.replay_problem == ""
        # The engine still plays new tables.
        player = f"p-{uuid.uuid4().hex[:8]}"
        opened = await stub.OpenTable(
            open_request([human(0, player), bot(1), bot(2), bot(3)]),
            metadata=auth("ops", Role.OPERATOR),
        )
        final = await asyncio.wait_for(
            play_seat(stub, opened.table_id, player, random.Random(1)), timeout=120
        )
        assert final.status == engine_pb2.TABLE_STATUS_FINISHED
