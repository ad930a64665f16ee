"""NATS JetStream for Tavolo: names, streams, de-duplicated publishing, idempotent consumers.

`Topology` names every stream and subject once; `ensure_streams` creates them at start;
`run_consumer` runs a durable pull consumer; `IdempotentHandler` makes a handler's effect
happen once per message by recording its id in the same transaction, and
`ProcessedMessagesPruner` forgets those ids once the stream can no longer redeliver them.
"""

from __future__ import annotations

from tavolo.messaging.consumer import Consumer, Handler, RetryPolicy, run_consumer
from tavolo.messaging.deadletters import DeadLetters, Unprocessable
from tavolo.messaging.housekeeping import ProcessedMessagesPruner
from tavolo.messaging.idempotency import (
    Effect,
    IdempotentHandler,
    install_processed_messages,
    message_id_of,
    prune_processed_messages,
)
from tavolo.messaging.publish import MSG_ID_HEADER, publish_with_id
from tavolo.messaging.streams import ensure_streams
from tavolo.messaging.topology import DEFAULT_DUPLICATE_WINDOW, Topology, subject_token

__all__ = [
    "DEFAULT_DUPLICATE_WINDOW",
    "MSG_ID_HEADER",
    "Consumer",
    "DeadLetters",
    "Effect",
    "Handler",
    "IdempotentHandler",
    "ProcessedMessagesPruner",
    "RetryPolicy",
    "Topology",
    "Unprocessable",
    "ensure_streams",
    "install_processed_messages",
    "message_id_of",
    "prune_processed_messages",
    "publish_with_id",
    "run_consumer",
    "subject_token",
]
