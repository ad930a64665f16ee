"""Ledger accounts and the ids of everything the ledger records (pure: no I/O).

Four kinds of account, named by their id so that any transfer row says what it moved:

- ``player:<player id>``: a player's coins; never below zero (a CHECK in the schema);
- ``escrow:<table id>``: a stake table's pot (MODE-4); never below zero, empty once settled;
- ``issuance`` and ``issuance:1`` .. ``issuance:15``: where granted and rewarded coins
  come from; the only accounts whose balance goes negative (together they are minus every
  coin in circulation), so the sum over all accounts is 0. Each grant or reward debits one
  of them, chosen by its transfer id (`issuance_account`): every transfer updates its
  accounts' rows, so one issuance account made every grant and reward of the platform
  commit one after the other. A retried transfer picks the same one;
- ``holds``: the other side of every pending stake. A hold is taken before its table
  exists, so it cannot name the escrow yet; posting it moves the coins from the player
  straight into the table's escrow, so ``holds`` never keeps a posted coin.

Transfer ids are the idempotency keys. Ids chosen by callers (hold ids, grant ids) may not
contain ``:``; every id the wallet derives itself does (``payout:<table>:<seat>``), so the
two can never collide and a replayed event always finds the transfer it made before.
"""

from __future__ import annotations

import re
import zlib
from dataclasses import dataclass
from enum import StrEnum

from tavolo.servicekit.errors import FailedPrecondition, InvalidArgument

ISSUANCE = "issuance"
#: How many accounts share issuance: "issuance" (the first, which holds every coin issued
#: before there were more) and "issuance:1" .. "issuance:15".
ISSUANCE_SHARDS = 16
HOLDS = "holds"
_CALLER_ID = re.compile(r"^[A-Za-z0-9][A-Za-z0-9._@-]{0,127}$")
MAX_PLAYER_ID_LENGTH = 128


class AccountKind(StrEnum):
    """What an account is for; the schema allows only these."""

    PLAYER = "player"
    ESCROW = "escrow"
    ISSUANCE = "issuance"
    HOLDS = "holds"


def player_account(player_id: str) -> str:
    return f"player:{player_id}"


def escrow_account(table_id: str) -> str:
    return f"escrow:{table_id}"


def issuance_account(transfer_id: str) -> str:
    """The issuance account a grant or reward with this id is paid from (always the same)."""
    shard = zlib.crc32(transfer_id.encode()) % ISSUANCE_SHARDS
    return ISSUANCE if shard == 0 else f"{ISSUANCE}:{shard}"


def is_issuance(account_id: str) -> bool:
    if account_id == ISSUANCE:
        return True
    prefix, sep, shard = account_id.partition(":")
    return (
        prefix == ISSUANCE
        and bool(sep)
        and shard.isdigit()
        and str(int(shard)) == shard
        and 0 < int(shard) < ISSUANCE_SHARDS
    )


def account_kind(account_id: str) -> AccountKind:
    """The kind an account id names; a malformed id is a programming error."""
    if is_issuance(account_id):
        return AccountKind.ISSUANCE
    if account_id == HOLDS:
        return AccountKind.HOLDS
    prefix, sep, rest = account_id.partition(":")
    if sep and rest and prefix in (AccountKind.PLAYER, AccountKind.ESCROW):
        return AccountKind(prefix)
    raise ValueError(f"not a wallet account id: {account_id!r}")


def player_of(account_id: str) -> str:
    """The player id of a ``player:`` account ("" for any other account)."""
    prefix, _, rest = account_id.partition(":")
    return rest if prefix == AccountKind.PLAYER else ""


def stake_transfer_id(table_id: str, seat: int) -> str:
    """The post of a seat's hold into the table's escrow (MODE-4)."""
    return f"stake:{table_id}:{seat}"


def payout_transfer_id(table_id: str, seat: int) -> str:
    """A winner's share of the pot."""
    return f"payout:{table_id}:{seat}"


def refund_transfer_id(table_id: str, seat: int) -> str:
    """A seat's stake given back from escrow (cancelled or aborted table)."""
    return f"refund:{table_id}:{seat}"


def reward_transfer_id(table_id: str, seat: int) -> str:
    """A seat's reward from issuance (MODE-2, MODE-3)."""
    return f"reward:{table_id}:{seat}"


def welcome_transfer_id(player_id: str) -> str:
    """A new player's welcome grant: one per account, whatever replays its registration."""
    return f"welcome:{player_id}"


def void_transfer_id(hold_id: str) -> str:
    """The void of a hold; a hold resolves once, so one void id per hold is enough."""
    return f"void:{hold_id}"


def seat_of(transfer_id: str) -> int:
    """The seat a table transfer id names (its last segment)."""
    return int(transfer_id.rsplit(":", 1)[1])


def check_caller_id(value: str, what: str) -> str:
    """Refuse an id a caller chose unless it is 1-128 letters, digits, ``. _ @ -``."""
    if not _CALLER_ID.match(value):
        raise InvalidArgument(
            f"{what} {value!r} is not valid: use 1 to 128 letters, digits, '.', '_', '@' or"
            " '-', starting with a letter or digit",
            reason="FIELD_INVALID",
            metadata={"field": what},
        )
    return value


def check_player_id(value: str) -> str:
    if not value or len(value) > MAX_PLAYER_ID_LENGTH or value.strip() != value:
        raise InvalidArgument(
            f"player_id {value!r} is not valid: give the player's id (1 to 128 characters)",
            reason="FIELD_INVALID",
            metadata={"field": "player_id"},
        )
    return value


@dataclass(frozen=True, slots=True)
class Account:
    """An account's balances as the ledger derived them (TigerBeetle's four counters)."""

    account_id: str
    credits_posted: int = 0
    debits_posted: int = 0
    credits_pending: int = 0
    debits_pending: int = 0
    frozen: bool = False
    frozen_reason: str = ""

    @property
    def balance(self) -> int:
        """Posted coins: credits minus debits."""
        return self.credits_posted - self.debits_posted

    @property
    def held(self) -> int:
        """Coins promised to pending holds."""
        return self.debits_pending

    @property
    def available(self) -> int:
        """Coins that can be spent or held now."""
        return self.balance - self.debits_pending


class InsufficientCoins(FailedPrecondition):
    """The account has fewer available coins than the transfer needs."""

    def __init__(self, available: int, needed: int) -> None:
        super().__init__(
            f"insufficient coins: {available} available, {needed} needed",
            reason="INSUFFICIENT_COINS",
            metadata={"available": available, "needed": needed},
        )
        self.available = available
        self.needed = needed


class AccountIsFrozen(FailedPrecondition):
    """A frozen account may not hold, stake or receive rewards (PCG-4)."""

    def __init__(self, account: Account, doing: str) -> None:
        reason = f" ({account.frozen_reason})" if account.frozen_reason else ""
        who = player_of(account.account_id) or account.account_id
        super().__init__(
            f"the account of {who} is frozen{reason}: it cannot {doing} until a moderator"
            " or operator unfreezes it",
            reason="ACCOUNT_FROZEN",
            metadata={"player_id": who},
        )


def ensure_can_debit(account: Account, amount: int) -> None:
    """Refuse to spend or hold more than is available (issuance may go below zero)."""
    if account_kind(account.account_id) is AccountKind.ISSUANCE:
        return
    if account.available < amount:
        raise InsufficientCoins(account.available, amount)


def ensure_not_frozen(account: Account, doing: str) -> None:
    if account.frozen:
        raise AccountIsFrozen(account, doing)
