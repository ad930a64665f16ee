"""``tavolo audit dispute TABLE --seat N --at EVENT``: the three facts a dispute turns on.

What seat N saw just before event EVENT (its hand, the public table, whose turn), what it
could legally do then, and what it did: the action recorded at EVENT if it was that
seat's, else the seat's next action after it. All rebuilt from the log and the revealed
seed, the same way `verify` re-executes it (AUDIT-4).
"""

from __future__ import annotations

import json
from collections.abc import Sequence

from tavolo.eventlog import RecordedEvent
from tavolo.eventlog.canonical import format_timestamp
from tavolo.tablelog.replay import AuditError, revealed_seed, table_at
from tavolo.tablelog.table import ACTION
from tavolo.tablelog.views import seat_view


def dispute_lines(events: Sequence[RecordedEvent], seat: int, at: int) -> list[str]:
    """The dispute at event ``at`` (2 or more) for ``seat``, for people."""
    seed = revealed_seed(events)
    if seed is None:
        raise AuditError("the table is still in play: a dispute is settled once it has ended")
    if not 2 <= at <= len(events):
        raise AuditError(f"events 2 to {len(events)} can be disputed; there is no event {at}")
    before = table_at(events, seed, at - 1)
    if not 0 <= seat < len(before.seats):
        raise AuditError(f"the table has seats 0 to {len(before.seats) - 1}")
    view = seat_view(before, seat)
    legal = [a.to_dict() for a in view.legal_actions]
    out = [
        f"table {before.table_id}, seat {seat}, just before event {at}:",
        f"  saw hand {list(view.hand)}; waiting for seats {list(view.to_act)}",
        "  public table: " + json.dumps(dict(view.public), sort_keys=True),
        "  could do: " + ("; ".join(json.dumps(a, sort_keys=True) for a in legal) or "nothing"),
    ]
    event = events[at - 1]
    mine = next(
        (e for e in events[at - 1 :] if e.type == ACTION and e.data.get("seat") == seat), None
    )
    if mine is None:
        out.append(f"  did: nothing from event {at} to the end of the table")
        return out
    action = dict(mine.data.get("action", {}))
    who = mine.data.get("by", "")
    when = format_timestamp(mine.recorded_at)
    lead = "did" if mine is event else f"did not act at event {at} ({event.type}); next did"
    out.append(
        f"  {lead}: {json.dumps(action, sort_keys=True)} at event {mine.version}, by {who},"
        f" at {when}"
    )
    if mine is event:
        out.append(
            "  that action was "
            + ("among the legal ones" if action in legal else "NOT among the legal ones")
        )
    return out
