"""The NATS events the lobby reacts to: TableStarted, SeatLeft, TableFinished, TableAborted
from the engine, from the wallet StakeHoldChanged (a waiting ticket whose hold failed
leaves the queue, and its player is told) and TournamentPaid (the prizes shown), and
RatingsChanged from the leaderboard (the ratings tickets join with).

One durable pull consumer; each message is applied through ``IdempotentHandler``, which
records its id in the same transaction as the effect, so a redelivery changes nothing
(guarantee 6). Players are told after the transaction commits.
"""

from __future__ import annotations

from typing import Any

from google.protobuf import json_format
from nats.aio.msg import Msg

from tavolo.lobby.app import LobbyApp
from tavolo.lobby.events import MODE_FROM_PROTO
from tavolo.lobby.play import queue_store
from tavolo.lobby.play.queue import hold_lost
from tavolo.lobby.play.tables import Mode
from tavolo.lobby.store import SCHEMA
from tavolo.lobby.updates import TicketChanged, Update
from tavolo.messaging import DeadLetters, IdempotentHandler, Topology, run_consumer
from tavolo.v1 import common_pb2, events_pb2

TABLE_STARTED = "TableStarted"
TABLE_FINISHED = "TableFinished"
TABLE_ABORTED = "TableAborted"
SEAT_LEFT = "SeatLeft"
STAKE_HOLD_CHANGED = "StakeHoldChanged"
TOURNAMENT_PAID = "TournamentPaid"
RATINGS_CHANGED = "RatingsChanged"
# What a hold may become that leaves a waiting ticket without its stake.
HOLD_FAILED = frozenset(
    {events_pb2.HOLD_STATE_EXPIRED, events_pb2.HOLD_STATE_RELEASED, events_pb2.HOLD_STATE_REFUSED}
)


def decided_by(outcome: common_pb2.Outcome) -> str:
    """How a knock-out table's match was decided (match, tie_break, last_capture ...)."""
    detail = json_format.MessageToDict(outcome.detail)
    how = detail.get("knock_out", {}).get("decided_by", "") if isinstance(detail, dict) else ""
    return str(how or "match")


class TableEvents:
    """Applies the engine's table facts to the lobby's state."""

    def __init__(self, app: LobbyApp, topology: Topology, js: Any) -> None:
        self.app = app
        self.topology = topology
        self._js = js
        self._started = topology.subject_for(TABLE_STARTED)
        self._finished = topology.subject_for(TABLE_FINISHED)
        self._aborted = topology.subject_for(TABLE_ABORTED)
        self._left = topology.subject_for(SEAT_LEFT)
        self._hold = topology.subject_for(STAKE_HOLD_CHANGED)
        self._paid = topology.subject_for(TOURNAMENT_PAID)
        self._ratings = topology.subject_for(RATINGS_CHANGED)

    @property
    def subjects(self) -> list[str]:
        return [
            self._started,
            self._finished,
            self._aborted,
            self._left,
            self._hold,
            self._paid,
            self._ratings,
        ]

    @property
    def durable(self) -> str:
        return self.topology.consumer_name("lobby", "table_events")

    async def apply(self, conn: Any, msg: Msg) -> list[tuple[str, Update]]:
        """Inside the handler's transaction: change the state; the notices for after commit."""
        watch = self.app.watch
        if msg.subject == self._started:
            started = events_pb2.TableStarted.FromString(msg.data)
            mode = MODE_FROM_PROTO.get(started.mode, Mode.ONLINE)
            seated = [(s.seat, s.player_id) for s in started.seats if s.player_id and not s.bot]
            return await watch.table_started(conn, started.table_id, started.game, mode, seated)
        if msg.subject == self._finished:
            finished = events_pb2.TableFinished.FromString(msg.data)
            await watch.table_ended(conn, finished.table_id, "finished")
            await self.app.fair_play.table_finished(conn, finished.header.event_id, finished)
            if finished.mode == common_pb2.MODE_TOURNAMENT:
                places = list(finished.outcome.places)
                how = decided_by(finished.outcome)
                await self.app.tournaments.table_ended(conn, finished.table_id, places, how)
            await self.app.duplicates.table_finished(conn, finished)
        elif msg.subject == self._aborted:
            aborted = events_pb2.TableAborted.FromString(msg.data)
            await watch.table_ended(conn, aborted.table_id, f"aborted: {aborted.reason}")
            if aborted.mode == common_pb2.MODE_TOURNAMENT:
                await self.app.tournaments.table_ended(conn, aborted.table_id, [], "aborted")
            await self.app.duplicates.table_aborted(conn, aborted)
        elif msg.subject == self._left:
            left = events_pb2.SeatLeft.FromString(msg.data)
            await watch.seat_left(conn, left.table_id, left.player_id)
        elif msg.subject == self._ratings:
            # The ratings new tickets join with (RATE-2): learned here, never asked for.
            changed = events_pb2.RatingsChanged.FromString(msg.data)
            told = [(r.player_id, r.mu, r.sigma, r.rated_tables) for r in changed.ratings]
            await queue_store.record_ratings(conn, changed.game, told)
        elif msg.subject == self._hold:
            hold = events_pb2.StakeHoldChanged.FromString(msg.data)
            if hold.state in HOLD_FAILED:
                lost = await hold_lost(conn, hold.hold_id, hold.reason, self.app.ctx.clock())
                if lost is not None:
                    return [(lost.player_id, TicketChanged(lost))]
        elif msg.subject == self._paid:
            paid = events_pb2.TournamentPaid.FromString(msg.data)
            coins = {p.player_id: p.coins for p in paid.prizes}
            await self.app.tournaments.prizes_paid(conn, paid.tournament_id, coins, paid.pot)
        return []

    async def handle(self, msg: Msg) -> None:
        """Apply once per message id (a redelivery finds its id recorded), then notify."""
        notices: list[tuple[str, Update]] = []

        async def effect(conn: Any, message: Msg) -> None:
            notices.extend(await self.apply(conn, message))

        handler = IdempotentHandler(self.app.ctx.db.pool, SCHEMA, self.durable, effect)
        if await handler.handle(msg):
            self.app.ctx.on_append()  # a tournament may have recorded its next step
            await self.app.ctx.publish(notices)

    async def run(self) -> None:
        await run_consumer(
            self._js,
            stream=self.topology.events_stream,
            durable=self.durable,
            subjects=self.subjects,
            handler=self.handle,
            dead_letters=DeadLetters(self._js, self.topology),
        )
