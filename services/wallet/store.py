"""The wallet's tables (schema ``wallet``): SQL only, no decisions.

Every function takes the connection of a transaction the caller opened, so a use case
and the consumer's record of the message it handled commit together. Balances are never
written here: inserting a transfer makes the database derive them (see the migration).
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable, Iterable, Sequence
from datetime import datetime
from pathlib import Path
from typing import Any, TypeVar

import asyncpg

from tavolo.eventlog import PostgresEventStore
from tavolo.servicekit.migrations import apply_migrations
from tavolo.wallet.accounts import Account, account_kind, player_account
from tavolo.wallet.transfers import Transfer, TransferKind, TransferSpec, row_state

SCHEMA = "wallet"
MIGRATIONS = Path(__file__).parent / "migrations"

Connection = Any  # asyncpg.Connection or a pool's connection proxy
T = TypeVar("T")

_ACCOUNT_COLUMNS = (
    "account_id, credits_posted, debits_posted, credits_pending, debits_pending,"
    " frozen, frozen_reason"
)
_TRANSFER_SELECT = """
SELECT t.seq, t.transfer_id, t.kind, t.debit_account, t.credit_account, t.amount, t.cause,
       coalesce(t.pending_id, '') AS pending_id, t.expires_at, t.event_id, t.created_at,
       r.kind AS resolution_kind
  FROM wallet.transfers t
  LEFT JOIN wallet.transfers r ON r.pending_id = t.transfer_id
"""


async def migrate(pool: asyncpg.Pool) -> list[str]:
    """Create or upgrade the wallet schema, its event log included (hold facts)."""
    applied = await apply_migrations(pool, SCHEMA, MIGRATIONS)
    await PostgresEventStore(pool, SCHEMA).install()
    return applied


def _account(row: asyncpg.Record) -> Account:
    return Account(
        account_id=row["account_id"],
        credits_posted=row["credits_posted"],
        debits_posted=row["debits_posted"],
        credits_pending=row["credits_pending"],
        debits_pending=row["debits_pending"],
        frozen=row["frozen"],
        frozen_reason=row["frozen_reason"],
    )


def _transfer(row: asyncpg.Record) -> Transfer:
    kind = TransferKind(row["kind"])
    resolution = row["resolution_kind"]
    return Transfer(
        seq=row["seq"],
        transfer_id=row["transfer_id"],
        kind=kind,
        debit_account=row["debit_account"],
        credit_account=row["credit_account"],
        amount=row["amount"],
        cause=row["cause"],
        pending_id=row["pending_id"],
        expires_at=row["expires_at"],
        event_id=row["event_id"],
        created_at=row["created_at"],
        state=row_state(kind, None if resolution is None else TransferKind(resolution)),
    )


async def lock_accounts(conn: Connection, account_ids: Iterable[str]) -> dict[str, Account]:
    """Lock the accounts in id order (so no two writers deadlock), opening any that are new."""
    ids = sorted(set(account_ids))
    locked = await _select_for_update(conn, ids)
    missing = [a for a in ids if a not in locked]
    if missing:
        await conn.execute(
            "INSERT INTO wallet.accounts (account_id, kind)"
            " SELECT * FROM unnest($1::text[], $2::text[]) ON CONFLICT DO NOTHING",
            missing,
            [account_kind(a).value for a in missing],
        )
        locked = await _select_for_update(conn, ids)
    return locked


async def open_player_account(conn: Connection, player_id: str) -> None:
    """Open a player's account: the lobby registered them (``PlayerRegistered``)."""
    await conn.execute(
        "INSERT INTO wallet.accounts (account_id, kind) VALUES ($1, 'player')"
        " ON CONFLICT DO NOTHING",
        player_account(player_id),
    )


async def player_account_exists(conn: Connection, player_id: str) -> bool:
    found = await conn.fetchval(
        "SELECT true FROM wallet.accounts WHERE account_id = $1", player_account(player_id)
    )
    return bool(found)


async def _select_for_update(conn: Connection, ids: list[str]) -> dict[str, Account]:
    rows = await conn.fetch(
        f"SELECT {_ACCOUNT_COLUMNS} FROM wallet.accounts WHERE account_id = ANY($1::text[])"
        " ORDER BY account_id FOR UPDATE",
        ids,
    )
    return {row["account_id"]: _account(row) for row in rows}


async def read_account(conn: Connection, account_id: str) -> Account | None:
    row = await conn.fetchrow(
        f"SELECT {_ACCOUNT_COLUMNS} FROM wallet.accounts WHERE account_id = $1", account_id
    )
    return None if row is None else _account(row)


async def find_transfer(conn: Connection, transfer_id: str) -> Transfer | None:
    row = await conn.fetchrow(_TRANSFER_SELECT + " WHERE t.transfer_id = $1", transfer_id)
    return None if row is None else _transfer(row)


async def find_transfers(conn: Connection, transfer_ids: Sequence[str]) -> dict[str, Transfer]:
    rows = await conn.fetch(
        _TRANSFER_SELECT + " WHERE t.transfer_id = ANY($1::text[])", list(transfer_ids)
    )
    return {row["transfer_id"]: _transfer(row) for row in rows}


async def resolution_of(conn: Connection, hold_id: str) -> Transfer | None:
    row = await conn.fetchrow(_TRANSFER_SELECT + " WHERE t.pending_id = $1", hold_id)
    return None if row is None else _transfer(row)


async def insert_transfer(conn: Connection, spec: TransferSpec) -> Transfer:
    """Record ``spec``; the database updates both accounts' counters in the same statement."""
    row = await conn.fetchrow(
        "INSERT INTO wallet.transfers (transfer_id, kind, debit_account, credit_account,"
        " amount, pending_id, expires_at, cause, event_id)"
        " VALUES ($1, $2, $3, $4, $5, nullif($6, ''), $7, $8, $9) RETURNING seq, created_at",
        spec.transfer_id,
        spec.kind.value,
        spec.debit_account,
        spec.credit_account,
        spec.amount,
        spec.pending_id,
        spec.expires_at,
        spec.cause,
        spec.event_id,
    )
    return Transfer(
        seq=row["seq"],
        transfer_id=spec.transfer_id,
        kind=spec.kind,
        debit_account=spec.debit_account,
        credit_account=spec.credit_account,
        amount=spec.amount,
        cause=spec.cause,
        pending_id=spec.pending_id,
        expires_at=spec.expires_at,
        event_id=spec.event_id,
        created_at=row["created_at"],
        state=row_state(spec.kind, None),
    )


async def hold_is_open(conn: Connection, hold_id: str) -> bool:
    return bool(await conn.fetchval("SELECT 1 FROM wallet.open_holds WHERE hold_id = $1", hold_id))


async def expired_holds_of(conn: Connection, account_id: str, now: datetime) -> list[str]:
    rows = await conn.fetch(
        "SELECT hold_id FROM wallet.open_holds WHERE account_id = $1 AND expires_at <= $2"
        " ORDER BY hold_id",
        account_id,
        now,
    )
    return [row["hold_id"] for row in rows]


async def expired_holds(conn: Connection, now: datetime, limit: int) -> list[str]:
    rows = await conn.fetch(
        "SELECT hold_id FROM wallet.open_holds WHERE expires_at <= $1 ORDER BY expires_at LIMIT $2",
        now,
        limit,
    )
    return [row["hold_id"] for row in rows]


async def list_transfers(
    conn: Connection, account_id: str, before_seq: int | None, limit: int
) -> list[Transfer]:
    """The account's rows, newest first, strictly before ``before_seq`` when given."""
    rows = await conn.fetch(
        _TRANSFER_SELECT + " WHERE (t.debit_account = $1 OR t.credit_account = $1)"
        " AND ($2::bigint IS NULL OR t.seq < $2) ORDER BY t.seq DESC LIMIT $3",
        account_id,
        before_seq,
        limit,
    )
    return [_transfer(row) for row in rows]


TABLE_TRANSFER_KINDS = "^(stake|payout|refund|reward):"


async def table_transfers(conn: Connection, table_id: str, limit: int) -> list[Transfer]:
    """Every transfer a table caused, oldest first: its seats' posts into escrow, the holds
    those posts resolve, the payouts, refunds and rewards (AUDIT-5)."""
    rows = await conn.fetch(
        "WITH own AS ("
        " SELECT transfer_id, pending_id FROM wallet.transfers"
        " WHERE split_part(transfer_id, ':', 2) = $1 AND transfer_id ~ $2)"
        + _TRANSFER_SELECT
        + " WHERE t.transfer_id IN (SELECT transfer_id FROM own)"
        " OR t.transfer_id IN (SELECT pending_id FROM own WHERE pending_id IS NOT NULL)"
        " ORDER BY t.seq LIMIT $3",
        table_id,
        TABLE_TRANSFER_KINDS,
        limit,
    )
    return [_transfer(row) for row in rows]


async def change_freeze(
    conn: Connection,
    account_id: str,
    *,
    key: str | None,
    frozen: bool,
    reason: str,
    by: str,
    event_id: str,
) -> None:
    """Add the freeze ``key``, or lift it (``key`` None: lift them all); the account is locked.

    The account's flag and reason are then derived again from the freezes in force, and
    the change is kept in the history with who made it and why.
    """
    if frozen:
        await conn.execute(
            "INSERT INTO wallet.active_freezes (account_id, freeze_key, reason, by_player)"
            " VALUES ($1, $2, $3, $4) ON CONFLICT DO NOTHING",
            account_id,
            key,
            reason,
            by,
        )
    else:
        await conn.execute(
            "DELETE FROM wallet.active_freezes WHERE account_id = $1"
            " AND ($2::text IS NULL OR freeze_key = $2)",
            account_id,
            key,
        )
    await conn.execute(
        "UPDATE wallet.accounts a SET frozen = f.reason IS NOT NULL,"
        " frozen_reason = coalesce(f.reason, '')"
        " FROM (SELECT $1::text AS account_id) k LEFT JOIN LATERAL ("
        "   SELECT reason FROM wallet.active_freezes WHERE account_id = $1"
        "   ORDER BY since DESC, freeze_key LIMIT 1) f ON true"
        " WHERE a.account_id = k.account_id",
        account_id,
    )
    await conn.execute(
        "INSERT INTO wallet.account_freezes"
        " (account_id, freeze_key, frozen, reason, by_player, event_id)"
        " VALUES ($1, $2, $3, $4, $5, $6)",
        account_id,
        key or "*",
        frozen,
        reason,
        by,
        event_id,
    )


async def escrow_stakes(conn: Connection, escrow: str) -> list[Transfer]:
    """The holds posted into an escrow account, in seat-id order."""
    rows = await conn.fetch(
        _TRANSFER_SELECT + " WHERE t.credit_account = $1 AND t.kind = 'post_pending'"
        " ORDER BY t.transfer_id",
        escrow,
    )
    return [_transfer(row) for row in rows]


_RETRYABLE = (
    asyncpg.SerializationError,
    asyncpg.DeadlockDetectedError,
    asyncpg.UniqueViolationError,
)
MAX_ATTEMPTS = 8


async def in_transaction(pool: asyncpg.Pool, work: Callable[[Connection], Awaitable[T]]) -> T:
    """Run ``work`` in a transaction, again from the start if a concurrent writer won.

    A unique violation means another transaction recorded the same transfer id (or
    claimed the same settlement) between our check and our insert: on the next attempt
    the check finds it, so the answer is the first one's.
    """
    for attempt in range(1, MAX_ATTEMPTS + 1):
        try:
            async with pool.acquire() as conn, conn.transaction():
                return await work(conn)
        except _RETRYABLE:
            if attempt == MAX_ATTEMPTS:
                raise
    raise AssertionError("unreachable")
