"""The NATS events the wallet reacts to, through the idempotent consumer of tavolo.messaging.

One durable consumer, shared by every wallet replica, takes ``MatchFormed``,
``MatchCancelled``, ``TableFinished``, ``TableAborted``, ``AccountFrozen``,
``AccountUnfrozen`` and ``PlayerRegistered`` from the events stream in stream order, so a
table's formation is normally handled before its end. The message id and the ledger
change commit in one transaction (guarantee 6); an event that arrives before the one it
depends on is handed back to JetStream (``nak`` with a delay) and handled later.

Adding a subject to the durable consumer of a running deployment changes its filter, not
its position: registrations the consumer had already passed are not replayed, so accounts
that existed before the wallet handled ``PlayerRegistered`` are not paid a welcome grant.

A money event is never dropped for being early: the retry policy keeps retrying for days
rather than terminating the message after a few attempts.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Mapping
from dataclasses import dataclass
from typing import Any

import structlog
from google.protobuf.message import DecodeError
from nats.aio.msg import Msg

from tavolo.messaging import (
    Consumer,
    DeadLetters,
    Effect,
    IdempotentHandler,
    RetryPolicy,
    Topology,
    Unprocessable,
)
from tavolo.messaging import message_id_of as message_id
from tavolo.v1 import common_pb2, events_pb2
from tavolo.wallet.facts import (
    FreezeChanged,
    MatchCancelled,
    MatchFormed,
    Mode,
    PlayerRegistered,
    Prize,
    SeatResult,
    TableAborted,
    TableFinished,
    TournamentFinished,
)
from tavolo.wallet.settlement import Settlement
from tavolo.wallet.store import SCHEMA
from tavolo.wallet.welcome import Welcome

log = structlog.get_logger("tavolo.wallet")

SERVICE = "wallet"
# Effectively never give up on a money event; a retry is at most this far apart.
RETRY = RetryPolicy(max_deliver=100_000, first_delay=0.5, max_delay=15.0)

_MODES: dict[int, Mode] = {
    common_pb2.MODE_VERSUS_COMPUTER: Mode.VERSUS_COMPUTER,
    common_pb2.MODE_VERSUS_FRIENDS: Mode.VERSUS_FRIENDS,
    common_pb2.MODE_ONLINE: Mode.ONLINE,
    common_pb2.MODE_STAKE: Mode.STAKE,
    common_pb2.MODE_TOURNAMENT: Mode.TOURNAMENT,
}


class MalformedEvent(Exception):
    """An event no retry can make readable."""


def _mode(value: int) -> Mode:
    return _MODES.get(value, Mode.UNSPECIFIED)


def _required(value: str, what: str) -> str:
    if not value:
        raise MalformedEvent(f"{what} is empty")
    return value


def _seats(seats: Any, places: Any = ()) -> tuple[SeatResult, ...]:
    placed = list(places)
    return tuple(
        SeatResult(
            seat=s.seat,
            player_id=s.player_id,
            bot=s.bot,
            booster=s.booster,
            vip=s.vip,
            place=placed[s.seat] if 0 <= s.seat < len(placed) else 0,
        )
        for s in seats
    )


def match_formed(data: bytes) -> MatchFormed:
    event = events_pb2.MatchFormed.FromString(data)
    return MatchFormed(
        event_id=event.header.event_id,
        table_id=_required(event.match_id, "match_id"),
        mode=_mode(event.mode),
        stake=event.stake,
        seats=_seats(event.seats),
        hold_ids=dict(event.hold_ids),
    )


def match_cancelled(data: bytes) -> MatchCancelled:
    event = events_pb2.MatchCancelled.FromString(data)
    return MatchCancelled(
        event_id=event.header.event_id,
        table_id=_required(event.match_id, "match_id"),
        reason=event.reason,
        hold_ids=dict(event.hold_ids),
    )


def table_finished(data: bytes) -> TableFinished:
    event = events_pb2.TableFinished.FromString(data)
    return TableFinished(
        event_id=event.header.event_id,
        table_id=_required(event.table_id, "table_id"),
        mode=_mode(event.mode),
        stake=event.stake,
        seats=_seats(event.seats, event.outcome.places),
    )


def table_aborted(data: bytes) -> TableAborted:
    event = events_pb2.TableAborted.FromString(data)
    return TableAborted(
        event_id=event.header.event_id,
        table_id=_required(event.table_id, "table_id"),
        mode=_mode(event.mode),
        stake=event.stake,
        reason=event.reason,
    )


def tournament_drawn(data: bytes) -> MatchFormed:
    """A tournament's draw moves the held entry fees into its escrow, as a stake table's
    formation does (the tournament's escrow is named like a table's, see ``escrow_of``)."""
    event = events_pb2.TournamentDrawn.FromString(data)
    return MatchFormed(
        event_id=event.header.event_id,
        table_id=escrow_of(_required(event.tournament_id, "tournament_id")),
        mode=Mode.STAKE,
        stake=event.fee,
        seats=_seats(event.seats),
        hold_ids=dict(event.hold_ids),
    )


def tournament_cancelled(data: bytes) -> MatchCancelled:
    """A tournament cancelled after its draw: its escrow is refunded and its fee holds
    voided, as a cancelled stake table's are."""
    event = events_pb2.TournamentCancelled.FromString(data)
    return MatchCancelled(
        event_id=event.header.event_id,
        table_id=escrow_of(_required(event.tournament_id, "tournament_id")),
        reason=event.reason,
        hold_ids=dict(event.hold_ids),
    )


def tournament_finished(data: bytes) -> TournamentFinished:
    event = events_pb2.TournamentFinished.FromString(data)
    tournament_id = _required(event.tournament_id, "tournament_id")
    return TournamentFinished(
        event_id=event.header.event_id,
        escrow_id=escrow_of(tournament_id),
        pot=event.pot,
        prizes=tuple(Prize(p.seat, p.player_id, p.place, p.coins) for p in event.prizes),
        tournament_id=tournament_id,
        game=event.game,
        split=tuple(event.split),
    )


def escrow_of(tournament_id: str) -> str:
    """The escrow a tournament's fees wait in until its prizes are paid."""
    return f"tournament-{tournament_id}"


def account_frozen(data: bytes) -> FreezeChanged:
    event = events_pb2.AccountFrozen.FromString(data)
    return FreezeChanged(
        event_id=event.header.event_id,
        sanction=event.header.stream_id or event.header.event_id,
        player_id=_required(event.player_id, "player_id"),
        frozen=True,
        reason=event.reason,
        by=event.by,
    )


def account_unfrozen(data: bytes) -> FreezeChanged:
    event = events_pb2.AccountUnfrozen.FromString(data)
    return FreezeChanged(
        event_id=event.header.event_id,
        sanction=event.header.stream_id or event.header.event_id,
        player_id=_required(event.player_id, "player_id"),
        frozen=False,
        reason="",
        by=event.by,
    )


def player_registered(data: bytes) -> PlayerRegistered:
    event = events_pb2.PlayerRegistered.FromString(data)
    return PlayerRegistered(
        event_id=event.header.event_id,
        player_id=_required(event.player_id, "player_id"),
        person_id=event.person_id,
    )


Route = Callable[[Any, bytes], Awaitable[None]]


@dataclass(frozen=True, slots=True)
class Routes:
    """Which use case each subject drives."""

    by_subject: Mapping[str, Route]

    @classmethod
    def build(cls, topology: Topology, settlement: Settlement, welcome: Welcome) -> Routes:
        s, w = settlement, welcome
        return cls(
            {
                topology.match_formed: lambda c, d: s.match_formed(c, match_formed(d)),
                topology.match_cancelled: lambda c, d: s.match_cancelled(c, match_cancelled(d)),
                topology.table_finished: lambda c, d: s.table_finished(c, table_finished(d)),
                topology.table_aborted: lambda c, d: s.table_aborted(c, table_aborted(d)),
                topology.account_frozen: lambda c, d: s.freeze_changed(c, account_frozen(d)),
                topology.account_unfrozen: lambda c, d: s.freeze_changed(c, account_unfrozen(d)),
                topology.player_registered: lambda c, d: w.registered(c, player_registered(d)),
                topology.tournament_drawn: lambda c, d: s.match_formed(c, tournament_drawn(d)),
                topology.tournament_cancelled: lambda c, d: s.match_cancelled(
                    c, tournament_cancelled(d)
                ),
                topology.tournament_finished: lambda c, d: s.tournament_finished(
                    c, tournament_finished(d)
                ),
            }
        )


def wallet_effect(routes: Routes) -> Effect:
    """Apply one event on the handler's connection and transaction."""

    async def effect(conn: Any, msg: Msg) -> None:
        route = routes.by_subject.get(msg.subject)
        if route is None:
            log.warning("event of no interest to the wallet", subject=msg.subject)
            return
        structlog.contextvars.bind_contextvars(event=message_id(msg), subject=msg.subject)
        try:
            await route(conn, msg.data)
        except (DecodeError, MalformedEvent) as exc:
            # No retry can read it: dead-lettered for operators, and the rest flows on.
            raise Unprocessable(f"malformed {msg.subject}: {exc}") from exc
        finally:
            structlog.contextvars.unbind_contextvars("event", "subject")

    return effect


def wallet_consumer(
    js: Any,
    pool: Any,
    topology: Topology,
    settlement: Settlement,
    welcome: Welcome,
    *,
    ack_wait: float = 30.0,
) -> Consumer:
    """The durable consumer every wallet replica shares."""
    durable = topology.consumer_name(SERVICE, "events")
    routes = Routes.build(topology, settlement, welcome)
    handler = IdempotentHandler(pool, SCHEMA, durable, wallet_effect(routes))
    return Consumer(
        js,
        stream=topology.events_stream,
        durable=durable,
        subjects=list(routes.by_subject),
        handler=handler,
        retry=RETRY,
        ack_wait=ack_wait,
        dead_letters=DeadLetters(js, topology),
    )
