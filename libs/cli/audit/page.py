"""The replay page: one self-contained HTML file that steps through a table (AUDIT-4).

Each step shows the event (who acted, when, what), the full table as recorded, and every
seat's view at that moment. The page also checks the seed itself, in JavaScript: it
hashes the revealed seed against the commitment and re-runs every shuffle of the table
from the seed with the README's generator (SHA-256 counter blocks, rejection sampling,
Fisher-Yates from the end), a second implementation beside ``tavolo.cardgames.rng``. A
green mark means both agree; red names what did not. No network, no server.

Beside the events the page shows the table's chat and the coins it moved (AUDIT-5), as the
lobby and the wallet reported them at export time (``audit_context``): at each step, the
chat said so far and the movements made so far, those caused by that very event marked;
the page checks in JavaScript that every movement is double-entry and that the table's
escrow paid out exactly what it took in.
"""

from __future__ import annotations

import contextlib
import html
import json
from collections.abc import Iterator, Sequence
from importlib import resources
from typing import Any

from tavolo.cardgames.rng import SeededRandom
from tavolo.cli.audit.context import TableContext, epoch_ms
from tavolo.eventlog import RecordedEvent
from tavolo.eventlog.canonical import format_timestamp
from tavolo.tablelog.replay import revealed_seed, tables_by_version
from tavolo.tablelog.table import ReplayMismatch
from tavolo.tablelog.views import seat_view

FROM_A_FILE = TableContext(missing=["chat and coin movements: the log was read from a file"])


@contextlib.contextmanager
def recording_shuffles() -> Iterator[list[dict[str, Any]] | None]:
    """Every shuffle the rules make while this is open: the generator's position before
    it, the pile before and after. The page re-runs each one from the seed. None when the
    rules are compiled (mypyc classes cannot be wrapped): export from the source install."""
    recorded: list[dict[str, Any]] = []
    original = SeededRandom.shuffle

    def shuffle(self: SeededRandom, items: list[Any]) -> None:
        before, counter = list(items), self.counter
        original(self, items)
        recorded.append({"counter": counter, "before": before, "after": list(items)})

    try:
        SeededRandom.shuffle = shuffle  # type: ignore[method-assign]
    except (TypeError, AttributeError):
        yield None
        return
    try:
        yield recorded
    finally:
        SeededRandom.shuffle = original  # type: ignore[method-assign]


def page_data(
    events: Sequence[RecordedEvent], context: TableContext | None = None
) -> dict[str, Any]:
    """What the page shows, as JSON: the steps, the seed, the commitment, the shuffles,
    and the table's chat and coin movements when ``context`` brings them."""
    seed = revealed_seed(events)
    steps = [
        {
            "version": e.version,
            "type": e.type,
            "seat": e.data.get("seat"),
            "by": e.data.get("by") or e.metadata.get("player_id") or "",
            "player": e.metadata.get("player_id", ""),
            "at": format_timestamp(e.recorded_at),
            "ms": epoch_ms(e.recorded_at),
            "event_id": str(e.event_id),
            "data": e.data,
            "hash": e.hash.hex(),
            "views": None,
        }
        for e in events
    ]
    problem = ""
    shuffles: list[dict[str, Any]] | None = []
    if seed is None:
        problem = "the table has not ended: its seed is not revealed yet"
    else:
        try:
            with recording_shuffles() as shuffles:
                for table in tables_by_version(events, seed):
                    steps[table.version - 1]["views"] = [
                        _view_json(seat_view(table, s)) for s in range(len(table.seats))
                    ]
        except ReplayMismatch as exc:
            problem = f"the replay stops at {exc}"
        if shuffles is None:
            problem = "this build's compiled rules cannot record the shuffles: export again"
            problem += " from the source install"
    return {
        "table": events[0].stream_id.removeprefix("table-") if events else "",
        "commitment": events[0].data.get("seed_commitment", "") if events else "",
        "seed": seed.hex() if seed is not None else "",
        "shuffles": shuffles or [],
        "problem": problem,
        "ended": seed is not None,
        "steps": steps,
        **(context or FROM_A_FILE).to_json(),
    }


def _view_json(view: Any) -> dict[str, Any]:
    return {
        "seat": view.seat,
        "hand": list(view.hand),
        "public": dict(view.public),
        "private": dict(view.private),
        "to_act": list(view.to_act),
        "legal_actions": [a.to_dict() for a in view.legal_actions],
    }


def render_page(events: Sequence[RecordedEvent], context: TableContext | None = None) -> str:
    """The whole page; the data is embedded as JSON the script reads."""
    data = json.dumps(page_data(events, context), sort_keys=True, default=str)
    template = resources.files("tavolo.cli.audit").joinpath("page.html").read_text("utf-8")
    safe = data.replace("</", "<\\/")  # the JSON cannot close its script element
    table = html.escape(events[0].stream_id if events else "")
    return template.replace("__TITLE__", table).replace("__DATA__", safe)
