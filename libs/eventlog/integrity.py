"""Checks over one service's whole log: no position missing, and agreement with checkpoints.

Positions are gapless by design (see ``tavolo.eventlog.postgres``): a rolled-back append
rolls the counter back, so a hole means a deleted row, and a counter ahead of the last row
means rows deleted at the end. Each stream's hash chain cannot see an event removed from
*another* stream, nor a stream's last events cut off; the positions can.

A checkpoint binds the log up to a position to one digest, folded over the events' hashes
in position order (`fold_digest`). Once published it cannot be taken back, so a later
rewrite of the log before it, even one that rebuilds every chain, no longer folds to it.

Pure: the caller reads the index (the engine's ``GetLogIndex``) and hands it here.
"""

from __future__ import annotations

import hashlib
from collections.abc import Iterable, Sequence
from dataclasses import dataclass
from typing import NamedTuple

#: The digest of the empty log.
EMPTY_DIGEST = bytes(32)


class IndexEntry(NamedTuple):
    """One event's place in a service's log (a named tuple: an auditor builds millions of
    them, at less than half the cost of a frozen dataclass)."""

    position: int
    stream_id: str
    version: int
    hash: bytes

    def label(self) -> str:
        return f"{self.stream_id} event {self.version} (position {self.position})"


#: Every event hash is a SHA-256 digest.
HASH_SIZE = 32


@dataclass(frozen=True, slots=True)
class IndexColumns:
    """A run of the index as parallel columns, the hashes concatenated.

    Why columns: an auditor reads the index of the whole log, millions of entries, and
    four lists and one byte string cross the database, the wire and the checks without
    one object per entry on the way.
    """

    positions: Sequence[int]
    stream_ids: Sequence[str]
    versions: Sequence[int]
    hashes: bytes

    def __post_init__(self) -> None:
        size = len(self.positions)
        if not len(self.stream_ids) == len(self.versions) == size:
            raise ValueError("index columns of different lengths")
        if len(self.hashes) != size * HASH_SIZE:
            raise ValueError(f"index hashes are not {HASH_SIZE} bytes each")

    def __len__(self) -> int:
        return len(self.positions)

    def entries(self) -> list[IndexEntry]:
        h = self.hashes
        hashes = [h[at : at + HASH_SIZE] for at in range(0, len(h), HASH_SIZE)]
        return list(map(IndexEntry, self.positions, self.stream_ids, self.versions, hashes))

    @classmethod
    def of(cls, entries: Sequence[IndexEntry]) -> IndexColumns:
        return cls(
            [e.position for e in entries],
            [e.stream_id for e in entries],
            [e.version for e in entries],
            b"".join(e.hash for e in entries),
        )


def fold_digest(digest: bytes, event_hash: bytes) -> bytes:
    """The log's digest after one more event: sha256(digest || event hash)."""
    return hashlib.sha256(digest + event_hash).digest()


#: The hash an index entry carries when the log still records the event's place (its
#: position, stream and version) but the event itself is gone: no SHA-256 digest is zero.
DELETED_HASH = bytes(HASH_SIZE)


@dataclass(frozen=True, slots=True)
class Gap:
    """A run of missing positions; ``owner`` is the event the log still places there when
    the gap is one position whose place survived the event's deletion."""

    first: int
    last: int
    before: IndexEntry | None
    after: IndexEntry | None
    owner: IndexEntry | None = None

    def text(self) -> str:
        which = (
            f"position {self.first} is"
            if self.first == self.last
            else f"positions {self.first} to {self.last} are"
        )
        if self.owner is not None:
            return (
                f"{which} missing: the log places {self.owner.stream_id} event"
                f" {self.owner.version} there, and that event was deleted"
            )
        where = []
        if self.before is not None:
            where.append(f"after {self.before.label()}")
        if self.after is not None:
            where.append(f"before {self.after.label()}")
        else:
            where.append(f"at the end of the log, whose counter stands at {self.last}")
        return f"{which} missing, {' and '.join(where)}: an event was deleted"


def gaps_in(entries: Sequence[IndexEntry], head_position: int) -> tuple[list[Gap], list[str]]:
    """The runs of missing positions, and positions seen twice or out of order.

    ``entries`` is the whole index in position order; ``head_position`` the last position
    the log handed out. An entry carrying `DELETED_HASH` is a gap of its own, its owner
    named.
    """
    gaps: list[Gap] = []
    disorder: list[str] = []
    before: IndexEntry | None = None
    expected = 1
    for entry in entries:
        if entry.position > expected:
            gaps.append(Gap(expected, entry.position - 1, before, entry))
        elif entry.position < expected:
            disorder.append(f"position {entry.position} appears twice or out of order")
        if entry.hash == DELETED_HASH:
            gaps.append(Gap(entry.position, entry.position, before, None, entry))
            expected = max(expected, entry.position + 1)
            continue
        expected = max(expected, entry.position + 1)
        before = entry
    if head_position >= expected:
        gaps.append(Gap(expected, head_position, before, None))
    return gaps, disorder


def missing_positions(entries: Sequence[IndexEntry], head_position: int) -> list[str]:
    """One finding per run of missing positions (see `gaps_in`), in position order."""
    gaps, disorder = gaps_in(entries, head_position)
    return [gap.text() for gap in gaps] + disorder


def digest_at(entries: Iterable[IndexEntry], position: int) -> bytes | None:
    """The digest of the log up to ``position``; None if the index does not reach it."""
    digest = EMPTY_DIGEST
    if position == 0:
        return digest
    for entry in entries:
        if entry.position > position:
            break
        digest = fold_digest(digest, entry.hash)
        if entry.position == position:
            return digest
    return None
