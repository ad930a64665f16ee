"""Bots take over a leaving player's seat (and a table every player left is aborted); the
Pika call window is a stored timer recorded as an expiry (PIKA-8)."""

from __future__ import annotations

import asyncio
import hashlib

from tavolo.cardgames import Action, ActionKind
from tavolo.servicekit.auth import Principal, Role
from tavolo.tablelog.setup import SeatInfo, build_setup
from tavolo.tablelog.table import ABORTED, STOPPED
from tests.integration.engine.helpers import engine_parts


def _who(player: str) -> Principal:
    return Principal(player, frozenset({Role.PLAYER}))


async def _wait_for(check, seconds: float = 20.0) -> None:  # type: ignore[no-untyped-def]
    for _ in range(int(seconds / 0.05)):
        if await check():
            return
        await asyncio.sleep(0.05)
    raise AssertionError("the engine never got there")


async def test_a_bot_plays_the_seat_of_a_player_who_left_and_the_last_leaver_aborts(
    database_url: str,
) -> None:
    async with engine_parts(database_url) as parts:
        app, store = parts.engine.app, parts.engine.store
        seats = [SeatInfo(0, "ann"), SeatInfo(1, "bob"), SeatInfo(2, "cat")]
        setup = build_setup(
            table_id="leave", game="pika", options={}, seats=seats, mode="versus_friends"
        )
        table = await app.open_setup(setup)
        assert await app.leave(_who("bob"), "leave") == "medium"

        async def bob_bot_moved() -> bool:
            # Ann and Cat keep playing their turns; Bob's seat is played by the bot.
            view = await app.get_view(_who("ann"), "leave")
            for player, seat in (("ann", 0), ("cat", 2)):
                if seat in view.to_act:
                    mine = await app.get_view(_who(player), "leave")
                    if mine.legal_actions:
                        await app.act(_who(player), "leave", mine.legal_actions[0])
            events = await store.read_events("leave")
            return any(
                e.type == "action" and e.data["seat"] == 1 and e.data["by"] == "bot" for e in events
            )

        await _wait_for(bob_bot_moved)
        await app.leave(_who("ann"), "leave")
        await app.leave(_who("cat"), "leave")
        events = await store.read_events("leave")
        assert events[-1].type == ABORTED
        assert events[-1].data["reason"] == "every player left the table"
        seed = bytes.fromhex(events[-1].data["seed"])
        assert hashlib.sha256(seed).hexdigest() == table.commitment
        view = await app.get_view(_who("ann"), "leave")
        assert view.status == STOPPED and view.legal_actions == ()


async def test_pika8_an_unanswered_call_window_expires_once_with_the_penalty(
    database_url: str,
) -> None:
    async with engine_parts(database_url) as parts:
        app, store = parts.engine.app, parts.engine.store
        seats = [SeatInfo(0, "ann"), SeatInfo(1, "bob")]
        setup = build_setup(
            table_id="call",
            game="pika",
            options={"pika_window": 1},
            seats=seats,
            mode="versus_friends",
        )
        await app.open_setup(setup)
        players = ["ann", "bob"]
        # Play on, never calling, until a play leaves someone with one card: then stop.
        while True:
            view = await app.get_view(_who("ann"), "call")
            mover = players[view.to_act[0]]
            mine = await app.get_view(_who(mover), "call")
            plays = [a for a in mine.legal_actions if a.kind is ActionKind.PLAY and a.call is None]
            choice = plays[0] if plays else mine.legal_actions[0]
            after = await app.act(_who(mover), "call", choice)
            if len(after.hand) == 1 and choice.kind is ActionKind.PLAY:
                caller = after.seat
                break
            assert after.status == "playing"
        assert any(d.kind == "call" and d.seat == caller for d in after.deadlines)

        async def expired() -> bool:
            events = await store.read_events("call")
            return any(e.data.get("by") == "timer" for e in events if e.type == "action")

        await _wait_for(expired)
        await asyncio.sleep(0.3)  # a second firing, if there were one, would land now
        events = await store.read_events("call")
        fired = [e for e in events if e.type == "action" and e.data["by"] == "timer"]
        assert len(fired) == 1
        (expiry,) = fired
        assert expiry.data["seat"] == caller
        assert str(expiry.data["action"]["timer"]).startswith("call:")
        penalty = [x for x in expiry.data["events"] if x["type"] == "penalty"]
        assert len(penalty) == 1 and len(penalty[0]["cards"]) == 2
        final = await app.get_view(_who(players[caller]), "call")
        assert len(final.hand) == 3
        assert Action(ActionKind.CALL, call="pika") not in final.legal_actions
