"""The replay page's second implementation of the canonical form, in the browser, agrees
with ``tavolo.eventlog.canonical`` byte for byte (AUDIT-2): events of drawn JSON (strings
with quotes, backslashes, control characters, characters beyond the BMP whose UTF-16 order
differs from their code point order, deep nesting, the extreme integers) are hashed in
Python, the page recomputes every hash with WebCrypto and follows the chain, and finds
nothing; one changed byte anywhere is then named, at its event."""

from __future__ import annotations

import dataclasses
import random
import uuid
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tavolo.cli.audit.page import render_page
from tavolo.eventlog import RecordedEvent
from tavolo.eventlog.canonical import GENESIS_HASH, MAX_SAFE_INTEGER
from tavolo.eventlog.verification import event_hash
from tests.e2e.chromium import browser, findings

__all__ = ["browser"]

pytestmark = pytest.mark.e2e

# Characters that exercise every rule of the string encoding and the key order.
ALPHABET = ['"', "\\", "/", "\b", "\f", "\n", "\r", "\t", "\x00", "\x1f", "\x7f", "é", "ß"]
ALPHABET += ["\u2028", "\ufeff", "\uffff", "\U0001f600", "\U00010000", "a", "B", "0", " "]


def _text(rng: random.Random) -> str:
    return "".join(rng.choice(ALPHABET) for _ in range(rng.randint(0, 6)))


def _value(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(7 if depth < 3 else 4)
    if kind == 0:
        return rng.choice([0, 1, -1, MAX_SAFE_INTEGER, -MAX_SAFE_INTEGER, rng.randint(-999, 999)])
    if kind == 1:
        return _text(rng)
    if kind == 2:
        return rng.choice([True, False, None])
    if kind == 3:
        return rng.randint(-(2**40), 2**40)
    if kind == 4:
        return [_value(rng, depth + 1) for _ in range(rng.randint(0, 4))]
    return {_text(rng): _value(rng, depth + 1) for _ in range(rng.randint(0, 5))}


def _events(rng: random.Random, count: int) -> list[RecordedEvent]:
    stream = f"table-{uuid.uuid4().hex}"
    start = datetime(2026, 1, 1, tzinfo=UTC)
    events: list[RecordedEvent] = []
    prev = GENESIS_HASH
    for version in range(1, count + 1):
        data = {_text(rng): _value(rng) for _ in range(rng.randint(0, 6))}
        if version == 1:
            data["seed_commitment"] = "00" * 32
        event = RecordedEvent(
            stream_id=stream,
            version=version,
            position=version,
            event_id=uuid.UUID(int=rng.getrandbits(128)),
            type="table_opened" if version == 1 else _text(rng) or "action",
            data=data,
            metadata={_text(rng): _value(rng) for _ in range(rng.randint(0, 3))},
            recorded_at=start + timedelta(microseconds=rng.randint(0, 10**12)),
            prev_hash=prev,
            hash=b"",
        )
        event = dataclasses.replace(event, hash=event_hash(event, prev))
        events.append(event)
        prev = event.hash
    return events


def test_the_page_hashes_every_event_as_the_canonical_form_says(
    tmp_path: Path, browser: Any
) -> None:
    rng = random.Random(20261205)
    events = _events(rng, 150)
    page = tmp_path / "drawn.html"
    page.write_text(render_page(events), encoding="utf-8")
    browser.get(page.as_uri())
    chain = [(version, text) for source, version, text in findings(browser) if source == "browser"]
    # The drawn log never closes, so the page says it ends in play or cut, and nothing else.
    assert [text for _, text in chain if "neither finished nor aborted" not in text] == []

    # One value changed in a drawn event: the page names that event as changed.
    changed = rng.randrange(2, len(events) + 1)
    forged = events[changed - 1]
    events[changed - 1] = dataclasses.replace(forged, data={**forged.data, "\U0001f600": "\t"})
    page.write_text(render_page(events), encoding="utf-8")
    browser.get(page.as_uri())
    named = [version for source, version, text in findings(browser) if "was changed" in text]
    assert named == [str(changed)]
