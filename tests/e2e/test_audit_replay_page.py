"""The replay page in a real browser (headless Chromium through Selenium): a Pika and a
Spades table are exported with `tavolo audit export --html`; the page's own JavaScript
check of the seed shows green; stepping through, seat 0's view at every event is the view
the engine streamed to that player then; a page built from a tampered log shows red."""

from __future__ import annotations

import asyncio
import json
import random
import uuid
from pathlib import Path
from typing import Any

import pytest
from selenium.webdriver.common.by import By

from tavolo.cli.main import main as tavolo
from tavolo.servicekit.auth import Role
from tavolo.tablelog.convert import action_from_proto
from tavolo.v1 import engine_pb2
from tests.e2e.chromium import browser, findings, hex_colour, mark, pixels_near
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

__all__ = ["browser"]  # the fixture, shared with the other replay page tests

pytestmark = pytest.mark.e2e

AUDITOR = token("auditor", Role.AUDITOR)


async def _play(stub: object, game: str, rng_seed: int) -> tuple[str, list[engine_pb2.TableView]]:
    player = f"p-{uuid.uuid4().hex[:8]}"
    request = open_request([human(0, player), bot(1), bot(2), bot(3)])
    request.game = game
    opened = await stub.OpenTable(request, metadata=auth("ops", Role.OPERATOR))  # type: ignore[attr-defined]
    seen: list[engine_pb2.TableView] = []
    final = await asyncio.wait_for(
        play_seat(stub, opened.table_id, player, random.Random(rng_seed), seen),  # type: ignore[arg-type]
        timeout=120,
    )
    assert final.status == engine_pb2.TABLE_STATUS_FINISHED
    return opened.table_id, seen


# One round trip: the page's own buttons are pressed in the page, and after each press the
# version shown and seat 0's view are read back.
_STEP_THROUGH = """
document.getElementById("first").click();
const shown = [];
for (let i = 0; i < DATA.steps.length; i++) {
  const box = document.getElementById("seat-0");
  shown.push([document.body.dataset.version, box ? box.dataset.view : null]);
  document.getElementById("next").click();
}
return shown;
"""


def _step_and_compare(driver: object, seen: list[engine_pb2.TableView]) -> int:
    """Step through every event; seat 0's view on the page must be what was streamed."""
    streamed = {v.version: v for v in seen}
    steps = driver.execute_script(_STEP_THROUGH)  # type: ignore[attr-defined]
    compared = 0
    for index, (version, view_json) in enumerate(steps, start=1):
        assert version == str(index)
        if index in streamed:
            shown = json.loads(view_json)
            view = streamed[index]
            assert shown["hand"] == list(view.hand)
            assert shown["legal_actions"] == [
                action_from_proto(a).to_dict() for a in view.legal_actions
            ]
            assert shown["to_act"] == list(view.to_act)
            compared += 1
    return compared


def _drawn_as_a_person_reads_it(driver: Any) -> None:
    """AUDIT-4: halfway through, each seat's hand is drawn as cards whose suit colours show
    on screen, the event is told in words, a legend names the suits, and the JSON waits
    behind its toggle."""
    driver.execute_script(
        "document.getElementById('first').click();"
        "for (let i = 0; i < Math.floor(DATA.steps.length / 2); i++)"
        " document.getElementById('next').click();"
    )
    words = [
        driver.execute_script(
            "document.getElementById('next').click();"
            "return document.getElementById('words').innerText"
        )
        for _ in range(4)
    ]
    assert any(w.strip() for w in words), words  # the terminal's narration of the moves
    legend = driver.find_element(By.ID, "legend").text
    assert all(s["suit"] in legend for s in driver.execute_script("return DATA.legend"))
    cards = driver.find_elements(By.CSS_SELECTOR, "#seat-0 .card")
    assert cards, "seat 0's hand is not drawn as cards"
    colours = driver.execute_script(
        "return [...document.querySelectorAll('#seat-0 .card')]"
        ".map(c => DATA.cards[c.dataset.card].colour)"
    )
    for card, colour in list(zip(cards, colours, strict=True))[:3]:
        assert pixels_near(card, hex_colour(colour)) > 10, (card.text, colour)
    raw = driver.find_element(By.CSS_SELECTOR, "#seat-0 pre.json")
    assert not raw.is_displayed()
    driver.find_element(By.ID, "json-toggle").click()
    assert raw.is_displayed() and json.loads(raw.text)["seat"] == 0
    driver.find_element(By.ID, "json-toggle").click()


async def test_replay_pages_check_the_seed_in_the_browser_and_show_each_seats_view(
    database_url: str, nats_url: str, namespace: str, tmp_path: Path, browser: object
) -> None:
    async with running_engine(settings(database_url, nats_url, namespace)) as engine:
        server = f"127.0.0.1:{engine.port}"
        async with channel(engine.port) as stub:
            played = [await _play(stub, game, n) for n, game in enumerate(("pika", "spades"))]

        for table_id, seen in played:
            page = tmp_path / f"{table_id}.html"
            cli = ["audit", "export", table_id, "--server", server, "--html", str(page)]
            cli += ["--token", AUDITOR]
            assert await asyncio.to_thread(tavolo, cli) == 0
            text = page.read_text()
            assert "http://" not in text and "https://" not in text  # nothing to fetch
            browser.get(page.as_uri())  # type: ignore[attr-defined]
            colour, why = mark(browser)
            assert colour == "green", why
            assert "shuffles follow from the seed" in why
            assert _step_and_compare(browser, seen) >= len({v.version for v in seen}) - 1
            _drawn_as_a_person_reads_it(browser)
            browser.save_screenshot(str(tmp_path / f"{table_id}.png"))  # type: ignore[attr-defined]

        # The closing event's seed swapped in an exported log: the page shows red.
        table_id, _ = played[0]
        log = tmp_path / "log.jsonl"
        cli = ["audit", "export", table_id, "--server", server, "-o", str(log), "--token", AUDITOR]
        assert await asyncio.to_thread(tavolo, cli) == 0
        lines = log.read_text().splitlines()
        closing = json.loads(lines[-1])
        closing["data"]["seed"] = "cd" * 32
        lines[-1] = json.dumps(closing)
        log.write_text("\n".join(lines) + "\n")
        forged = tmp_path / "forged.html"
        cli = ["audit", "export", table_id, "--file", str(log), "--html", str(forged)]
        assert await asyncio.to_thread(tavolo, cli) == 1  # AUDIT-1: export says so too
        browser.get(forged.as_uri())  # type: ignore[attr-defined]
        colour, why = mark(browser)
        assert colour == "red"
        assert "is not the commitment of event 1" in why
        # The banner names the closing event twice over: its hash, and the seed it reveals.
        last = str(len(lines))
        banner = findings(browser)
        assert ("browser", last) in {(source, version) for source, version, _ in banner}
        assert any("was changed" in text and version == last for _, version, text in banner)
        # On screen: the red banner sits at the top, above the event and the seats.
        banner_box = browser.find_element(By.ID, "findings")  # type: ignore[attr-defined]
        seats_box = browser.find_element(By.ID, "seats")  # type: ignore[attr-defined]
        assert banner_box.rect["y"] < seats_box.rect["y"]
        assert pixels_near(banner_box, hex_colour("#fbd9d9"), within=8) > 1000
