"""Play a table through the pure domain into an in-memory event log, for unit tests."""

from __future__ import annotations

import random
from datetime import UTC, datetime

from tavolo.eventlog import InMemoryEventStore, RecordedEvent
from tavolo.tablelog import table as T
from tavolo.tablelog.setup import SeatInfo, TableSetup, build_setup

NOW = datetime(2026, 1, 1, tzinfo=UTC)
SEED = bytes(range(32))


def pika_setup(seats: int = 4, *, turn_seconds: int = 0, table_id: str = "t1") -> TableSetup:
    """A versus-computer Pika table: alice in seat 0, easy bots in the others."""
    return _pika(table_id, ("alice",), seats - 1, "versus_computer", turn_seconds)


def friends_setup(
    table_id: str = "t1",
    *,
    people: tuple[str, ...] = ("ann", "bob"),
    bots: int = 0,
    turn_seconds: int = 0,
) -> TableSetup:
    """A Pika table among friends: ``people`` in the first seats, then ``bots`` easy bots."""
    return _pika(table_id, people, bots, "versus_friends", turn_seconds)


def _pika(
    table_id: str, people: tuple[str, ...], bots: int, mode: str, turn_seconds: int
) -> TableSetup:
    infos = [SeatInfo(s, player) for s, player in enumerate(people)]
    infos += [SeatInfo(len(people) + b, bot=True, bot_level="easy") for b in range(bots)]
    return build_setup(
        table_id=table_id,
        game="pika",
        options={},
        seats=infos,
        mode=mode,
        turn_seconds=turn_seconds,
    )


async def play_random(
    setup: TableSetup, seed: bytes = SEED, *, rng_seed: int = 7, stop_after: int | None = None
) -> tuple[InMemoryEventStore, T.Table]:
    """Open ``setup`` and apply random legal actions (to the end, or ``stop_after`` actions)."""
    store = InMemoryEventStore(clock=lambda: NOW)
    stream = f"table-{setup.table_id}"
    decision = T.open_table(setup, seed, NOW)
    await store.append_events(stream, 0, decision.events)
    table = decision.table
    rng = random.Random(rng_seed)
    done = 0
    while table.playing and (stop_after is None or done < stop_after):
        seat = sorted(table.game.to_act(table.state))[0]
        action = rng.choice(table.game.legal_actions(table.state, seat))
        decision = T.decide_action(table, seat, action, by=T.BY_PLAYER, seed=seed, now=NOW)
        await store.append_events(stream, decision.expected_version, decision.events)
        table = decision.table
        done += 1
    return store, table


async def recorded(store: InMemoryEventStore, table_id: str = "t1") -> list[RecordedEvent]:
    return await store.read_stream(f"table-{table_id}")
