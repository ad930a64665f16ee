"""Which of the engine's events cross NATS, and as which ``events.proto`` message.

The outbox relay hands every committed event to `EngineEncoder`; a table's opening
becomes ``TableStarted``, its end ``TableFinished`` or ``TableAborted``, and a player's
leaving ``SeatLeft`` (the lobby frees them at once). Every other event (each action)
stays inside the engine. The closing events carry everything the wallet,
the leaderboard and the lobby need, so the encoding reads one event and nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from datetime import UTC

from google.protobuf import timestamp_pb2

from tavolo.engine.store import table_id_of
from tavolo.eventlog import RecordedEvent
from tavolo.messaging import Topology
from tavolo.tablelog.convert import MODE_VALUES, seats_from_dicts
from tavolo.tablelog.struct_wire import dict_to_struct
from tavolo.tablelog.table import ABORTED, FINISHED, OPENED, SEAT_TAKEN
from tavolo.v1 import common_pb2, events_pb2

EVENT_TYPE_HEADER = "Tavolo-Event-Type"


class EngineEncoder:
    """``RecordedEvent -> (subject, payload, headers) | None`` for the outbox relay."""

    def __init__(self, topology: Topology) -> None:
        self._topology = topology

    def __call__(self, event: RecordedEvent) -> tuple[str, bytes, Mapping[str, str]] | None:
        data = event.data
        if event.type == OPENED:
            name = "TableStarted"
            payload = events_pb2.TableStarted(
                header=_header(event),
                table_id=data["table_id"],
                game=data["game"],
                mode=MODE_VALUES[data["mode"]],
                seats=seats_from_dicts(data["seats"]),
                stake=data["stake"],
                seed_commitment=data["seed_commitment"],
            ).SerializeToString()
        elif event.type == FINISHED:
            name = "TableFinished"
            outcome = data["outcome"]
            payload = events_pb2.TableFinished(
                header=_header(event),
                table_id=data["table_id"],
                game=data["game"],
                mode=MODE_VALUES[data["mode"]],
                options=dict_to_struct(data["options"]),
                seats=seats_from_dicts(data["seats"]),
                outcome=common_pb2.Outcome(
                    places=outcome["places"],
                    scores=outcome["scores"],
                    detail=dict_to_struct(outcome.get("detail", {})),
                ),
                stake=data["stake"],
                bot_filled=data["bot_filled"],
                seed_hex=data["seed"],
            ).SerializeToString()
        elif event.type == ABORTED:
            name = "TableAborted"
            payload = events_pb2.TableAborted(
                header=_header(event),
                table_id=data["table_id"],
                game=data["game"],
                mode=MODE_VALUES.get(data["mode"], common_pb2.MODE_UNSPECIFIED),
                seats=seats_from_dicts(data["seats"]),
                stake=data["stake"],
                reason=data["reason"],
            ).SerializeToString()
        elif event.type == SEAT_TAKEN:
            name = "SeatLeft"
            payload = events_pb2.SeatLeft(
                header=_header(event),
                table_id=table_id_of(event.stream_id),
                seat=data["seat"],
                player_id=data["player_id"],
            ).SerializeToString()
        else:
            return None
        return self._topology.subject_for(name), payload, {EVENT_TYPE_HEADER: name}


def _header(event: RecordedEvent) -> events_pb2.EventHeader:
    at = timestamp_pb2.Timestamp()
    at.FromDatetime(event.recorded_at.astimezone(UTC))
    return events_pb2.EventHeader(
        event_id=str(event.event_id),
        stream_id=event.stream_id,
        version=event.version,
        occurred_at=at,
    )
