"""What every lobby use case works with: ``LobbyContext`` (the database, the event log,
the engine and wallet ports, the notifier, the clock and the id source), the lobby's
tunables (``LobbyConfig``) and the helpers the use cases share.

Its own module so that the imports point one way: the feature modules (``accounts``,
``play``, ``queue``, ``matchmaker``, ``chat``, ``moderation``, ``watch``) import this,
and ``app`` imports them.
"""

from __future__ import annotations

import uuid
from collections.abc import Awaitable, Callable, Iterable, Mapping, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime, timedelta

from tavolo.eventlog import EventStore
from tavolo.lobby.accounts import store as accounts_store
from tavolo.lobby.accounts.passwords import Passwords
from tavolo.lobby.accounts.sanctions import Sanction, ensure_may_use_lobby
from tavolo.lobby.accounts.store import Account
from tavolo.lobby.clients import EnginePort, WalletPort
from tavolo.lobby.events import Pending
from tavolo.lobby.play import tables_store
from tavolo.lobby.play.policy import MatchPolicy
from tavolo.lobby.store import Connection, Database
from tavolo.lobby.updates import Update
from tavolo.servicekit.auth import Principal, TokenSigner
from tavolo.servicekit.errors import FailedPrecondition, Unauthenticated

Notify = Callable[[str, Update], Awaitable[None]]


def utc_now() -> datetime:
    return datetime.now(UTC)


def new_uuid() -> str:
    return str(uuid.uuid4())


@dataclass(frozen=True, slots=True)
class LobbyConfig:
    """The lobby's tunables; ``bootstrap.config_from_env`` reads them at start-up."""

    policy: MatchPolicy = field(default_factory=MatchPolicy)
    matchmaker_interval: float = 0.5
    # Tickets of one pool taken per matchmaker transaction.
    matchmaker_batch: int = 2000
    hold_release_interval: float = 2.0
    # A formed table the engine has not dealt after this long frees its players (the
    # engine dropped the match, or is down for that long): they may queue again.
    start_timeout: float = 600.0
    access_ttl_seconds: int | None = None  # None: the service kit's default
    refresh_ttl_seconds: int | None = None
    # The engine's own table options sent with every MatchFormed (turn_seconds,
    # bot_think_millis); empty: the engine's defaults.
    engine_options: Mapping[str, int] = field(default_factory=dict)
    # Seconds between passes of the tournament loop (start, open ready matches).
    tournament_interval: float = 1.0
    # The platform's own network addresses beyond loopback (its proxies): a client seen
    # from one of them shares it with every other, so it is no collusion signal (PCG-3).
    platform_addresses: frozenset[str] = frozenset()


async def _nobody_to_tell(player_ids: Sequence[str]) -> None:
    return None


@dataclass
class LobbyContext:
    """What every use case works with."""

    db: Database
    events: EventStore
    wallet: WalletPort
    engine: EnginePort
    notify: Notify
    signer: TokenSigner
    passwords: Passwords
    config: LobbyConfig = field(default_factory=LobbyConfig)
    clock: Callable[[], datetime] = utc_now
    new_id: Callable[[], str] = new_uuid
    on_append: Callable[[], None] = lambda: None
    # Close the streams these players hold open: they were kept out of the lobby (PCG-4).
    suspended: Callable[[Sequence[str]], Awaitable[None]] = _nobody_to_tell

    async def append(self, conn: Connection, pending: Sequence[Pending]) -> None:
        """Record events in the caller's transaction; call it last, just before commit
        (appends to one schema commit one at a time, see tavolo.eventlog.postgres)."""
        for item in pending:
            await self.events.append_events(
                item.stream_id, item.expected_version, item.events, conn=conn
            )

    async def publish(self, notices: Iterable[tuple[str, Update]]) -> None:
        """Tell players what changed; after commit, never before."""
        for player_id, update in notices:
            await self.notify(player_id, update)

    async def account(self, conn: Connection, caller: Principal) -> Account:
        """The caller's account; a valid token for an account that is gone is refused."""
        account = await accounts_store.account_by_id(conn, caller.player_id)
        if account is None:
            raise Unauthenticated(
                "this session belongs to no account: register or log in", reason="ACCOUNT_MISSING"
            )
        return account

    async def sanctions(self, conn: Connection, player_id: str) -> list[Sanction]:
        return await accounts_store.sanctions_binding(conn, player_id)

    async def lobby_account(self, conn: Connection, caller: Principal) -> Account:
        """The caller's account, refused if a sanction keeps them out of the lobby (PCG-4)."""
        account = await self.account(conn, caller)
        ensure_may_use_lobby(await self.sanctions(conn, account.player_id), self.clock())
        return account

    async def ensure_free(self, conn: Connection, player_id: str, nickname: str, you: bool) -> None:
        """Refuse when the player already waits in a queue or sits at a live table."""
        busy = await tables_store.busy_with(conn, player_id)
        if busy is not None:
            raise FailedPrecondition(
                busy_message(busy, nickname, you),
                reason="PLAYER_BUSY",
                metadata=busy_metadata(busy, nickname),
            )


def busy_message(busy: tables_store.Busy, nickname: str, you: bool) -> str:
    who = "you are" if you else f"{nickname} is"
    if busy.ticket_id is not None:
        fix = "leave the queue first" if you else "they must leave the queue first"
        return f"{who} waiting in a queue (ticket {busy.ticket_id}): {fix}"
    fix = "finish or leave that table first" if you else "wait until their table ends"
    return f"{who} already seated at table {busy.table_id}: {fix}"


def busy_metadata(busy: tables_store.Busy, nickname: str) -> dict[str, str]:
    """What a client needs to explain ``busy_message`` in its own words (API-1)."""
    if busy.ticket_id is not None:
        return {"nickname": nickname, "ticket_id": str(busy.ticket_id)}
    return {"nickname": nickname, "table_id": str(busy.table_id)}


def seconds(value: float) -> timedelta:
    return timedelta(seconds=value)
