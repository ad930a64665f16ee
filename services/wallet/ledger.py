"""The ledger's operations inside one transaction: record a transfer, hold, post, void.

Each operation is idempotent by transfer id and follows one locking discipline: the
accounts a transaction touches are locked in id order before anything is checked, so
checks see the latest committed balances and concurrent writers never deadlock. The
decisions themselves (enough coins? frozen? same content?) are the pure functions of
``tavolo.wallet.accounts`` and ``tavolo.wallet.transfers``; the database enforces the
same limits again underneath (see the migration).
"""

from __future__ import annotations

from collections.abc import Iterable
from dataclasses import dataclass
from datetime import datetime

from tavolo.servicekit.errors import NotFound, quoted
from tavolo.wallet import store
from tavolo.wallet.accounts import (
    ensure_can_debit,
    ensure_not_frozen,
    void_transfer_id,
)
from tavolo.wallet.store import Connection
from tavolo.wallet.transfers import (
    Transfer,
    TransferKind,
    TransferSpec,
    ensure_same_content,
)


@dataclass(frozen=True, slots=True)
class FrozenCheck:
    """Refuse the transfer if ``account_id`` is frozen; ``doing`` completes "it cannot ..."."""

    account_id: str
    doing: str


async def record(
    conn: Connection,
    spec: TransferSpec,
    *,
    refuse_frozen: Iterable[FrozenCheck] = (),
) -> Transfer:
    """Record ``spec`` once: a retry returns the first record, another content is refused."""
    existing = await store.find_transfer(conn, spec.transfer_id)
    if existing is not None:
        return ensure_same_content(spec, existing)
    accounts = await store.lock_accounts(conn, (spec.debit_account, spec.credit_account))
    for check in refuse_frozen:
        ensure_not_frozen(accounts[check.account_id], check.doing)
    if spec.kind in (TransferKind.POSTED, TransferKind.PENDING):
        ensure_can_debit(accounts[spec.debit_account], spec.amount)
    return await store.insert_transfer(conn, spec)


async def hold(conn: Connection, spec: TransferSpec, now: datetime) -> Transfer:
    """Take a hold (a pending transfer), voiding the account's expired holds first.

    Expired holds are voided here as well as by the sweeper, so a player never finds
    coins still held by a hold whose time is up.
    """
    if spec.kind is not TransferKind.PENDING:
        raise ValueError("a hold is a pending transfer")
    existing = await store.find_transfer(conn, spec.transfer_id)
    if existing is not None:
        return ensure_same_content(spec, existing)
    await store.lock_accounts(conn, (spec.debit_account, spec.credit_account))
    for expired in await store.expired_holds_of(conn, spec.debit_account, now):
        await resolve(conn, expired, now=now, cause="expired")
    return await record(
        conn, spec, refuse_frozen=[FrozenCheck(spec.debit_account, "hold or stake coins")]
    )


@dataclass(frozen=True, slots=True)
class Resolution:
    """A hold and the transfer that resolved it (the first one, however often asked)."""

    hold: Transfer
    resolution: Transfer


async def resolve(
    conn: Connection,
    hold_id: str,
    *,
    now: datetime,
    cause: str,
    post_to: str | None = None,
    post_id: str = "",
    event_id: str = "",
) -> Resolution:
    """Post the hold into ``post_to`` (under ``post_id``) or, without it, void it.

    A hold already resolved is left alone and its first resolution returned, so asking
    twice changes nothing. A hold past its expiry is voided as expired, never posted.
    """
    pending = await store.find_transfer(conn, hold_id)
    if pending is None or pending.kind is not TransferKind.PENDING:
        raise NotFound(
            f"there is no hold {quoted(hold_id)}: check the hold id",
            reason="HOLD_NOT_FOUND",
            metadata={"hold_id": hold_id},
        )
    await store.lock_accounts(
        conn, {pending.debit_account, pending.credit_account, *([post_to] if post_to else [])}
    )
    if not await store.hold_is_open(conn, hold_id):
        first = await store.resolution_of(conn, hold_id)
        assert first is not None, f"hold {hold_id} is neither open nor resolved"
        return Resolution(pending, first)
    expired = pending.expires_at is not None and pending.expires_at <= now
    if post_to is not None and not expired:
        spec = TransferSpec(
            transfer_id=post_id,
            kind=TransferKind.POST_PENDING,
            debit_account=pending.debit_account,
            credit_account=post_to,
            amount=pending.amount,
            cause=cause,
            pending_id=hold_id,
            event_id=event_id,
        )
    else:
        spec = TransferSpec(
            transfer_id=void_transfer_id(hold_id),
            kind=TransferKind.VOID_PENDING,
            debit_account=pending.debit_account,
            credit_account=pending.credit_account,
            amount=pending.amount,
            cause="expired" if expired else cause,
            pending_id=hold_id,
            event_id=event_id,
        )
    resolution = await store.insert_transfer(conn, spec)
    refreshed = await store.find_transfer(conn, hold_id)
    assert refreshed is not None
    return Resolution(refreshed, resolution)
