"""Append-only, hash-chained event log on PostgreSQL, its in-memory twin and the outbox relay.

The port is `EventStore`; `PostgresEventStore` (one schema per service) and
`InMemoryEventStore` implement it and pass one contract suite. `OutboxRelay` (in
``tavolo.eventlog.relay``) copies committed events to JetStream.
"""

from __future__ import annotations

from tavolo.eventlog.canonical import GENESIS_HASH, canonical_bytes
from tavolo.eventlog.errors import ConcurrencyError, DuplicateEventError
from tavolo.eventlog.memory import InMemoryEventStore
from tavolo.eventlog.model import NewEvent, RecordedEvent, StreamAppend, VerificationResult
from tavolo.eventlog.postgres import PostgresEventStore
from tavolo.eventlog.schema import install
from tavolo.eventlog.store import EventStore
from tavolo.eventlog.verification import verify_chain

__all__ = [
    "GENESIS_HASH",
    "ConcurrencyError",
    "DuplicateEventError",
    "EventStore",
    "InMemoryEventStore",
    "NewEvent",
    "PostgresEventStore",
    "RecordedEvent",
    "StreamAppend",
    "VerificationResult",
    "canonical_bytes",
    "install",
    "verify_chain",
]
