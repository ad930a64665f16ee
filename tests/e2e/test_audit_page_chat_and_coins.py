"""The replay page beside the table (AUDIT-5, PCG-3): a stake table is played over the
whole platform with chat at the table, one line of it vulgar; the auditor's page shows
the chat said up to each event (the filtered line's original for the auditor), and the
coins the table moved, with the payouts marked at the TableFinished that caused them;
its own check of the coins is green, and red for movements that do not add up. The
wallet lists a table's movements to auditors and to its players only."""

from __future__ import annotations

import asyncio
import json
import random
from collections.abc import AsyncIterator
from dataclasses import replace
from pathlib import Path
from typing import Any

import grpc
import pytest

from tavolo.cli.audit.command import read_jsonl
from tavolo.cli.audit.context import TableContext, coin_movement
from tavolo.cli.audit.page import render_page
from tavolo.cli.main import main as tavolo
from tavolo.servicekit.auth import Role
from tavolo.v1 import engine_pb2, lobby_pb2, wallet_pb2
from tests.e2e.chromium import browser, mark
from tests.integration.engine.helpers import auth, token
from tests.integration.lobby.platform import (
    PLATFORM_WALLET,
    Platform,
    play_seat,
    running_platform,
    seated_at,
)

__all__ = ["browser"]

pytestmark = pytest.mark.e2e

STAKE = 250
AUDITOR = token("auditor-1", Role.AUDITOR)

_LAST_STEP = """
document.getElementById("last").click();
const rows = Array.from(document.querySelectorAll("#coins tr"));
return {
  chat: Array.from(document.querySelectorAll("#chat li")).map(li => [li.className, li.textContent]),
  now: rows.filter(r => r.className === "now").map(r => r.dataset.transfer),
  rows: rows.map(r => r.dataset.transfer),
  coins: [document.getElementById("coins-mark").className,
          document.getElementById("coins-mark").textContent],
};
"""

_FIRST_STEP = """
document.getElementById("first").click();
return {
  chat: document.querySelectorAll("#chat li").length,
  later: Array.from(document.querySelectorAll("#coins tr.later")).map(r => r.dataset.transfer),
};
"""


@pytest.fixture
async def platform(database_url: str, nats_url: str, namespace: str) -> AsyncIterator[Platform]:
    no_welcome = replace(PLATFORM_WALLET, welcome_coins=0)
    async with running_platform(database_url, nats_url, namespace, wallet=no_welcome) as running:
        yield running


async def _stake_table_with_chat(platform: Platform) -> str:
    operator = await platform.operator()
    players = [await platform.register(f"Revisore{i}") for i in range(4)]
    for player in players:
        await platform.wallet.Grant(
            wallet_pb2.GrantRequest(
                transfer_id=f"grant-{player.id}", player_id=player.id, amount=1000, reason="t"
            ),
            metadata=operator.metadata,
        )
    watchers = [asyncio.create_task(seated_at(platform, p)) for p in players]
    await asyncio.sleep(0.2)
    for player in players:
        await platform.lobby.JoinQueue(
            lobby_pb2.JoinQueueRequest(game="pika", players=4, stake=STAKE),
            metadata=player.metadata,
        )
    seats = await asyncio.gather(*watchers)
    table_id = seats[0].table_id
    channel = lobby_pb2.ChatChannel(table_id=table_id)
    for player, text in ((players[0], "buona partita a tutti"), (players[1], "che stronzata")):
        await platform.lobby.SendChat(
            lobby_pb2.SendChatRequest(channel=channel, text=text), metadata=player.metadata
        )
    rng = random.Random(5)
    views = await asyncio.gather(
        *(play_seat(platform, table_id, p, random.Random(rng.random())) for p in players)
    )
    assert all(v.status == engine_pb2.TABLE_STATUS_FINISHED for v in views)
    async with asyncio.timeout(30):  # the TableFinished crosses NATS to the wallet
        while True:
            moved = await platform.wallet.ListTableTransfers(
                wallet_pb2.ListTableTransfersRequest(table_id=table_id),
                metadata=players[0].metadata,  # a player of the table may read them
            )
            if any(t.transfer_id.startswith("payout:") for t in moved.transfers):
                break
            await asyncio.sleep(0.1)
    return table_id


async def test_audit5_the_page_shows_the_tables_chat_and_coins_beside_its_events(
    platform: Platform, tmp_path: Path, browser: Any
) -> None:
    table_id = await _stake_table_with_chat(platform)
    ports = {name: service.port for name, service in platform.services.items()}

    # Someone who did not sit there learns nothing of the table's money; bad ids are refused.
    stranger = await platform.register("Curioso")
    with pytest.raises(grpc.aio.AioRpcError) as refused:
        await platform.wallet.ListTableTransfers(
            wallet_pb2.ListTableTransfersRequest(table_id=table_id), metadata=stranger.metadata
        )
    assert refused.value.code() == grpc.StatusCode.NOT_FOUND
    with pytest.raises(grpc.aio.AioRpcError) as bad:
        await platform.wallet.ListTableTransfers(
            wallet_pb2.ListTableTransfersRequest(table_id="no such table!"),
            metadata=auth("auditor-1", Role.AUDITOR),
        )
    assert bad.value.code() == grpc.StatusCode.INVALID_ARGUMENT

    page = tmp_path / "table.html"
    cli = ["audit", "export", table_id, "--html", str(page), "--token", AUDITOR]
    cli += ["--server", f"127.0.0.1:{ports['engine']}"]
    cli += ["--lobby", f"127.0.0.1:{ports['lobby']}", "--wallet", f"127.0.0.1:{ports['wallet']}"]
    assert await asyncio.to_thread(tavolo, cli) == 0
    log = tmp_path / "log.jsonl"
    cli = ["audit", "export", table_id, "-o", str(log), "--token", AUDITOR]
    cli += ["--server", f"127.0.0.1:{ports['engine']}"]
    assert await asyncio.to_thread(tavolo, cli) == 0
    events = read_jsonl(log)
    finished = str(events[-1].event_id)
    assert events[-1].type == "table_finished"

    browser.get(page.as_uri())
    assert mark(browser)[0] == "green"
    last = browser.execute_script(_LAST_STEP)
    browser.set_window_size(1280, 2000)
    browser.save_screenshot(str(tmp_path / "replay-page.png"))
    assert last["coins"][0] == "green", last["coins"]
    assert "the escrow took in 1000 coins and paid out 1000" in last["coins"][1]
    # Four holds, four posts into escrow, and the payouts: the payouts are this event's.
    payouts = [row for row in last["rows"] if row.startswith("payout:")]
    assert len([row for row in last["rows"] if row.startswith("stake:")]) == 4
    assert payouts and last["now"] == payouts
    moved = await platform.wallet.ListTableTransfers(
        wallet_pb2.ListTableTransfersRequest(table_id=table_id),
        metadata=auth("auditor-1", Role.AUDITOR),
    )
    assert {t.event_id for t in moved.transfers if t.transfer_id in payouts} == {finished}
    # The chat, the vulgar line masked for players and shown as written to the auditor.
    lines = dict((text.split(": ", 1)[1].split("  [")[0], kind) for kind, text in last["chat"])
    assert lines["buona partita a tutti"] == ""
    masked = [text for kind, text in last["chat"] if kind == "filtered"]
    assert len(masked) == 1 and "wrote: che stronzata" in masked[0]
    assert "stronzata" not in masked[0].split("  [")[0]
    # Before the first move nobody had spoken yet and no payout had been made.
    first = browser.execute_script(_FIRST_STEP)
    assert first["chat"] == 0
    assert set(payouts) <= set(first["later"])

    # Movements that do not add up: the page's own check turns red.
    wallet_rows = [coin_movement(t) for t in moved.transfers]
    for row in wallet_rows:
        if row["transfer_id"] == payouts[0]:
            row["amount"] -= 1
    forged = tmp_path / "forged.html"
    forged.write_text(render_page(events, TableContext(transfers=wallet_rows)), encoding="utf-8")
    browser.get(forged.as_uri())
    colour, why = mark(browser, "coins-mark")
    assert colour == "red"
    assert "took in 1000 coins and paid out 999" in why
    data = json.loads(forged.read_text().split('type="application/json">')[1].split("</script>")[0])
    assert data["missing"] == []
