"""What must hold of the ledger at every moment (guarantee 7): the audit lives in
:mod:`tavolo.cli.audit.ledger`; these helpers read it from a pool."""

from __future__ import annotations

import asyncpg

from tavolo.cli.audit.ledger import LedgerAudit, audit

__all__ = ["LedgerAudit", "audit", "audit_pool", "balance"]


async def audit_pool(pool: asyncpg.Pool) -> LedgerAudit:
    async with pool.acquire() as conn:
        return await audit(conn)


async def issued(pool: asyncpg.Pool) -> int:
    """Posted coins of all issuance accounts together: minus every coin issued."""
    async with pool.acquire() as conn:
        value = await conn.fetchval(
            "SELECT sum(credits_posted - debits_posted) FROM wallet.accounts"
            " WHERE kind = 'issuance'"
        )
    return int(value or 0)


async def balance(pool: asyncpg.Pool, account_id: str) -> int:
    """Posted coins of an account (0 if it was never opened)."""
    async with pool.acquire() as conn:
        value = await conn.fetchval(
            "SELECT credits_posted - debits_posted FROM wallet.accounts WHERE account_id = $1",
            account_id,
        )
    return int(value or 0)
