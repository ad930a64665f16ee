"""The replay page: one self-contained HTML file that steps through a table (AUDIT-4).

Each step tells the event in words (the terminal client's own narration, from the game's
renderer), and draws every seat's view at that moment as cards, suits in colour with a
legend; the JSON stays behind a toggle. The page checks the log itself, in JavaScript,
a second implementation beside the Python one: it recomputes every event's hash over the
canonical bytes ``tavolo.eventlog.canonical`` documents (WebCrypto SHA-256) and follows
the chain, hashes the revealed seed against the commitment, and re-runs every shuffle of
the table from the seed with the README's generator (SHA-256 counter blocks, rejection
sampling, Fisher-Yates from the end). Every finding shows at the top, in red, naming the
event; the exporter's own findings (the engine's index, the table row's head) beside
them. No network, no server.

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

from tavolo.cardgames.contract import View
from tavolo.cardgames.rng import SeededRandom
from tavolo.cli.audit.checks import EngineFacts, Verdict
from tavolo.cli.audit.context import TableContext, epoch_ms
from tavolo.cli.audit.faces import deck_of, faces, legend
from tavolo.cli.play.renderers import RENDERERS, Renderer, renderer_for
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
    events: Sequence[RecordedEvent],
    context: TableContext | None = None,
    facts: EngineFacts | None = None,
    verdict: Verdict | None = None,
) -> dict[str, Any]:
    """What the page shows, as JSON: the steps with every field the hash covers, the
    seed, the commitment, the shuffles, what the engine's table row records, the
    exporter's findings, and the table's chat and coin movements when ``context`` brings
    them."""
    seed = revealed_seed(events)
    steps = [
        {
            "stream_id": e.stream_id,
            "version": e.version,
            "type": e.type,
            "seat": e.data.get("seat"),
            "by": e.data.get("by") or e.metadata.get("player_id") or "",
            "player": e.metadata.get("player_id", ""),
            "at": format_timestamp(e.recorded_at),
            "ms": epoch_ms(e.recorded_at),
            "event_id": str(e.event_id),
            "data": e.data,
            "metadata": e.metadata,
            "prev_hash": e.prev_hash.hex(),
            "hash": e.hash.hex(),
            "views": None,
            "words": [],
        }
        for e in events
    ]
    problem = ""
    stopped_at = 0
    shuffles: list[dict[str, Any]] | None = []
    game = str(events[0].data.get("game", "")) if events else ""
    if seed is None:
        problem = "its seed is not revealed: the log has no closing event"
    else:
        try:
            with recording_shuffles() as shuffles:
                _replay_into(steps, events, seed, game)
        except ReplayMismatch as exc:
            problem = f"the replay stops at {exc}"
            stopped_at = exc.version
        if shuffles is None:
            problem = "this build's compiled rules cannot record the shuffles: export again"
            problem += " from the source install"
    views = [s["views"] for s in steps if s["views"]]
    deck = deck_of(game, views)
    cards = faces(deck, views)
    return {
        "table": events[0].stream_id.removeprefix("table-") if events else "",
        "game": game,
        "commitment": events[0].data.get("seed_commitment", "") if events else "",
        "seed": seed.hex() if seed is not None else "",
        "shuffles": shuffles or [],
        "problem": problem,
        "stopped_at": stopped_at,
        "ended": seed is not None,
        "head_version": facts.head_version if facts else None,
        "status": facts.status if facts else None,
        "exporter": verdict.findings if verdict else [],
        "platform": verdict.platform if verdict else [],
        "cards": cards,
        "legend": legend(deck, cards),
        "steps": steps,
        **(context or FROM_A_FILE).to_json(),
    }


def _replay_into(
    steps: list[dict[str, Any]], events: Sequence[RecordedEvent], seed: bytes, game: str
) -> None:
    """Each step's seat views and its narration, as far as the log replays."""
    renderer = renderer_for(game) if game in RENDERERS else None
    names: list[str] = []
    before: View | None = None
    for table in tables_by_version(events, seed):
        step = steps[table.version - 1]
        step["views"] = [_view_json(seat_view(table, s)) for s in range(len(table.seats))]
        if not names:
            names = [
                f"Bot {s.seat}" if s.bot else (s.nickname or s.player_id or f"Seat {s.seat}")
                for s in table.seats
            ]
        # The terminal narrates from a seat's own view: seat 0's here, whose private part
        # the page shows anyway (the log opens once the table has ended).
        after = table.game.view(table.state, 0)
        if renderer is not None:
            step["words"] = _told(renderer, before, after, names)
        before = after


def _told(renderer: Renderer, before: View | None, after: View, names: list[str]) -> list[str]:
    """The renderer's narration of the step; none if it cannot tell this one (the page
    must still show the evidence: the event itself is beside it)."""
    try:
        return list(renderer.news(before, after, names))
    except Exception:  # a narration's bug must not keep the log from being exported
        return []


def _view_json(view: Any) -> dict[str, Any]:
    return {
        "seat": view.seat,
        "hand": list(view.hand),
        "public": dict(view.public),
        "private": dict(view.private),
        "to_act": list(view.to_act),
        "legal_actions": [a.to_dict() for a in view.legal_actions],
    }


def render_page(
    events: Sequence[RecordedEvent],
    context: TableContext | None = None,
    facts: EngineFacts | None = None,
    verdict: Verdict | None = None,
) -> str:
    """The whole page; the data is embedded as JSON the script reads."""
    data = json.dumps(page_data(events, context, facts, verdict), sort_keys=True, default=str)
    template = resources.files("tavolo.cli.audit").joinpath("page.html").read_text("utf-8")
    safe = data.replace("</", "<\\/")  # the JSON cannot close its script element
    table = html.escape(events[0].stream_id if events else "")
    return template.replace("__TITLE__", table).replace("__DATA__", safe)
