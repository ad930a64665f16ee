"""Stream and subject names, defined once for every service (STYLE habit 2).

One JetStream stream per namespace, ``<NS>_EVENTS``, captures every subject under
``<ns>.events.>``; an event of type ``TableFinished`` travels on
``<ns>.events.table_finished``. The namespace keeps deployments (and tests) sharing one
NATS server apart.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from nats.js.api import DiscardPolicy, RetentionPolicy, StorageType, StreamConfig

# Must outlast the outbox relay's resume gap (see tavolo.eventlog.relay): one batch of
# publishes plus however long a crashed relay stays down. Fifteen minutes covers a pod
# restart with room to spare; JetStream keeps one id per message for this long.
DEFAULT_DUPLICATE_WINDOW = 15 * 60.0
# How long the stream keeps events for consumers that fall behind. PostgreSQL keeps them
# for ever, so an older gap is closed by resetting the relay's checkpoint.
DEFAULT_MAX_AGE = 14 * 24 * 3600.0
# Dead letters wait for an operator: kept far longer than the events themselves.
DEAD_LETTERS_MAX_AGE = 90 * 24 * 3600.0

_NAMESPACE = re.compile(r"^[A-Za-z0-9_]+$")
_TOKEN = re.compile(r"^[a-z0-9_]+$")
_CAMEL_BOUNDARY = re.compile(r"(?<=[a-z0-9])(?=[A-Z])|(?<=[A-Z])(?=[A-Z][a-z])")


def subject_token(event_type: str) -> str:
    """``TableFinished`` or ``table_finished`` -> ``table_finished``."""
    token = _CAMEL_BOUNDARY.sub("_", event_type).lower()
    if not _TOKEN.match(token):
        raise ValueError(f"event type {event_type!r} cannot name a subject: use letters and digits")
    return token


@dataclass(frozen=True, slots=True)
class Topology:
    """Every JetStream name a service uses, derived from the namespace."""

    namespace: str
    duplicate_window: float = DEFAULT_DUPLICATE_WINDOW
    max_age: float = DEFAULT_MAX_AGE
    #: NATS nodes holding the events stream (3 on a production cluster: survives a node).
    replicas: int = 1

    def __post_init__(self) -> None:
        if not _NAMESPACE.match(self.namespace):
            raise ValueError(f"namespace {self.namespace!r} may hold only letters, digits, '_'")
        if not 1 <= self.replicas <= 5:
            raise ValueError(f"a stream has 1 to 5 replicas, not {self.replicas}")

    @property
    def events_stream(self) -> str:
        return f"{self.namespace.upper()}_EVENTS"

    @property
    def events_prefix(self) -> str:
        return f"{self.namespace}.events"

    @property
    def all_events(self) -> str:
        """The wildcard the events stream captures."""
        return f"{self.events_prefix}.>"

    @property
    def dead_letters_stream(self) -> str:
        return f"{self.namespace.upper()}_DEAD_LETTERS"

    def dead_letter_subject(self, consumer: str) -> str:
        """Where ``consumer``'s dead letters go (``<ns>.dead_letters.<consumer>``)."""
        return f"{self.namespace}.dead_letters.{subject_token(consumer)}"

    def subject_for(self, event_type: str) -> str:
        return f"{self.events_prefix}.{subject_token(event_type)}"

    def consumer_name(self, service: str, purpose: str) -> str:
        """A durable consumer name: one per service and reaction (``wallet_table_finished``)."""
        return f"{subject_token(service)}_{subject_token(purpose)}"

    @property
    def table_finished(self) -> str:
        return self.subject_for("TableFinished")

    @property
    def table_aborted(self) -> str:
        return self.subject_for("TableAborted")

    @property
    def match_formed(self) -> str:
        return self.subject_for("MatchFormed")

    @property
    def match_cancelled(self) -> str:
        return self.subject_for("MatchCancelled")

    @property
    def account_frozen(self) -> str:
        return self.subject_for("AccountFrozen")

    @property
    def account_unfrozen(self) -> str:
        return self.subject_for("AccountUnfrozen")

    @property
    def player_registered(self) -> str:
        return self.subject_for("PlayerRegistered")

    @property
    def accounts_suspended(self) -> str:
        return self.subject_for("AccountsSuspended")

    @property
    def accounts_reinstated(self) -> str:
        return self.subject_for("AccountsReinstated")

    @property
    def tournament_drawn(self) -> str:
        return self.subject_for("TournamentDrawn")

    @property
    def tournament_finished(self) -> str:
        return self.subject_for("TournamentFinished")

    @property
    def tournament_cancelled(self) -> str:
        return self.subject_for("TournamentCancelled")

    @property
    def tournament_paid(self) -> str:
        return self.subject_for("TournamentPaid")

    def events_stream_config(self) -> StreamConfig:
        """File storage (JetStream's memory storage loses everything on restart)."""
        return StreamConfig(
            name=self.events_stream,
            description="Tavolo domain events, published from each service's outbox",
            subjects=[self.all_events],
            retention=RetentionPolicy.LIMITS,
            discard=DiscardPolicy.OLD,
            storage=StorageType.FILE,
            max_age=self.max_age,
            duplicate_window=self.duplicate_window,
            num_replicas=self.replicas,
        )

    def dead_letters_stream_config(self) -> StreamConfig:
        """Events consumers gave up on, for operators (see tavolo.messaging.deadletters)."""
        return StreamConfig(
            name=self.dead_letters_stream,
            description="Tavolo events a consumer gave up on, kept for operators",
            subjects=[f"{self.namespace}.dead_letters.>"],
            retention=RetentionPolicy.LIMITS,
            discard=DiscardPolicy.OLD,
            storage=StorageType.FILE,
            max_age=DEAD_LETTERS_MAX_AGE,
            duplicate_window=self.duplicate_window,
            num_replicas=self.replicas,
        )
