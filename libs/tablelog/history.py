"""Rebuild a table from its recorded events, checking the rules reproduce each one.

Every load of a table and every audit goes through here: the opening is dealt again from
the seed, each recorded action is re-executed, and the rules' events must equal the
recorded ones byte for byte (canonical JSON), else :class:`ReplayMismatch` names the event.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tavolo.cardgames import Action
from tavolo.eventlog.canonical import encode_json
from tavolo.tablelog.setup import TableSetup
from tavolo.tablelog.table import (
    ABORTED,
    ACTION,
    DONE,
    FINISHED,
    OPENED,
    PLAYING,
    SEAT_TAKEN,
    STOPPED,
    ReplayMismatch,
    Table,
    after_action,
    deadlines_from,
    opening_events,
    outcome_from_dict,
    outcome_to_dict,
    seed_commitment,
)


def table_from_opened(data: Mapping[str, Any], metadata: Mapping[str, Any], seed: bytes) -> Table:
    """The table as its first event describes it, dealt again from ``seed``."""
    setup = TableSetup.from_dict(data)
    game = setup.rules()
    if seed_commitment(seed) != data.get("seed_commitment"):
        raise ReplayMismatch(1, "the seed does not match the table's seed commitment")
    state = game.new_game(setup.options, len(setup.seats), seed)
    produced = opening_events(game, state)
    if encode_json(produced) != encode_json(data.get("events", [])):
        raise ReplayMismatch(1, "the deal recorded differs from the deal the seed gives")
    return Table(
        setup=setup,
        game=game,
        state=state,
        version=1,
        status=PLAYING,
        seats=setup.seats,
        deadlines=deadlines_from(metadata),
        last_event=OPENED,
        commitment=str(data["seed_commitment"]),
    )


def evolve(
    table: Table, version: int, type_: str, data: Mapping[str, Any], metadata: Mapping[str, Any]
) -> Table:
    """The table after recorded event ``version``; ReplayMismatch if the rules disagree."""
    if version != table.version + 1:
        raise ReplayMismatch(version, f"expected event {table.version + 1}, got {version}")
    if not table.playing:
        raise ReplayMismatch(version, f"an event after the table was {table.status}")
    if type_ == ACTION:
        action = Action.from_dict(dict(data["action"]))
        seat = int(data["seat"])
        try:
            state, produced = table.game.apply(table.state, seat, action)
        except Exception as exc:
            raise ReplayMismatch(version, f"the rules refuse the recorded action: {exc}") from None
        if encode_json(produced) != encode_json(data.get("events")):
            raise ReplayMismatch(
                version,
                "the rules produce other events than those recorded:"
                f" recorded {encode_json(data.get('events'))}, re-executed {encode_json(produced)}",
            )
        after = after_action(table, state, action)
        return replace(after, deadlines=deadlines_from(metadata))
    if type_ == SEAT_TAKEN:
        seat = int(data["seat"])
        seats = tuple(
            s.taken_by_bot(str(data["bot_level"])) if s.seat == seat else s for s in table.seats
        )
        return replace(table, version=version, seats=seats, last_event=SEAT_TAKEN)
    if type_ in (FINISHED, ABORTED):
        _check_revealed_seed(table, version, data)
    if type_ == FINISHED:
        recorded = outcome_from_dict(data["outcome"])
        actual = table.game.outcome(table.state)
        if actual is None or outcome_to_dict(actual) != outcome_to_dict(recorded):
            raise ReplayMismatch(version, "the recorded outcome is not the game's outcome")
        return replace(
            table, version=version, status=DONE, outcome=actual, deadlines=(), last_event=FINISHED
        )
    if type_ == ABORTED:
        return replace(table, version=version, status=STOPPED, deadlines=(), last_event=ABORTED)
    raise ReplayMismatch(version, f"unknown event type {type_!r}")


def _check_revealed_seed(table: Table, version: int, data: Mapping[str, Any]) -> None:
    try:
        seed = bytes.fromhex(str(data.get("seed", "")))
    except ValueError:
        raise ReplayMismatch(version, "the revealed seed is not hex") from None
    if seed_commitment(seed) != table.commitment:
        raise ReplayMismatch(version, "the revealed seed does not match the seed commitment")
