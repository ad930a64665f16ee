"""Guarantee 2 at the log itself: a command decided on a stale copy is refused by the
event log (ConcurrencyError), and the engine reloads, decides again and succeeds."""

from __future__ import annotations

from tavolo.cardgames import Action, ActionKind
from tavolo.engine.store import stream_id
from tavolo.servicekit.auth import Principal, Role
from tavolo.tablelog.replay import audit_table
from tavolo.tablelog.setup import SeatInfo, build_setup
from tavolo.tablelog.table import BY_PLAYER, decide_action
from tests.integration.engine.helpers import engine_parts


async def test_guarantee2_a_stale_copy_is_refused_by_the_log_then_reloaded_and_retried(
    database_url: str,
) -> None:
    async with engine_parts(database_url, loops=False) as parts:
        engine = parts.engine
        seats = [SeatInfo(0, "ann"), SeatInfo(1, "bob")]
        setup = build_setup(
            table_id="t-stale", game="pika", options={}, seats=seats, mode="versus_friends"
        )
        await engine.app.open_setup(setup)
        live = await engine.repo.live("t-stale")
        stale = live.table
        # Another writer (one that skips the engine's row lock) appends the next action
        # straight to the log: this replica's copy and the table's head row are now behind.
        first = min(stale.game.to_act(stale.state))
        foreign = decide_action(
            stale,
            first,
            stale.game.legal_actions(stale.state, first)[0],
            by=BY_PLAYER,
            seed=live.seed,
            now=await engine.store.now(),
        )
        await engine.store.events.append_events(
            stream_id("t-stale"), foreign.expected_version, foreign.events
        )
        # The other player reorders their hand through the engine (legal on either copy):
        # the first append is at a stale version, the log refuses it, the engine reloads
        # and decides again on the current table.
        other = 1 - first
        action = Action(ActionKind.REORDER, cards=tuple(reversed(stale.state.hands[other])))
        who = Principal(["ann", "bob"][other], frozenset({Role.PLAYER}))
        view = await engine.app.act(who, "t-stale", action)
        assert view.version == stale.version + 2
        events = await engine.store.read_events("t-stale")
        assert [e.version for e in events] == list(range(1, stale.version + 3))
        assert events[-2].data["seat"] == first
        assert events[-1].data["action"] == action.to_dict()
        assert view.hand == action.cards
        report = audit_table(events)
        assert report.chain.ok
