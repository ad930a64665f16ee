"""What must hold of the ledger at every moment (guarantee 7), recomputed from the rows.

The wallet's tests check it after their scenarios and ``tavolo simulate`` after a run of
simulated players: the posted balances sum to zero, no player's balance is negative, each
account's counters equal its transfers, and no hold is resolved twice. It reads the wallet's
tables directly, as an auditor with database access does: no RPC sums the whole ledger.
It lives with the command-line tools, not in the wallet, so that tools may use it (the
import graph keeps libraries from importing a service)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any


@dataclass(frozen=True)
class LedgerAudit:
    posted_sum: int
    pending_debits: int
    pending_credits: int
    counters_wrong: list[str]
    negative: list[str]
    resolved_twice: list[str]
    open_holds_wrong: list[str]

    @property
    def problems(self) -> list[str]:
        found = []
        if self.posted_sum != 0:
            found.append(f"posted balances sum to {self.posted_sum}, not 0")
        if self.pending_debits != self.pending_credits:
            found.append(f"pending {self.pending_debits} debited, {self.pending_credits} credited")
        for name in ("counters_wrong", "negative", "resolved_twice", "open_holds_wrong"):
            found.extend(f"{name}: {item}" for item in getattr(self, name))
        return found


async def audit(conn: Any) -> LedgerAudit:
    """Recompute every account from the transfers and compare with what the database keeps."""
    totals = await conn.fetchrow(
        "SELECT coalesce(sum(credits_posted - debits_posted), 0) AS posted,"
        " coalesce(sum(debits_pending), 0) AS pd, coalesce(sum(credits_pending), 0) AS pc"
        " FROM wallet.accounts"
    )
    wrong = await conn.fetch(
        """
        WITH moves AS (
            -- posted rows and posts move coins; holds reserve until resolved
            SELECT debit_account AS account, -amount AS posted, 0 AS pd, 0 AS pc
              FROM wallet.transfers WHERE kind IN ('posted', 'post_pending')
            UNION ALL
            SELECT credit_account, amount, 0, 0
              FROM wallet.transfers WHERE kind IN ('posted', 'post_pending')
            UNION ALL
            SELECT h.debit_account, 0, h.amount, 0 FROM wallet.transfers h
             WHERE h.kind = 'pending'
               AND NOT EXISTS (SELECT 1 FROM wallet.transfers r WHERE r.pending_id = h.transfer_id)
            UNION ALL
            SELECT h.credit_account, 0, 0, h.amount FROM wallet.transfers h
             WHERE h.kind = 'pending'
               AND NOT EXISTS (SELECT 1 FROM wallet.transfers r WHERE r.pending_id = h.transfer_id)
        ), derived AS (
            SELECT account, sum(posted) AS posted, sum(pd) AS pd, sum(pc) AS pc
              FROM moves GROUP BY account
        )
        SELECT a.account_id FROM wallet.accounts a LEFT JOIN derived d ON d.account = a.account_id
         WHERE a.credits_posted - a.debits_posted <> coalesce(d.posted, 0)
            OR a.debits_pending <> coalesce(d.pd, 0) OR a.credits_pending <> coalesce(d.pc, 0)
        """
    )
    negative = await conn.fetch(
        "SELECT account_id FROM wallet.accounts WHERE kind <> 'issuance'"
        " AND credits_posted - debits_posted - debits_pending < 0"
    )
    twice = await conn.fetch(
        "SELECT pending_id FROM wallet.transfers WHERE pending_id IS NOT NULL"
        " GROUP BY pending_id HAVING count(*) > 1"
    )
    open_wrong = await conn.fetch(
        """
        SELECT h.transfer_id FROM wallet.transfers h
         WHERE h.kind = 'pending'
           AND (NOT EXISTS (SELECT 1 FROM wallet.transfers r WHERE r.pending_id = h.transfer_id))
               <> EXISTS (SELECT 1 FROM wallet.open_holds o WHERE o.hold_id = h.transfer_id)
        """
    )
    return LedgerAudit(
        posted_sum=totals["posted"],
        pending_debits=totals["pd"],
        pending_credits=totals["pc"],
        counters_wrong=[r[0] for r in wrong],
        negative=[r[0] for r in negative],
        resolved_twice=[r[0] for r in twice],
        open_holds_wrong=[r[0] for r in open_wrong],
    )
