"""Bots with no think time play on in one decision (`bots_play_on`; MODE-1, MODE-3,
PLAT-3): each move still its own event, chosen by the lone bot that would have moved next,
and the log replays to every table the run went through."""

from __future__ import annotations

import asyncio
import random
from dataclasses import replace
from datetime import timedelta
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tavolo.cardgames import Action
from tavolo.eventlog import InMemoryEventStore
from tavolo.tablelog import table as T
from tavolo.tablelog.replay import tables_by_version
from tavolo.tablelog.setup import SeatInfo, TableSetup, build_setup
from tests.unit.engine.play import NOW, SEED, pika_setup

LIMIT = 8


def _same(a: T.Table, b: T.Table) -> bool:
    key = lambda t: (t.version, t.status, t.state, t.seats, t.deadlines, t.last_event)  # noqa: E731
    return key(a) == key(b)


def _bots_only(table_id: str = "b1") -> TableSetup:
    seats = [SeatInfo(s, bot=True, bot_level="easy") for s in range(4)]
    return build_setup(table_id=table_id, game="pika", options={}, seats=seats, mode="online")


def _movers(table: T.Table) -> list[int]:
    return [s.seat for s in table.seats if table.game.legal_actions(table.state, s.seat)]


async def _play_with_runs(
    setup: TableSetup, rng: random.Random
) -> tuple[list[Any], list[T.Decision], list[T.Table]]:
    """Play ``setup`` to the end: a human seat's move alone, a bot's move followed by the
    bots playing on. Returns the log, the bots' run decisions, and every table on the way."""
    store = InMemoryEventStore(clock=lambda: NOW)
    stream = f"table-{setup.table_id}"
    opened = T.open_table(setup, SEED, NOW)
    await store.append_events(stream, 0, opened.events)
    table, runs, seen = opened.table, [], [opened.table]

    def choose(at: T.Table, seat: int, legal: list[Action]) -> Action:
        assert at.lone_bot(NOW) == (seat, legal)  # asked only of the lone bot to move
        return rng.choice(legal)

    while table.playing:
        seat = _movers(table)[0]
        legal = table.game.legal_actions(table.state, seat)
        by = T.BY_BOT if table.seats[seat].bot else T.BY_PLAYER
        decision = T.decide_action(table, seat, rng.choice(legal), by=by, seed=SEED, now=NOW)
        if by == T.BY_BOT:
            decision = T.bots_play_on(decision, choose, seed=SEED, now=NOW, limit=LIMIT)
            runs.append(decision)
        await store.append_events(stream, decision.expected_version, decision.events)
        seen.extend(decision.passed)
        table = decision.table
        seen.append(table)
    return await store.read_stream(stream), runs, seen


@settings(max_examples=25, deadline=None)
@given(st.integers(0, 2**32), st.booleans())
def test_a_run_replays_to_every_table_it_went_through(rng_seed: int, human: bool) -> None:
    setup = pika_setup() if human else _bots_only()
    events, runs, seen = asyncio.run(_play_with_runs(setup, random.Random(rng_seed)))
    replayed = {t.version: t for t in tables_by_version(events, SEED)}
    for table in seen:  # the tables a run passed through are the log's, version by version
        assert _same(table, replayed[table.version])
    assert max(replayed) == seen[-1].version and not seen[-1].playing
    for run in runs:
        moves = [e for e in run.events if e.type == T.ACTION]
        assert all(e.data["by"] == T.BY_BOT for e in moves)
        assert 1 <= len(moves) <= LIMIT
        # each move after the first was the lone bot's at the version before it
        for before, move in zip(run.passed, moves[1:], strict=True):
            lone = before.lone_bot(NOW)
            assert lone is not None and lone[0] == move.data["seat"]
        # and the run stopped only where it had to: the limit, a human, a call, the end
        last = run.table
        assert len(moves) == LIMIT or last.lone_bot(NOW) is None


async def test_the_bots_answer_a_human_in_one_run_that_stops_at_the_humans_turn() -> None:
    _, runs, _ = await _play_with_runs(pika_setup(), random.Random(3))
    stopped_for_alice = [r for r in runs if r.table.playing and 0 in _movers(r.table)]
    assert stopped_for_alice, "the human never got the turn back from the bots"
    assert any(len(r.passed) >= 2 for r in stopped_for_alice)  # three bots, one commit
    for run in stopped_for_alice:
        assert run.table.lone_bot(NOW) is None


async def test_where_several_seats_could_act_no_bot_plays_on() -> None:
    """Pika's calls open to several seats at once: the timer loop fires those, in order."""
    shared = 0
    for rng_seed in range(12):
        _, _, seen = await _play_with_runs(_bots_only(), random.Random(rng_seed))
        for table in seen:
            if table.playing and len(_movers(table)) > 1:
                shared += 1
                assert table.lone_bot(NOW) is None
    assert shared > 0, "no state with several seats to act: the check above proved nothing"


async def test_a_human_to_move_or_a_due_timer_ends_a_run() -> None:
    deals = (T.open_table(pika_setup(), bytes([n]) * 32, NOW).table for n in range(64))
    opened = next(t for t in deals if _movers(t) == [0])
    assert opened.lone_bot(NOW) is None  # alice (a human) is to move
    bots = T.open_table(_bots_only(), SEED, NOW).table
    (seat,) = _movers(bots)
    assert bots.lone_bot(NOW) == (seat, bots.game.legal_actions(bots.state, seat))
    due = T.Deadline("turn", seat, "turn", NOW)
    assert replace(bots, deadlines=(due,)).lone_bot(NOW) is None
    later = replace(due, due=NOW + timedelta(seconds=1))
    assert replace(bots, deadlines=(later,)).lone_bot(NOW) is not None
