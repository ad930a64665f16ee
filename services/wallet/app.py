"""The wallet's use cases for callers of its API: read, hold, release, grant, freeze.

Every decision a caller can meet is made here or in the pure modules it calls: who may
do what (players read only their own account; the lobby holds and releases; operators
grant; operators and moderators freeze), whether the input is well formed, and whether
the ledger allows it. Each runs in one transaction, so a refusal changes nothing.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from datetime import UTC, datetime, timedelta

import asyncpg
import structlog

from tavolo.eventlog import PostgresEventStore
from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import (
    AlreadyExists,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
)
from tavolo.wallet import hold_events, ledger, store
from tavolo.wallet.accounts import (
    HOLDS,
    Account,
    check_caller_id,
    check_player_id,
    issuance_account,
    player_account,
    player_of,
)
from tavolo.wallet.config import WalletConfig
from tavolo.wallet.hold_events import HoldChange, HoldEvents, HoldState
from tavolo.wallet.ledger import FrozenCheck
from tavolo.wallet.store import Connection
from tavolo.wallet.transfers import Transfer, TransferKind, TransferSpec, TransferState

log = structlog.get_logger("tavolo.wallet")

Clock = Callable[[], datetime]
READERS = (Role.OPERATOR, Role.MODERATOR, Role.AUDITOR, Role.SERVICE)
DEFAULT_PAGE = 50
MAX_PAGE = 500
#: More than any table causes (a hold, a post and a payout or refund per seat).
MAX_TABLE_TRANSFERS = 1000
MAX_TEXT = 200
MAX_EXPIRY_SECONDS = 7 * 24 * 3600
# The key of a freeze applied through the Freeze call (sanctions use their own ids).
OPERATOR_FREEZE = "operator"


def utc_now() -> datetime:
    return datetime.now(UTC)


@dataclass(frozen=True, slots=True)
class BalanceView:
    player_id: str
    available: int
    held: int
    frozen: bool
    frozen_reason: str

    @classmethod
    def of(cls, player_id: str, account: Account | None) -> BalanceView:
        if account is None:
            return cls(player_id, 0, 0, False, "")
        return cls(
            player_id, account.available, account.held, account.frozen, account.frozen_reason
        )


@dataclass(frozen=True, slots=True)
class HoldView:
    hold_id: str
    player_id: str
    amount: int
    state: TransferState
    expires_at: datetime | None

    @classmethod
    def of(cls, hold: Transfer) -> HoldView:
        return cls(
            hold.transfer_id,
            player_of(hold.debit_account),
            hold.amount,
            hold.state,
            hold.expires_at,
        )


@dataclass(frozen=True, slots=True)
class TransfersPage:
    transfers: list[Transfer]
    next_page_token: str


def _text(value: str, what: str, *, required: bool) -> str:
    if required and not value.strip():
        raise InvalidArgument(
            f"{what} is required: say what it is for",
            reason="FIELD_REQUIRED",
            metadata={"field": what},
        )
    if len(value) > MAX_TEXT:
        raise InvalidArgument(
            f"{what} is {len(value)} characters long; the limit is {MAX_TEXT}",
            reason="FIELD_INVALID",
            metadata={"field": what},
        )
    return value


class WalletApp:
    """Use cases behind the ``Wallet`` gRPC service."""

    def __init__(
        self,
        pool: asyncpg.Pool,
        config: WalletConfig,
        clock: Clock = utc_now,
        holds: HoldEvents | None = None,
    ) -> None:
        self._pool = pool
        self._config = config
        self._clock = clock
        self._holds = holds or HoldEvents(PostgresEventStore(pool, store.SCHEMA))

    def _whose(self, who: Principal, player_id: str) -> str:
        """The player to read: the caller's own unless a reader role asks for another."""
        target = player_id or who.player_id
        check_player_id(target)
        if target != who.player_id and not who.roles.intersection(READERS):
            raise PermissionDenied("you can read only your own account", reason="OWN_ACCOUNT_ONLY")
        return target

    async def get_balance(self, who: Principal, player_id: str) -> BalanceView:
        target = self._whose(who, player_id)
        async with self._pool.acquire() as conn:
            return BalanceView.of(target, await store.read_account(conn, player_account(target)))

    async def list_transfers(
        self, who: Principal, player_id: str, page_size: int, page_token: str
    ) -> TransfersPage:
        target = self._whose(who, player_id)
        if page_size < 0 or page_size > MAX_PAGE:
            raise InvalidArgument(
                f"page_size must be between 1 and {MAX_PAGE}, not {page_size}",
                reason="FIELD_INVALID",
                metadata={"field": "page_size"},
            )
        size = page_size or DEFAULT_PAGE
        before: int | None = None
        if page_token:
            if not page_token.isdigit():
                raise InvalidArgument(
                    "page_token is not one this service gave: start again",
                    reason="PAGE_TOKEN_INVALID",
                    metadata={"field": "page_token"},
                )
            before = int(page_token)
        async with self._pool.acquire() as conn:
            rows = await store.list_transfers(conn, player_account(target), before, size + 1)
        more = len(rows) > size
        rows = rows[:size]
        return TransfersPage(rows, str(rows[-1].seq) if more else "")

    async def table_transfers(self, who: Principal, table_id: str) -> list[Transfer]:
        """A table's coin movements (AUDIT-5), for the replay page and disputes.

        Auditors, moderators and operators read any table's; a player reads those of a
        table whose movements touch their own account. To anyone else a table's money is
        NOT_FOUND, not PERMISSION_DENIED, so the answer does not say whether it had any.
        """
        check_caller_id(table_id, "table_id")
        async with self._pool.acquire() as conn:
            moved = await store.table_transfers(conn, table_id, MAX_TABLE_TRANSFERS)
        if who.roles.intersection(READERS):
            return moved
        own = player_account(who.player_id)
        if any(own in (t.debit_account, t.credit_account) for t in moved):
            return moved
        raise NotFound(
            f"no coin movements of table {table_id!r} that you can see",
            reason="TABLE_NOT_FOUND",
            metadata={"table_id": table_id},
        )

    async def hold_stake(
        self,
        who: Principal,
        hold_id: str,
        player_id: str,
        amount: int,
        cause: str,
        expires_in_seconds: int,
    ) -> HoldView:
        """Hold a stake for the lobby (MODE-4): pending until posted into escrow or voided."""
        who.require(Role.SERVICE, Role.OPERATOR)
        check_caller_id(hold_id, "hold_id")
        check_player_id(player_id)
        if amount not in self._config.stakes:
            allowed = ", ".join(str(s) for s in self._config.stakes)
            raise InvalidArgument(
                f"a stake must be one of {allowed} coins, not {amount}",
                reason="STAKE_INVALID",
                metadata={"allowed": allowed},
            )
        _text(cause, "cause", required=False)
        if not 0 <= expires_in_seconds <= MAX_EXPIRY_SECONDS:
            raise InvalidArgument(
                f"expires_in_seconds must be between 0 (never) and {MAX_EXPIRY_SECONDS},"
                f" not {expires_in_seconds}",
                reason="FIELD_INVALID",
                metadata={"field": "expires_in_seconds"},
            )
        now = self._clock()
        spec = TransferSpec(
            transfer_id=hold_id,
            kind=TransferKind.PENDING,
            debit_account=player_account(player_id),
            credit_account=HOLDS,
            amount=amount,
            cause=f"hold:{cause}" if cause else "hold",
            expires_at=now + timedelta(seconds=expires_in_seconds) if expires_in_seconds else None,
        )

        async def work(conn: Connection) -> Transfer:
            await _require_account(conn, player_id)
            held = await ledger.hold(conn, spec, now)
            if held.state is not TransferState.PENDING:
                # A retry may find its hold; a hold already posted or voided holds nothing,
                # and answering as if it did would seat a player who paid nothing.
                raise AlreadyExists(
                    f"hold {hold_id!r} was already {held.state.value}: a new hold needs a new id",
                    reason="HOLD_ID_USED",
                    metadata={"hold_id": hold_id, "state": held.state.value},
                )
            await self._holds.tell(conn, hold_events.placed(held))
            return held

        try:
            held = await store.in_transaction(self._pool, work)
        except FailedPrecondition as exc:  # short of coins, frozen: told, then refused
            refused = HoldChange(hold_id, player_id, amount, HoldState.REFUSED, reason=str(exc))

            async def tell(conn: Connection) -> bool:
                return await self._holds.tell(conn, refused)

            await store.in_transaction(self._pool, tell)
            raise
        log.info("stake held", hold_id=hold_id, player=player_id, amount=amount)
        return HoldView.of(held)

    async def release_hold(self, who: Principal, hold_id: str) -> HoldView:
        """Void a hold (the player left the queue); a resolved hold answers as it stands."""
        who.require(Role.SERVICE, Role.OPERATOR)
        check_caller_id(hold_id, "hold_id")
        now = self._clock()

        async def work(conn: Connection) -> Transfer:
            done = await ledger.resolve(conn, hold_id, now=now, cause="released")
            await self._holds.tell(conn, hold_events.resolved(done))
            return done.hold

        return HoldView.of(await store.in_transaction(self._pool, work))

    async def grant(
        self, who: Principal, transfer_id: str, player_id: str, amount: int, reason: str
    ) -> Transfer:
        """Give coins from issuance (a goodwill refund, a correction): operators only.

        New players are welcomed automatically (``tavolo.wallet.welcome``).
        """
        who.require(Role.OPERATOR)
        check_caller_id(transfer_id, "transfer_id")
        check_player_id(player_id)
        if not 0 < amount <= self._config.max_grant:
            raise InvalidArgument(
                f"a grant must be between 1 and {self._config.max_grant} coins, not {amount}",
                reason="GRANT_INVALID",
                metadata={"allowed": f"1-{self._config.max_grant}"},
            )
        _text(reason, "reason", required=True)
        account = player_account(player_id)
        spec = TransferSpec(
            transfer_id=transfer_id,
            kind=TransferKind.POSTED,
            debit_account=issuance_account(transfer_id),
            credit_account=account,
            amount=amount,
            cause=f"grant:{reason}",
        )

        async def work(conn: Connection) -> Transfer:
            await _require_account(conn, player_id)
            return await ledger.record(
                conn, spec, refuse_frozen=[FrozenCheck(account, "receive grants")]
            )

        granted = await store.in_transaction(self._pool, work)
        log.info("coins granted", transfer_id=transfer_id, player=player_id, amount=amount)
        return granted

    async def freeze(self, who: Principal, player_id: str, reason: str) -> BalanceView:
        """Freeze a player's coins pending a decision (PCG-4)."""
        who.require(Role.OPERATOR, Role.MODERATOR)
        check_player_id(player_id)
        _text(reason, "reason", required=True)
        change = FreezeChange(player_id, OPERATOR_FREEZE, True, reason, who.player_id, "")
        return await self._change_freeze(change)

    async def unfreeze(self, who: Principal, player_id: str) -> BalanceView:
        """Lift every freeze of the account, the sanctions' included: the final decision."""
        who.require(Role.OPERATOR, Role.MODERATOR)
        check_player_id(player_id)
        change = FreezeChange(player_id, None, False, "", who.player_id, "")
        return await self._change_freeze(change)

    async def _change_freeze(self, change: FreezeChange) -> BalanceView:
        async def work(conn: Connection) -> BalanceView:
            await _require_account(conn, change.player_id)
            return await change_freeze(conn, change)

        return await store.in_transaction(self._pool, work)

    async def sweep_expired_holds(self, limit: int = 200) -> int:
        """Void holds whose time is up; any replica may run this at any time."""
        now = self._clock()
        async with self._pool.acquire() as conn:
            expired = await store.expired_holds(conn, now, limit)
        for hold_id in expired:

            async def work(conn: Connection, hold_id: str = hold_id) -> None:
                done = await ledger.resolve(conn, hold_id, now=now, cause="expired")
                await self._holds.tell(conn, hold_events.resolved(done))

            try:
                await store.in_transaction(self._pool, work)
            except NotFound:
                continue
        if expired:
            log.info("expired holds voided", count=len(expired))
        return len(expired)


async def _require_account(conn: Connection, player_id: str) -> None:
    """NOT_FOUND unless the lobby registered ``player_id``: a grant, a hold or a freeze that
    names nobody would otherwise open an account for nobody (and mint coins into it)."""
    if not await store.player_account_exists(conn, player_id):
        raise NotFound(
            f"the wallet has no account for player {player_id!r}: accounts open when the"
            " lobby registers a player",
            reason="WALLET_ACCOUNT_NOT_FOUND",
            metadata={"player_id": player_id},
        )


@dataclass(frozen=True, slots=True)
class FreezeChange:
    """Freeze (or lift) ``key`` on a player's account; ``key`` None lifts every freeze."""

    player_id: str
    key: str | None
    frozen: bool
    reason: str
    by: str
    event_id: str


async def change_freeze(conn: Connection, change: FreezeChange) -> BalanceView:
    """Apply a freeze change inside the caller's transaction, recording who and why."""
    account_id = player_account(change.player_id)
    await store.lock_accounts(conn, [account_id])
    await store.change_freeze(
        conn,
        account_id,
        key=change.key,
        frozen=change.frozen,
        reason=change.reason,
        by=change.by,
        event_id=change.event_id,
    )
    log.info(
        "account frozen" if change.frozen else "freeze lifted",
        player=change.player_id,
        key=change.key,
        by=change.by,
    )
    return BalanceView.of(change.player_id, await store.read_account(conn, account_id))
