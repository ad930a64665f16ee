"""What happens to stake holds, told to the platform (MODE-4): placed, refused, expired,
released, staked.

The lobby forms a stake table only on holds that still stand: it learns here that a
waiting player's hold is gone (expired, voided by an operator) and takes the ticket out.
Each fact is appended to the wallet's event log in the transaction that changed the hold
(a refusal, whose transaction rolled back, in one of its own), and the outbox relay
publishes it as ``StakeHoldChanged``. A hold's placement and its resolution each have a
stream of their own (``hold-<id>-placed``, ``hold-<id>-resolved``) written once, so a
retried call, a redelivered event or a hold older than these facts tells nothing twice.
"""

from __future__ import annotations

import uuid
from collections.abc import Mapping
from dataclasses import dataclass
from datetime import UTC, datetime
from enum import StrEnum

from google.protobuf import timestamp_pb2

from tavolo.eventlog import ConcurrencyError, NewEvent, PostgresEventStore, RecordedEvent
from tavolo.eventlog.relay import Encoded
from tavolo.messaging import Topology
from tavolo.v1 import events_pb2
from tavolo.wallet import tournament_events
from tavolo.wallet.accounts import player_of
from tavolo.wallet.ledger import Resolution
from tavolo.wallet.store import Connection
from tavolo.wallet.transfers import Transfer, TransferKind

HOLD_CHANGED = "stake_hold_changed"
SUBJECT_TYPE = "StakeHoldChanged"


class HoldState(StrEnum):
    PLACED = "placed"
    REFUSED = "refused"
    EXPIRED = "expired"
    RELEASED = "released"
    STAKED = "staked"


_TO_PROTO = {
    HoldState.PLACED: events_pb2.HOLD_STATE_PLACED,
    HoldState.REFUSED: events_pb2.HOLD_STATE_REFUSED,
    HoldState.EXPIRED: events_pb2.HOLD_STATE_EXPIRED,
    HoldState.RELEASED: events_pb2.HOLD_STATE_RELEASED,
    HoldState.STAKED: events_pb2.HOLD_STATE_STAKED,
}


@dataclass(frozen=True, slots=True)
class HoldChange:
    hold_id: str
    player_id: str
    amount: int
    state: HoldState
    reason: str = ""
    expires_at: datetime | None = None
    table_id: str = ""

    def event(self) -> NewEvent:
        data = {
            "hold_id": self.hold_id,
            "player_id": self.player_id,
            "amount": self.amount,
            "state": self.state.value,
            "reason": self.reason,
            "expires_at": self.expires_at.isoformat() if self.expires_at else "",
            "table_id": self.table_id,
        }
        return NewEvent(HOLD_CHANGED, data)


def placed(hold: Transfer) -> HoldChange:
    return HoldChange(
        hold.transfer_id,
        player_of(hold.debit_account),
        hold.amount,
        HoldState.PLACED,
        expires_at=hold.expires_at,
    )


def resolved(done: Resolution, table_id: str = "") -> HoldChange:
    """The fact of a hold's resolution: staked into a table, or voided (expired or not)."""
    hold, how = done.hold, done.resolution
    if how.kind is TransferKind.POST_PENDING:
        state = HoldState.STAKED
    elif how.cause == "expired":
        state = HoldState.EXPIRED
    else:
        state = HoldState.RELEASED
    return HoldChange(
        hold.transfer_id,
        player_of(hold.debit_account),
        hold.amount,
        state,
        reason=how.cause,
        table_id=table_id,
    )


class HoldEvents:
    """Appends hold facts to the wallet's event log, on the caller's connection."""

    def __init__(self, store: PostgresEventStore) -> None:
        self._store = store

    async def tell(self, conn: Connection, change: HoldChange) -> bool:
        """Record ``change`` once; False when it was told before."""
        if change.state is HoldState.REFUSED:
            stream = f"hold-{change.hold_id}-refused-{uuid.uuid4().hex}"
        elif change.state is HoldState.PLACED:
            stream = f"hold-{change.hold_id}-placed"
        else:
            stream = f"hold-{change.hold_id}-resolved"
        return await self.tell_once(conn, stream, change.event())

    async def tell_once(self, conn: Connection, stream: str, event: NewEvent) -> bool:
        """Append ``event`` as the one event of ``stream``; False when it was told before."""
        try:  # the append runs in a savepoint: a repeat leaves the caller's transaction usable
            await self._store.append_events(stream, 0, [event], conn=conn)
        except ConcurrencyError:
            return False
        return True


class WalletEncoder:
    """``RecordedEvent -> (subject, payload, headers) | None`` for the wallet's relay: hold
    facts, and what tournaments were paid (``tournament_events``)."""

    def __init__(self, topology: Topology) -> None:
        self._subject = topology.subject_for(SUBJECT_TYPE)
        self._paid = topology.subject_for(tournament_events.SUBJECT_TYPE)

    def __call__(self, event: RecordedEvent) -> Encoded | None:
        if event.type == tournament_events.TOURNAMENT_PAID:
            paid = tournament_events.to_proto(event)
            _header(paid.header, event)
            return self._paid, paid.SerializeToString(), {}
        if event.type != HOLD_CHANGED:
            return None
        data = event.data
        message = events_pb2.StakeHoldChanged(
            hold_id=data["hold_id"],
            player_id=data["player_id"],
            amount=data["amount"],
            state=_TO_PROTO[HoldState(data["state"])],
            reason=data["reason"],
            table_id=data["table_id"],
        )
        _header(message.header, event)
        if data["expires_at"]:
            message.expires_at.CopyFrom(_timestamp(datetime.fromisoformat(data["expires_at"])))
        headers: Mapping[str, str] = {}
        return self._subject, message.SerializeToString(), headers


def _header(header: events_pb2.EventHeader, event: RecordedEvent) -> None:
    header.event_id = str(event.event_id)
    header.stream_id = event.stream_id
    header.version = event.version
    header.occurred_at.CopyFrom(_timestamp(event.recorded_at))


def _timestamp(moment: datetime) -> timestamp_pb2.Timestamp:
    stamp = timestamp_pb2.Timestamp()
    stamp.FromDatetime(moment.astimezone(UTC))
    return stamp
