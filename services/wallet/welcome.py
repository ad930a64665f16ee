"""The welcome grant: coins from issuance for a person's first account, driven by the lobby's
``PlayerRegistered``.

A new account would otherwise hold no coins and could not sit at a stake table until an
operator granted some. The grant runs inside the transaction in which the consumer records
the message as handled, and its transfer id is derived from the player
(``welcome:<player id>``), so a redelivery, or the same registration replayed under another
message id, pays nothing twice.

**[decision]** One welcome per person, not per account: an account that Register linked to an
existing one (the event's ``person_id`` names another player) gets none, or one person could
collect a bonus per account. **[decision]** A grant that would reach a frozen
account is skipped and logged, never paid later, as an operator's grant is refused (a new
account cannot be frozen yet, so this only guards a replay after a freeze).
"""

from __future__ import annotations

import structlog

from tavolo.wallet import ledger, store
from tavolo.wallet.accounts import issuance_account, player_account, welcome_transfer_id
from tavolo.wallet.facts import PlayerRegistered
from tavolo.wallet.store import Connection
from tavolo.wallet.transfers import TransferKind, TransferSpec

log = structlog.get_logger("tavolo.wallet.welcome")

CAUSE = "welcome"


class Welcome:
    """Pays ``coins`` to each person's first account once; 0 pays nothing."""

    def __init__(self, coins: int) -> None:
        if coins < 0:
            raise ValueError(f"a welcome grant cannot be negative, not {coins}")
        self._coins = coins

    async def registered(self, conn: Connection, fact: PlayerRegistered) -> None:
        """Open the new account, and pay it its welcome grant unless the person was
        welcomed already. Only a registered account may be granted coins or hold a stake
        (``tavolo.wallet.app``), so the wallet never mints coins into an account nobody has."""
        await store.open_player_account(conn, fact.player_id)
        if self._coins == 0:
            return
        if not fact.first_account:
            log.info("no welcome grant: linked account", player=fact.player_id)
            return
        transfer_id = welcome_transfer_id(fact.player_id)
        # Paid before, perhaps under another configured amount: that payment stands.
        if await store.find_transfer(conn, transfer_id) is not None:
            return
        account = player_account(fact.player_id)
        issuer = issuance_account(transfer_id)
        accounts = await store.lock_accounts(conn, (issuer, account))
        if accounts[account].frozen:
            log.warning("welcome grant withheld: account frozen", player=fact.player_id)
            return
        spec = TransferSpec(
            transfer_id=transfer_id,
            kind=TransferKind.POSTED,
            debit_account=issuer,
            credit_account=account,
            amount=self._coins,
            cause=CAUSE,
            event_id=fact.event_id,
        )
        await ledger.record(conn, spec)
        log.info("welcome grant paid", player=fact.player_id, amount=self._coins)
