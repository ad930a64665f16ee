"""A table as an event-sourced aggregate: decide new events, evolve by recorded ones.

Pure: no I/O, no clock (``now`` is passed in). The stream of a table is

1. ``table_opened``: the setup, ``seed_commitment = sha256(seed)`` and the rules' opening
   events (the deal) — never the seed itself (AUDIT-2);
2. ``action``: one per action applied — the seat, the action as recorded, who issued it
   (player, bot or timer) and the rules' events; the running timers with their due times
   go in the event's metadata, so a view at any version can show them;
3. ``seat_taken_by_bot`` when a player leaves;
4. ``table_finished`` (the outcome and the revealed seed) or ``table_aborted`` (the reason
   and the revealed seed).

Rebuilding a table from these events (``tavolo.tablelog.history``) re-executes the rules on
each recorded action and checks they produce the recorded events byte for byte, so every
load of a table is also a replay check (AUDIT-3).
"""

from __future__ import annotations

import hashlib
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, replace
from datetime import datetime, timedelta
from typing import Any

from tavolo.cardgames import Action, Game, Outcome
from tavolo.eventlog.model import NewEvent
from tavolo.tablelog.setup import SeatInfo, TableSetup

OPENED = "table_opened"
ACTION = "action"
SEAT_TAKEN = "seat_taken_by_bot"
FINISHED = "table_finished"
ABORTED = "table_aborted"

PLAYING, DONE, STOPPED = "playing", "finished", "aborted"

BY_PLAYER, BY_BOT, BY_TIMER = "player", "bot", "timer"


class ReplayMismatch(Exception):
    """Re-executing a recorded event did not reproduce it: the log and the rules disagree."""

    def __init__(self, version: int, detail: str) -> None:
        super().__init__(f"event {version}: {detail}")
        self.version = version
        self.detail = detail


def seed_commitment(seed: bytes) -> str:
    """The hex sha256 of the seed that the first event publishes (AUDIT-2)."""
    return hashlib.sha256(seed).hexdigest()


def format_time(moment: datetime) -> str:
    return moment.isoformat(timespec="milliseconds")


@dataclass(frozen=True, slots=True)
class Deadline:
    """A running rule timer: turn limit or call window, with when it runs out."""

    key: str
    seat: int
    kind: str
    due: datetime

    def to_dict(self) -> dict[str, Any]:
        return {"key": self.key, "seat": self.seat, "kind": self.kind, "at": format_time(self.due)}

    @classmethod
    def from_dict(cls, data: Mapping[str, Any]) -> Deadline:
        return cls(
            str(data["key"]),
            int(data["seat"]),
            str(data["kind"]),
            datetime.fromisoformat(data["at"]),
        )


@dataclass(frozen=True, slots=True)
class Table:
    """A table at one version. Immutable: evolving returns a new one."""

    setup: TableSetup
    game: Game[Any]
    state: Any
    version: int
    status: str
    seats: tuple[SeatInfo, ...]
    deadlines: tuple[Deadline, ...]
    last_event: str
    commitment: str
    outcome: Outcome | None = None

    @property
    def table_id(self) -> str:
        return self.setup.table_id

    @property
    def playing(self) -> bool:
        return self.status == PLAYING

    def humans(self) -> list[SeatInfo]:
        return [s for s in self.seats if not s.bot]

    def bot_seats_to_move(self) -> list[int]:
        """Bot seats that have something to do now (their turn, or a call to make)."""
        if not self.playing:
            return []
        return [s.seat for s in self.seats if s.bot and self.game.legal_actions(self.state, s.seat)]

    def lone_bot(self, now: datetime) -> tuple[int, list[Action]] | None:
        """The one seat with something to do, and its legal moves, if that seat is a bot's
        and no rule timer is due at ``now``: then no one else could act first."""
        if not self.playing or any(d.due <= now for d in self.deadlines):
            return None
        movers = [
            (info.seat, legal)
            for info in self.seats
            if (legal := self.game.legal_actions(self.state, info.seat))
        ]
        if len(movers) != 1 or not self.seats[movers[0][0]].bot:
            return None
        return movers[0]


@dataclass(frozen=True, slots=True)
class Decision:
    """Events to append at ``expected_version`` and the table they lead to."""

    expected_version: int
    events: list[NewEvent]
    table: Table
    passed: tuple[Table, ...] = ()
    """Tables at versions on the way to ``table`` that deciding built anyway (bots playing
    on): the engine's cache keeps them instead of replaying their events again."""


# -- opening -----------------------------------------------------------------------------


def open_table(setup: TableSetup, seed: bytes, now: datetime) -> Decision:
    """Deal a new table; raises the game's InvalidOptions if its options are wrong."""
    game = setup.rules()
    state = game.new_game(setup.options, len(setup.seats), seed)
    opening = opening_events(game, state)
    table = Table(
        setup=setup,
        game=game,
        state=state,
        version=1,
        status=PLAYING,
        seats=setup.seats,
        deadlines=(),
        last_event=OPENED,
        commitment=seed_commitment(seed),
    )
    table = replace(table, deadlines=running_deadlines(table, (), now))
    data = {**setup.to_dict(), "seed_commitment": table.commitment, "events": opening}
    event = NewEvent(OPENED, data, metadata=_deadline_metadata(table.deadlines))
    return Decision(0, [event], table)


def opening_events(game: Game[Any], state: Any) -> list[dict[str, Any]]:
    """The rules' account of the deal, for games that give one (Pika's ``deal_event``)."""
    deal_event = getattr(game, "deal_event", None)
    return [deal_event(state)] if callable(deal_event) else []


# -- deciding ----------------------------------------------------------------------------


def decide_action(
    table: Table,
    seat: int,
    action: Action,
    *,
    by: str,
    seed: bytes,
    now: datetime,
    metadata: Mapping[str, Any] | None = None,
) -> Decision:
    """Apply ``action`` for ``seat``; the rules raise RuleError if it is not allowed."""
    state, rule_events = table.game.apply(table.state, seat, action)
    data = {"seat": seat, "action": action.to_dict(), "by": by, "events": rule_events}
    after = after_action(table, state, action)
    after = replace(after, deadlines=running_deadlines(after, table.deadlines, now))
    events = [
        NewEvent(ACTION, data, metadata={**(metadata or {}), **_deadline_metadata(after.deadlines)})
    ]
    outcome = table.game.outcome(state)
    if outcome is not None:
        closing = _closing_data(after, seed)
        closing["outcome"] = outcome_to_dict(outcome)
        events.append(NewEvent(FINISHED, closing))
        after = replace(
            after,
            version=after.version + 1,
            status=DONE,
            outcome=outcome,
            deadlines=(),
            last_event=FINISHED,
        )
    return Decision(table.version, events, after)


def bots_play_on(
    decision: Decision,
    choose: Callable[[Table, int, list[Action]], Action],
    *,
    seed: bytes,
    now: datetime,
    limit: int,
) -> Decision:
    """``decision`` (a bot's move) and the moves of the bots that answer it at once, up to
    ``limit`` moves in all, while the next move is a lone bot's (`Table.lone_bot`).

    For bots with no think time: one commit for a bot's turn and the bots' turns after
    it, where each was a commit of its own. Each move is still its own event and version,
    chosen on the view it would have been chosen on alone, so the log, its replay and
    what every watcher sees are the same as one move at a time. A move a human could make,
    a call several seats could answer, or a rule timer already due ends the run: those
    wait for their own turn, in their order."""
    events = list(decision.events)
    passed: list[Table] = []
    table = decision.table
    for _ in range(limit - 1):
        lone = table.lone_bot(now)
        if lone is None:
            break
        seat, legal = lone
        move = decide_action(table, seat, choose(table, seat, legal), by=BY_BOT, seed=seed, now=now)
        events.extend(move.events)
        passed.append(table)
        table = move.table
    if not passed:
        return decision
    return Decision(decision.expected_version, events, table, tuple(passed))


def decide_leave(table: Table, seat: int, level: str, *, seed: bytes) -> Decision:
    """A player leaves: a bot takes the seat; with no human left the table is aborted."""
    seats = tuple(s.taken_by_bot(level) if s.seat == seat else s for s in table.seats)
    data = {"seat": seat, "player_id": table.seats[seat].player_id, "bot_level": level}
    after = replace(table, version=table.version + 1, seats=seats, last_event=SEAT_TAKEN)
    events = [NewEvent(SEAT_TAKEN, data)]
    if not after.humans():
        abort = decide_abort(after, "every player left the table", seed=seed)
        return Decision(table.version, events + abort.events, abort.table)
    return Decision(table.version, events, after)


def decide_abort(table: Table, reason: str, *, seed: bytes) -> Decision:
    """Close the table without a result (stakes are refunded by the wallet)."""
    data = {**_closing_data(table, seed), "reason": reason}
    after = replace(
        table, version=table.version + 1, status=STOPPED, deadlines=(), last_event=ABORTED
    )
    return Decision(table.version, [NewEvent(ABORTED, data)], after)


def refused_match(
    table_id: str, game: str, mode: str, seats: Sequence[SeatInfo], stake: int, reason: str
) -> NewEvent:
    """The abort of a match the engine could not open (an unknown game, impossible seats):
    a ``table_aborted`` like any other, so the wallet refunds its holds and the lobby frees
    its players. No table was dealt, so there is no seed to reveal."""
    data = {
        "table_id": table_id,
        "game": game,
        "mode": mode,
        "options": {},
        "seats": [s.to_dict() for s in seats],
        "stake": stake,
        "bot_filled": False,
        "seed": "",
        "reason": reason,
    }
    return NewEvent(ABORTED, data)


def _closing_data(table: Table, seed: bytes) -> dict[str, Any]:
    """What a closing event carries: enough for the wallet and leaderboard on its own."""
    setup = table.setup
    return {
        "table_id": setup.table_id,
        "game": setup.game,
        "mode": setup.mode,
        "options": dict(setup.options),
        "seats": [s.to_dict() for s in table.seats],
        "stake": setup.stake,
        "bot_filled": setup.bot_filled,
        "seed": seed.hex(),
    }


def after_action(table: Table, state: Any, action: Action) -> Table:
    return replace(table, state=state, version=table.version + 1, last_event=action.kind.value)


def running_deadlines(
    table: Table, previous: Sequence[Deadline], now: datetime
) -> tuple[Deadline, ...]:
    """The rule timers running at ``table``: one still running keeps its due time; a new
    turn timer runs for the table's turn limit (none when it is 0); a rule timer for the
    duration the rules give."""
    if not table.playing:
        return ()
    kept = {d.key: d for d in previous}
    out: list[Deadline] = []
    for timer in table.game.timers(table.state):
        if timer.key in kept:
            out.append(kept[timer.key])
            continue
        if timer.kind == "turn":
            if not table.setup.turn_seconds:
                continue
            due = now + timedelta(seconds=table.setup.turn_seconds)
        elif timer.millis is not None:
            due = now + timedelta(milliseconds=timer.millis)
        else:
            continue
        out.append(Deadline(timer.key, timer.seat, timer.kind, due))
    return tuple(out)


def _deadline_metadata(deadlines: Sequence[Deadline]) -> dict[str, Any]:
    return {"deadlines": [d.to_dict() for d in deadlines]}


def deadlines_from(metadata: Mapping[str, Any]) -> tuple[Deadline, ...]:
    return tuple(Deadline.from_dict(d) for d in metadata.get("deadlines", []))


def outcome_to_dict(outcome: Outcome) -> dict[str, Any]:
    return {
        "places": list(outcome.places),
        "scores": list(outcome.scores),
        "detail": dict(outcome.detail),
    }


def outcome_from_dict(data: Mapping[str, Any]) -> Outcome:
    return Outcome(
        places=tuple(int(p) for p in data["places"]),
        scores=tuple(int(s) for s in data["scores"]),
        detail=dict(data.get("detail", {})),
    )
