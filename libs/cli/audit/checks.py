"""Every way a table's stored log can differ from the one that was played, as findings.

`audit_table` re-executes the table; this module adds what a single stream cannot show on
its own and words every finding the same way, ``table T event N: what is wrong``:

- a cut tail: the log stops before the table finished or aborted, or before the version
  the engine's table row records;
- an event of this table deleted while its place in the engine's log survived; a gap
  elsewhere in the global positions is the platform's finding, reported beside the
  table's verdict, never in it (naming the owner where the index still knows it);
- a receipt (the last hash every seat was handed when the table ended) that the stored log
  no longer ends with, which shows even a rewrite of the whole chain;
- a signed checkpoint of the engine's log head that the log no longer folds to.

Pure: the caller fetches the events and the engine's facts and hands them here.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field, replace

from tavolo.eventlog import RecordedEvent
from tavolo.eventlog.checkpoint import Checkpoint, hold_to_checkpoints
from tavolo.eventlog.integrity import IndexEntry, gaps_in
from tavolo.eventlog.verification import event_hash
from tavolo.tablelog.replay import AuditReport, audit_table
from tavolo.tablelog.table import ABORTED, FINISHED, OPENED

CLOSING = (FINISHED, ABORTED)
NO_INDEX = (
    "whether events were deleted elsewhere in the engine's log (its index is for auditors,"
    " and a file holds one table only)"
)


@dataclass(frozen=True, slots=True)
class EngineFacts:
    """What the engine records beside the events; unknown (None) when reading a file."""

    head_version: int | None = None
    status: str | None = None
    index: Sequence[IndexEntry] | None = None
    head_position: int | None = None
    replay_problem: str = ""
    """Why the engine's own replay of the log stops ("" when it does not)."""


@dataclass(frozen=True, slots=True)
class Verdict:
    """The re-execution report, the findings, and what passed (for people, line by line)."""

    table: str
    report: AuditReport | None
    findings: list[str] = field(default_factory=list)
    passed: list[str] = field(default_factory=list)
    live: bool = False
    notes: list[str] = field(default_factory=list)
    platform: list[str] = field(default_factory=list)
    """Findings about the engine's whole log that are not this table's: reported beside
    the verdict, which depends only on the table's own chain and positions."""
    engine_replay: str = ""
    """Where the engine says its own replay of the log stops (told, not checked here)."""

    @property
    def ok(self) -> bool:
        return not self.findings and (self.live or (self.report is not None and self.report.ok))

    def lines(self) -> list[str]:
        counts = f"{_count(self.passed, 'check')} passed, {_count(self.findings, 'finding')}"
        out = [f"table {self.table}: {counts}"]
        out += [f"ok: {line}" for line in self.passed]
        out += [f"FINDING: {line}" for line in self.findings]
        out += [f"not checked: {line}" for line in self.notes]
        if self.engine_replay:
            out.append(
                f"the engine reports its own replay of this log stops at {self.engine_replay}"
                " (the checks above ran here, on the events received)"
            )
        if self.platform:
            out.append(
                f"the engine's whole log has {_count(self.platform, 'finding')} of its own"
                " (the platform's, not in this table's verdict):"
            )
            out += [f"ENGINE LOG FINDING: {line}" for line in self.platform]
        if self.live and not self.findings:
            out.append("the table is still in play: its seed and re-execution wait for its end")
        out.append("verdict: " + ("OK" if self.ok else "FAILED"))
        return out


def table_of(stream_id: str) -> str:
    return stream_id.removeprefix("table-")


def check_table(
    table: str,
    events: Sequence[RecordedEvent],
    facts: EngineFacts | None = None,
    receipt: str | None = None,
    checkpoints: Sequence[Checkpoint] = (),
    checkpoint_key: str = "",
) -> Verdict:
    """Every check on one table's log; ``receipt`` is the hex hash a seat was handed,
    ``checkpoints`` the engine's signed checkpoints (checked with ``checkpoint_key``)."""
    facts = facts or EngineFacts()
    if not events:
        return Verdict(table, None, [f"table {table}: the log holds no events at all"])
    findings: list[str] = []
    passed: list[str] = []
    report = audit_table(events) if events[0].type == OPENED else None
    if report is None:
        findings.append(
            f"table {table} event {events[0].version}: the log starts with {events[0].type},"
            f" not {OPENED} (its opening event was removed or replaced)"
        )
    else:
        _replay_findings(table, report, findings, passed)
    live = _tail_findings(table, events, facts, findings, passed)
    platform: list[str] = []
    if facts.index is not None and facts.head_position is not None:
        _position_findings(table, facts.index, facts.head_position, findings, passed, platform)
        findings += _moved_here(table, events, facts.index, facts.head_position)
    notes = [] if facts.index is not None else [NO_INDEX]
    if receipt is not None:
        _receipt_findings(table, events, receipt, findings, passed)
    if checkpoints:
        _checkpoint_findings(table, events, facts, checkpoints, checkpoint_key, findings, passed)
    return Verdict(table, report, findings, passed, live, notes, platform, facts.replay_problem)


def _moved_here(
    table: str, events: Sequence[RecordedEvent], index: Sequence[IndexEntry], head: int
) -> list[str]:
    """Events whose hash holds only as another stream's deleted event: moved here."""
    gaps, _ = gaps_in(index, head)
    owners = [g.owner for g in gaps if g.owner is not None]
    if not owners:
        return []
    found = []
    for event in events:
        if event_hash(event, event.prev_hash) == event.hash:
            continue
        for owner in owners:
            there = replace(event, stream_id=owner.stream_id, version=owner.version)
            if event_hash(there, event.prev_hash) == event.hash:
                found.append(
                    f"table {table} event {event.version}: moved here: it is {owner.stream_id}"
                    f" event {owner.version}, whose hash it carries (deleted there)"
                )
                break
    return found


def _position_findings(
    table: str,
    index: Sequence[IndexEntry],
    head_position: int,
    findings: list[str],
    passed: list[str],
    platform: list[str],
) -> None:
    """A deleted event whose place names this table is the table's finding; every other
    gap in the engine's log is the platform's."""
    stream = f"table-{table}"
    gaps, disorder = gaps_in(index, head_position)
    for gap in gaps:
        if gap.owner is not None and gap.owner.stream_id == stream:
            findings.append(
                f"table {table} event {gap.owner.version}: deleted: the engine's log places"
                f" it at position {gap.first}, but the event is gone"
            )
        else:
            platform.append(gap.text())
    platform += disorder
    if not gaps and not disorder:
        passed.append(f"engine log: positions 1 to {head_position} all present, none deleted")
    elif not any(g.owner is not None and g.owner.stream_id == stream for g in gaps):
        passed.append("engine log: no position it gives this table's events is missing")


def _replay_findings(
    table: str, report: AuditReport, findings: list[str], passed: list[str]
) -> None:
    if report.chain.ok:
        passed.append(f"hash chain intact over {report.chain.events_checked} events")
    else:
        findings.append(f"table {table}: {report.chain.reason}")
    if not report.seed_revealed:
        return
    if report.commitment_ok:
        passed.append("the revealed seed hashes to the commitment of event 1")
    else:
        findings.append(
            f"table {table} event {report.events}: the seed it reveals does not hash to the"
            " commitment in event 1 (the deal was not the one committed to)"
        )
    if report.divergence is None:
        passed.append(f"re-execution reproduced all {report.replayed} events exactly")
    else:
        findings.append(
            f"table {table} event {report.divergence.version}: the replay diverges:"
            f" {report.divergence.detail}"
        )


def _tail_findings(
    table: str,
    events: Sequence[RecordedEvent],
    facts: EngineFacts,
    findings: list[str],
    passed: list[str],
) -> bool:
    """The cut-tail checks; True when the table is genuinely still in play."""
    last = events[-1]
    closed = last.type in CLOSING
    if facts.head_version is not None and facts.head_version != last.version:
        if facts.head_version > last.version:
            cut = _versions(last.version + 1, facts.head_version)
            findings.append(
                f"table {table} event {last.version + 1}: missing: the table row records"
                f" version {facts.head_version} but the log ends at event {last.version}"
                f" ({last.type}); {cut} cut off"
            )
        else:
            findings.append(
                f"table {table} event {last.version}: the log runs past version"
                f" {facts.head_version}, where the table row says the table is"
            )
    if closed:
        if facts.status == "playing":
            findings.append(
                f"table {table} event {last.version}: the log ends with {last.type}, but the"
                " table row says the table is still in play (the row was changed)"
            )
        else:
            passed.append(f"the log ends with event {last.version}, {last.type}")
        return False
    if facts.status == "playing" and facts.head_version == last.version:
        passed.append(f"the log ends at event {last.version} and the engine holds it in play")
        return True
    state = (
        f"the engine records it as {facts.status}"
        if facts.status is not None
        else "nothing shows it is still in play"
    )
    findings.append(
        f"table {table} event {last.version}: the log ends with {last.type}, neither"
        f" finished nor aborted, and {state}: its tail was cut"
    )
    return False


def _versions(first: int, last: int) -> str:
    return f"event {first} was" if first == last else f"events {first} to {last} were"


def _receipt_findings(
    table: str,
    events: Sequence[RecordedEvent],
    receipt: str,
    findings: list[str],
    passed: list[str],
) -> None:
    wanted = receipt.strip().lower()
    last = events[-1]
    if last.hash.hex() == wanted:
        passed.append(
            f"the receipt {wanted[:16]}... is the hash of event {last.version}, the last:"
            " the stored log is the one the players were given"
        )
        return
    earlier = next((e for e in events if e.hash.hex() == wanted), None)
    if earlier is not None:
        findings.append(
            f"table {table} event {earlier.version + 1}: the receipt is the hash of event"
            f" {earlier.version}, but the stored log goes on to event {last.version}:"
            " events were added after the players were given their receipt"
        )
        return
    findings.append(
        f"table {table} event {last.version}: the receipt {wanted[:16]}... is not the hash"
        f" of any stored event (the last is {last.hash.hex()[:16]}...): the stored log is not"
        " the one the players were given"
    )


def _count(items: Sequence[str], noun: str) -> str:
    return f"{len(items)} {noun}" + ("" if len(items) == 1 else "s")


def _checkpoint_findings(
    table: str,
    events: Sequence[RecordedEvent],
    facts: EngineFacts,
    checkpoints: Sequence[Checkpoint],
    key: str,
    findings: list[str],
    passed: list[str],
) -> None:
    if facts.index is None:
        findings.append("checkpoints need the engine's whole log index: verify with --server")
        return
    mine = [c for c in checkpoints if c.service == "engine"]
    found, held, ranges = hold_to_checkpoints(facts.index, mine, key)
    findings += [f"engine log: {line}" for line in found]
    passed += held
    for first, last in ranges[:1]:
        inside = [e.version for e in events if first <= e.position <= last]
        if inside:
            findings.append(
                f"table {table} events {inside[0]} to {inside[-1]} lie between positions"
                f" {first} and {last}, which the checkpoint no longer vouches for"
            )
