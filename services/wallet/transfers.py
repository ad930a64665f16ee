"""Transfers: immutable, balanced movements of coins, and two-phase holds (pure: no I/O).

The model is TigerBeetle's. A transfer debits one account and credits another by a
positive amount and is never changed afterwards. A *pending* transfer (a hold) reserves
coins without moving them; it is resolved exactly once by a second transfer that either
*posts* it (the coins move) or *voids* it (nothing moves). The state of a hold is derived
from whether such a resolution exists; the schema's ``UNIQUE (pending_id)`` makes a
second resolution impossible.

Ids are chosen by the caller and are idempotency keys: asking again for a transfer that
exists with the same content returns it; the same id with other content is refused.
"""

from __future__ import annotations

from dataclasses import dataclass
from datetime import datetime
from enum import StrEnum

from tavolo.servicekit.errors import AlreadyExists


class TransferKind(StrEnum):
    """What a row of the ledger does."""

    POSTED = "posted"  # moves coins now
    PENDING = "pending"  # a hold: reserves coins until posted or voided
    POST_PENDING = "post_pending"  # moves a hold's coins (possibly into another credit account)
    VOID_PENDING = "void_pending"  # cancels a hold; nothing moves


class TransferState(StrEnum):
    """Where a transfer stands, as callers see it."""

    PENDING = "pending"
    POSTED = "posted"
    VOIDED = "voided"


@dataclass(frozen=True, slots=True)
class TransferSpec:
    """A transfer a use case wants recorded."""

    transfer_id: str
    kind: TransferKind
    debit_account: str
    credit_account: str
    amount: int
    cause: str
    pending_id: str = ""
    expires_at: datetime | None = None
    event_id: str = ""

    def __post_init__(self) -> None:
        if self.amount <= 0:
            raise ValueError(f"a transfer amount must be positive, not {self.amount}")
        if self.debit_account == self.credit_account:
            raise ValueError("a transfer must move coins between two different accounts")


@dataclass(frozen=True, slots=True)
class Transfer:
    """A transfer as recorded; ``state`` is derived (a hold's resolution, if any)."""

    seq: int
    transfer_id: str
    kind: TransferKind
    debit_account: str
    credit_account: str
    amount: int
    cause: str
    pending_id: str
    expires_at: datetime | None
    event_id: str
    created_at: datetime
    state: TransferState


def same_content(spec: TransferSpec, recorded: Transfer) -> bool:
    """True when ``recorded`` is what ``spec`` asks for, so a retry may return it.

    The event id and expiry are not compared: a redelivered event or a retried call
    computes the same movement, and that is what must not happen twice.
    """
    return (
        spec.kind == recorded.kind
        and spec.debit_account == recorded.debit_account
        and spec.credit_account == recorded.credit_account
        and spec.amount == recorded.amount
        and spec.cause == recorded.cause
        and spec.pending_id == recorded.pending_id
    )


class TransferIdTaken(AlreadyExists):
    """The id names another transfer already: ids are idempotency keys for one content."""

    def __init__(self, recorded: Transfer) -> None:
        super().__init__(
            f"transfer id {recorded.transfer_id!r} is already used by another transfer"
            f" ({recorded.amount} coins, {recorded.debit_account} -> {recorded.credit_account},"
            f" cause {recorded.cause!r}): choose a new id",
            reason="TRANSFER_ID_USED",
            metadata={"transfer_id": recorded.transfer_id},
        )
        self.recorded = recorded


def ensure_same_content(spec: TransferSpec, recorded: Transfer) -> Transfer:
    """Return ``recorded`` when ``spec`` is a retry of it; refuse it otherwise."""
    if not same_content(spec, recorded):
        raise TransferIdTaken(recorded)
    return recorded


def resolved_state(resolution_kind: TransferKind | None) -> TransferState:
    """A hold's state given the kind of the transfer that resolved it (None: still open)."""
    if resolution_kind is None:
        return TransferState.PENDING
    if resolution_kind is TransferKind.POST_PENDING:
        return TransferState.POSTED
    if resolution_kind is TransferKind.VOID_PENDING:
        return TransferState.VOIDED
    raise ValueError(f"{resolution_kind} does not resolve a hold")


def row_state(kind: TransferKind, resolution_kind: TransferKind | None) -> TransferState:
    """The state of any ledger row."""
    if kind is TransferKind.PENDING:
        return resolved_state(resolution_kind)
    if kind is TransferKind.VOID_PENDING:
        return TransferState.VOIDED
    return TransferState.POSTED
