"""Audit of a table's log: hash chain, seed commitment, and re-execution (AUDIT-1..4).

Pure: it is handed the recorded events (from the engine's GetTableLog or an exported
file) and checks them without trusting whoever served them:

1. the hash chain is intact (every event carries the hash of the one before);
2. the seed revealed by the closing event hashes to the commitment of the first event;
3. re-executing every recorded action with that seed produces the recorded events byte
   for byte; the first event that differs is reported.

It also rebuilds the table at any version, so an auditor sees what any seat saw then.
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence
from dataclasses import dataclass

from tavolo.eventlog import RecordedEvent, VerificationResult, verify_chain
from tavolo.tablelog.history import evolve, table_from_opened
from tavolo.tablelog.table import (
    ABORTED,
    FINISHED,
    OPENED,
    ReplayMismatch,
    Table,
    seed_commitment,
)


class AuditError(Exception):
    """The log cannot be audited as asked (empty, not a table, seed not revealed yet)."""


@dataclass(frozen=True, slots=True)
class AuditReport:
    """What `audit_table` found; ``ok`` only when every check ran and passed."""

    stream_id: str
    events: int
    chain: VerificationResult
    seed_revealed: bool
    commitment_ok: bool | None
    replayed: int
    divergence: ReplayMismatch | None

    @property
    def ok(self) -> bool:
        return (
            self.chain.ok
            and self.seed_revealed
            and bool(self.commitment_ok)
            and self.divergence is None
        )

    def lines(self) -> list[str]:
        """The report for people, one finding per line."""
        out = [f"table stream {self.stream_id}: {self.events} events"]
        out.append(
            f"hash chain: {'intact' if self.chain.ok else 'BROKEN: ' + str(self.chain.reason)}"
        )
        if not self.seed_revealed:
            out.append(
                "seed: not revealed yet (the table is still in play);"
                " re-execution waits for its end"
            )
            return out
        out.append(
            "seed commitment: "
            + (
                "sha256(seed) matches"
                if self.commitment_ok
                else "MISMATCH: the seed is not the one committed to"
            )
        )
        if self.divergence is not None:
            out.append(
                f"re-execution: FIRST DIFFERENCE at event {self.divergence.version}:"
                f" {self.divergence.detail}"
            )
        else:
            out.append(f"re-execution: {self.replayed} events reproduced exactly")
        out.append("verdict: " + ("OK" if self.ok else "FAILED"))
        return out


def revealed_seed(events: Sequence[RecordedEvent]) -> bytes | None:
    """The seed revealed by the closing event, if the table has closed."""
    if events and events[-1].type in (FINISHED, ABORTED):
        try:
            return bytes.fromhex(str(events[-1].data.get("seed", "")))
        except ValueError:
            return None
    return None


def audit_table(events: Sequence[RecordedEvent], seed: bytes | None = None) -> AuditReport:
    """Check ``events`` (one table's stream in version order); ``seed`` defaults to the one
    the log reveals."""
    if not events:
        raise AuditError("the log is empty: no such table")
    stream_id = events[0].stream_id
    chain = verify_chain(stream_id, events)
    if events[0].type != OPENED:
        raise AuditError(f"{stream_id} does not start with {OPENED}: not a table")
    seed = seed if seed is not None else revealed_seed(events)
    if seed is None:
        return AuditReport(stream_id, len(events), chain, False, None, 0, None)
    commitment_ok = seed_commitment(seed) == events[0].data.get("seed_commitment")
    replayed = 0
    divergence: ReplayMismatch | None = None
    try:
        for _ in tables_by_version(events, seed):
            replayed += 1
    except ReplayMismatch as exc:
        divergence = exc
    return AuditReport(stream_id, len(events), chain, True, commitment_ok, replayed, divergence)


def tables_by_version(events: Sequence[RecordedEvent], seed: bytes) -> Iterator[Table]:
    """The table after each event, re-executed from ``seed``; ReplayMismatch at the first
    event the rules do not reproduce."""
    first = events[0]
    try:
        table = table_from_opened(first.data, first.metadata, seed)
    except ReplayMismatch:
        raise
    except Exception as exc:
        raise ReplayMismatch(1, f"the opening event cannot be replayed: {exc}") from None
    yield table
    for event in events[1:]:
        try:
            table = evolve(table, event.version, event.type, event.data, event.metadata)
        except ReplayMismatch:
            raise
        except Exception as exc:
            raise ReplayMismatch(event.version, f"cannot be replayed: {exc}") from None
        yield table


def table_at(events: Sequence[RecordedEvent], seed: bytes, version: int) -> Table:
    """The table right after event ``version`` (AUDIT-4)."""
    if not 1 <= version <= len(events):
        raise AuditError(f"the table has events 1 to {len(events)}; there is no event {version}")
    for table in tables_by_version(events, seed):
        if table.version == version:
            return table
    raise AuditError(f"event {version} was not reached")  # pragma: no cover - guarded above
