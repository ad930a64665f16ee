"""Events as the lobby and the engine put them on NATS, for the wallet's tests and benchmark."""

from __future__ import annotations

import uuid
from collections.abc import Mapping, Sequence
from typing import Any

from nats.js.api import PubAck

from tavolo.messaging import Topology, publish_with_id
from tavolo.v1 import common_pb2, events_pb2


def header(event_id: str | None = None, stream_id: str = "") -> events_pb2.EventHeader:
    return events_pb2.EventHeader(
        event_id=event_id or str(uuid.uuid4()), stream_id=stream_id, version=1
    )


def seats(players: Sequence[str], *, booster: bool = False) -> list[common_pb2.Seat]:
    return [
        common_pb2.Seat(seat=i, player_id=p, nickname=p, booster=booster, vip=booster)
        for i, p in enumerate(players)
    ]


def match_formed(
    table: str,
    players: Sequence[str],
    stake: int,
    hold_ids: Mapping[int, str],
    *,
    event_id: str | None = None,
) -> events_pb2.MatchFormed:
    return events_pb2.MatchFormed(
        header=header(event_id, f"match-{table}"),
        match_id=table,
        game="pika",
        mode=common_pb2.MODE_STAKE if stake else common_pb2.MODE_ONLINE,
        seats=seats(players),
        stake=stake,
        hold_ids=dict(hold_ids),
    )


def table_finished(
    table: str,
    players: Sequence[str],
    places: Sequence[int],
    *,
    stake: int = 0,
    mode: int = common_pb2.MODE_STAKE,
    booster: bool = False,
    event_id: str | None = None,
) -> events_pb2.TableFinished:
    return events_pb2.TableFinished(
        header=header(event_id, f"table-{table}"),
        table_id=table,
        game="pika",
        mode=mode,  # type: ignore[arg-type]
        seats=seats(players, booster=booster),
        outcome=common_pb2.Outcome(places=list(places), scores=[0] * len(places)),
        stake=stake,
    )


def table_aborted(
    table: str, stake: int, *, event_id: str | None = None
) -> events_pb2.TableAborted:
    return events_pb2.TableAborted(
        header=header(event_id, f"table-{table}"),
        table_id=table,
        game="pika",
        mode=common_pb2.MODE_STAKE,
        stake=stake,
        reason="every human left",
    )


def match_cancelled(
    table: str, hold_ids: Mapping[str, str], *, event_id: str | None = None
) -> events_pb2.MatchCancelled:
    return events_pb2.MatchCancelled(
        header=header(event_id, f"match-{table}"),
        match_id=table,
        reason="not full in time",
        hold_ids=dict(hold_ids),
    )


def account_frozen(player: str, sanction: str) -> events_pb2.AccountFrozen:
    return events_pb2.AccountFrozen(
        header=header(None, f"sanction-{sanction}"), player_id=player, reason="dispute", by="mod"
    )


def account_unfrozen(player: str, sanction: str) -> events_pb2.AccountUnfrozen:
    return events_pb2.AccountUnfrozen(
        header=header(None, f"sanction-{sanction}"), player_id=player, by="mod"
    )


def player_registered(
    player: str, person: str, *, event_id: str | None = None
) -> events_pb2.PlayerRegistered:
    """A new account; ``person`` is its owner (the player itself for a first account)."""
    return events_pb2.PlayerRegistered(
        header=header(event_id, f"player-{player}"),
        player_id=player,
        nickname=player,
        person_id=person,
    )


async def publish(js: Any, topology: Topology, event: Any, *, msg_id: str = "") -> PubAck:
    """Publish as the outbox relay does: subject by type, Nats-Msg-Id = the event id."""
    subject = topology.subject_for(type(event).__name__)
    return await publish_with_id(
        js, subject, event.SerializeToString(), msg_id=msg_id or event.header.event_id
    )
