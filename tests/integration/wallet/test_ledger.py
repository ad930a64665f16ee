"""The ledger on a real PostgreSQL: holds, posts, voids, grants, freezes and what the database
itself refuses (guarantee 7, AUDIT-5, PCG-4)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Any

import asyncpg
import grpc
import pytest

from tavolo.servicekit.auth import Principal, Role
from tavolo.servicekit.errors import (
    AlreadyExists,
    DomainError,
    FailedPrecondition,
    InvalidArgument,
    NotFound,
    PermissionDenied,
)
from tavolo.wallet import app as wallet_app
from tavolo.wallet.accounts import issuance_account
from tavolo.wallet.app import WalletApp
from tavolo.wallet.transfers import TransferState

from .conftest import LOBBY, MODERATOR, OPERATOR, Clock
from .ledger_audit import audit_pool
from .registered import register

ANN = Principal("ann", frozenset({Role.PLAYER}))
BOB = Principal("bob", frozenset({Role.PLAYER}))

pytestmark = pytest.mark.integration


@pytest.fixture(autouse=True)
async def registered_players(pool: asyncpg.Pool) -> None:
    """Ann and Bob registered at the lobby; nobody else did."""
    await register(pool, "ann", "bob")


async def test_coins_move_only_for_accounts_the_lobby_registered(
    wallet: WalletApp, pool: asyncpg.Pool
) -> None:
    """A grant, a hold or a freeze that names nobody would open an account for nobody and
    mint coins into it: each is refused with NOT_FOUND and changes nothing."""
    refusals: list[Callable[[], Awaitable[Any]]] = [
        lambda: wallet.grant(OPERATOR, "g-ghost", "ghost", 1000, "welcome bonus"),
        lambda: wallet.hold_stake(LOBBY, "h-ghost", "ghost", 100, "queue", 0),
        lambda: wallet.freeze(OPERATOR, "ghost", "dispute"),
        lambda: wallet.unfreeze(OPERATOR, "ghost"),
    ]
    for refused in refusals:
        with pytest.raises(NotFound, match="no account for player 'ghost'"):
            await refused()
    async with pool.acquire() as conn:
        ghosts = await conn.fetchval(
            "SELECT count(*) FROM wallet.accounts WHERE account_id = 'player:ghost'"
        )
    assert ghosts == 0 and await rows(pool) == 0
    assert (await wallet.grant(OPERATOR, "g-ann", "ann", 1000, "welcome bonus")).amount == 1000


async def rows(pool: asyncpg.Pool) -> int:
    async with pool.acquire() as conn:
        return int(await conn.fetchval("SELECT count(*) FROM wallet.transfers"))


async def test_a_grant_comes_from_issuance_and_the_ledger_sums_to_zero(
    wallet: WalletApp, pool: asyncpg.Pool
) -> None:
    granted = await wallet.grant(OPERATOR, "welcome-ann", "ann", 1000, "welcome bonus")
    assert granted.debit_account == issuance_account("welcome-ann")
    assert granted.credit_account == "player:ann"
    assert granted.cause == "grant:welcome bonus"
    balance = await wallet.get_balance(ANN, "")
    assert (balance.available, balance.held, balance.frozen) == (1000, 0, False)
    assert (await audit_pool(pool)).problems == []


async def test_mode4_holding_for_two_tables_with_funds_for_one_is_refused_and_changes_nothing(
    wallet: WalletApp, pool: asyncpg.Pool
) -> None:
    await wallet.grant(OPERATOR, "g-ann", "ann", 900, "welcome bonus")
    await wallet.hold_stake(LOBBY, "ticket-a", "ann", 500, "queue pika 500", 0)
    before = (await wallet.get_balance(ANN, ""), await rows(pool))
    with pytest.raises(FailedPrecondition) as refused:
        await wallet.hold_stake(LOBBY, "ticket-b", "ann", 500, "queue spades 500", 0)
    assert str(refused.value) == "insufficient coins: 400 available, 500 needed"
    assert refused.value.status is grpc.StatusCode.FAILED_PRECONDITION
    assert (await wallet.get_balance(ANN, ""), await rows(pool)) == before
    assert before[0].available == 400 and before[0].held == 500


async def test_a_hold_is_voided_once_and_asking_again_returns_the_first_result(
    wallet: WalletApp, pool: asyncpg.Pool
) -> None:
    await wallet.grant(OPERATOR, "g-ann", "ann", 300, "welcome bonus")
    held = await wallet.hold_stake(LOBBY, "t1", "ann", 250, "", 0)
    assert held.state is TransferState.PENDING
    assert (await wallet.get_balance(ANN, "")).available == 50
    released = await wallet.release_hold(LOBBY, "t1")
    assert released.state is TransferState.VOIDED
    count = await rows(pool)
    again = await wallet.release_hold(LOBBY, "t1")
    assert again == released and await rows(pool) == count
    balance = await wallet.get_balance(ANN, "")
    assert (balance.available, balance.held) == (300, 0)
    with pytest.raises(NotFound, match="no hold 'nope'"):
        await wallet.release_hold(LOBBY, "nope")
    with pytest.raises(NotFound):
        await wallet.release_hold(LOBBY, "g-ann")  # a grant is not a hold
    assert (await audit_pool(pool)).problems == []


async def test_same_id_same_content_is_a_retry_and_other_content_is_refused(
    wallet: WalletApp, pool: asyncpg.Pool
) -> None:
    await wallet.grant(OPERATOR, "g-ann", "ann", 2000, "welcome bonus")
    first = await wallet.hold_stake(LOBBY, "t1", "ann", 500, "q", 0)
    assert await wallet.hold_stake(LOBBY, "t1", "ann", 500, "q", 0) == first
    assert (await wallet.get_balance(ANN, "")).held == 500
    count = await rows(pool)
    with pytest.raises(AlreadyExists, match="transfer id 't1' is already used"):
        await wallet.hold_stake(LOBBY, "t1", "ann", 1000, "q", 0)
    with pytest.raises(AlreadyExists):
        await wallet.grant(OPERATOR, "g-ann", "ann", 2001, "welcome bonus")
    with pytest.raises(AlreadyExists):
        await wallet.grant(OPERATOR, "t1", "ann", 500, "q")
    again = await wallet.grant(OPERATOR, "g-ann", "ann", 2000, "welcome bonus")
    assert again.amount == 2000 and await rows(pool) == count


async def test_pcg4_a_frozen_account_cannot_hold_or_receive_grants_until_unfrozen(
    wallet: WalletApp, pool: asyncpg.Pool
) -> None:
    await wallet.grant(OPERATOR, "g-ann", "ann", 1000, "welcome bonus")
    frozen = await wallet.freeze(MODERATOR, "ann", "suspected collusion")
    assert frozen.frozen and frozen.frozen_reason == "suspected collusion"
    count = await rows(pool)
    with pytest.raises(FailedPrecondition, match=r"frozen \(suspected collusion\).*hold"):
        await wallet.hold_stake(LOBBY, "t1", "ann", 100, "", 0)
    with pytest.raises(FailedPrecondition, match="receive grants"):
        await wallet.grant(OPERATOR, "g-2", "ann", 10, "goodwill")
    assert await rows(pool) == count
    assert not (await wallet.unfreeze(OPERATOR, "ann")).frozen
    assert (await wallet.hold_stake(LOBBY, "t1", "ann", 100, "", 0)).state is TransferState.PENDING
    async with pool.acquire() as conn:
        history = await conn.fetch(
            "SELECT frozen, reason, by_player FROM wallet.account_freezes ORDER BY seq"
        )
    assert [tuple(r) for r in history] == [(True, "suspected collusion", "mod"), (False, "", "op")]


async def test_pcg4_lifting_one_sanction_leaves_another_freeze_in_force(
    wallet: WalletApp, pool: asyncpg.Pool
) -> None:
    change = wallet_app.FreezeChange
    async with pool.acquire() as conn, conn.transaction():
        await wallet_app.change_freeze(conn, change("ann", "sanction-1", True, "spam", "m1", "e1"))
        await wallet_app.change_freeze(conn, change("ann", "sanction-2", True, "fraud", "m2", "e2"))
        after = await wallet_app.change_freeze(
            conn, change("ann", "sanction-2", False, "", "m2", "e3")
        )
    assert after.frozen and after.frozen_reason == "spam"
    assert (await wallet.get_balance(ANN, "")).frozen


async def test_holds_expire_by_the_sweeper_and_before_a_new_hold(
    wallet: WalletApp, pool: asyncpg.Pool, clock: Clock
) -> None:
    await wallet.grant(OPERATOR, "g-ann", "ann", 1000, "welcome bonus")
    await wallet.grant(OPERATOR, "g-bob", "bob", 1000, "welcome bonus")
    await wallet.hold_stake(LOBBY, "a1", "ann", 1000, "", 60)
    await wallet.hold_stake(LOBBY, "b1", "bob", 1000, "", 60)
    assert await wallet.sweep_expired_holds() == 0
    clock.advance(61)
    # Ann's new hold voids her expired one first; Bob's waits for the sweeper.
    assert (await wallet.hold_stake(LOBBY, "a2", "ann", 500, "", 0)).state is TransferState.PENDING
    assert await wallet.sweep_expired_holds() == 1
    assert (await wallet.release_hold(LOBBY, "b1")).state is TransferState.VOIDED
    assert (await wallet.get_balance(BOB, "")).available == 1000
    page = await wallet.list_transfers(ANN, "", 0, "")
    voids = [t for t in page.transfers if t.pending_id == "a1"]
    assert [t.cause for t in voids] == ["expired"]
    assert (await audit_pool(pool)).problems == []


async def test_guarantee7_the_database_refuses_an_overdraft_and_any_change_to_history(
    wallet: WalletApp, pool: asyncpg.Pool
) -> None:
    granted = await wallet.grant(OPERATOR, "g-ann", "ann", 100, "welcome bonus")
    async with pool.acquire() as conn:
        with pytest.raises(asyncpg.CheckViolationError, match="balance_never_negative"):
            await conn.execute(
                "INSERT INTO wallet.transfers (transfer_id, kind, debit_account, credit_account,"
                " amount, cause) VALUES ('x', 'posted', 'player:ann', $1, 101, 'theft')",
                granted.debit_account,
            )
        with pytest.raises(asyncpg.RestrictViolationError, match="immutable"):
            await conn.execute("UPDATE wallet.transfers SET amount = 1")
        with pytest.raises(asyncpg.RestrictViolationError, match="immutable"):
            await conn.execute("DELETE FROM wallet.transfers")
        with pytest.raises(asyncpg.RestrictViolationError, match="immutable"):
            await conn.execute("TRUNCATE wallet.transfers CASCADE")
        with pytest.raises(asyncpg.RestrictViolationError, match="only by inserting transfers"):
            await conn.execute("UPDATE wallet.accounts SET credits_posted = credits_posted + 5")
    assert (await wallet.get_balance(ANN, "")).available == 100
    assert (await audit_pool(pool)).problems == []


async def test_guarantee9_players_read_only_their_own_account(wallet: WalletApp) -> None:
    await wallet.grant(OPERATOR, "g-ann", "ann", 10, "welcome bonus")
    with pytest.raises(PermissionDenied, match="only your own account"):
        await wallet.get_balance(BOB, "ann")
    with pytest.raises(PermissionDenied):
        await wallet.list_transfers(BOB, "ann", 0, "")
    for reader in (MODERATOR, OPERATOR, LOBBY, Principal("aud", frozenset({Role.AUDITOR}))):
        assert (await wallet.get_balance(reader, "ann")).available == 10
    assert (await wallet.get_balance(BOB, "")).available == 0


@pytest.mark.parametrize(
    ("who", "call"),
    [
        (ANN, lambda w, p: w.hold_stake(p, "h1", "ann", 100, "", 0)),
        (MODERATOR, lambda w, p: w.hold_stake(p, "h1", "ann", 100, "", 0)),
        (ANN, lambda w, p: w.release_hold(p, "h1")),
        (LOBBY, lambda w, p: w.grant(p, "g1", "ann", 10, "why")),
        (MODERATOR, lambda w, p: w.grant(p, "g1", "ann", 10, "why")),
        (ANN, lambda w, p: w.freeze(p, "bob", "why")),
        (LOBBY, lambda w, p: w.unfreeze(p, "bob")),
    ],
)
async def test_guarantee9_each_protected_call_needs_its_role(
    wallet: WalletApp, who: Principal, call: Callable[..., Awaitable[Any]]
) -> None:
    with pytest.raises(PermissionDenied, match="needs the"):
        await call(wallet, who)


@pytest.mark.parametrize(
    ("call", "says"),
    [
        (lambda w: w.hold_stake(LOBBY, "h1", "ann", 300, "", 0), "100, 250, 500, 1000"),
        (lambda w: w.hold_stake(LOBBY, "h:1", "ann", 100, "", 0), "hold_id"),
        (lambda w: w.hold_stake(LOBBY, "h1", "", 100, "", 0), "player_id"),
        (lambda w: w.hold_stake(LOBBY, "h1", "ann", 100, "", -1), "expires_in_seconds"),
        (lambda w: w.grant(OPERATOR, "g1", "ann", 0, "why"), "between 1 and"),
        (lambda w: w.grant(OPERATOR, "g1", "ann", 10, " "), "reason is required"),
        (lambda w: w.list_transfers(ANN, "", 501, ""), "page_size"),
        (lambda w: w.list_transfers(ANN, "", 10, "abc"), "page_token"),
        (lambda w: w.freeze(OPERATOR, "ann", ""), "reason is required"),
    ],
)
async def test_guarantee8_bad_input_gets_invalid_argument_and_changes_nothing(
    wallet: WalletApp, pool: asyncpg.Pool, call: Callable[..., Awaitable[Any]], says: str
) -> None:
    with pytest.raises(InvalidArgument, match=says) as refused:
        await call(wallet)
    assert isinstance(refused.value, DomainError)
    assert await rows(pool) == 0


async def test_audit5_transfers_are_listed_newest_first_with_causes_in_pages(
    wallet: WalletApp,
) -> None:
    await wallet.grant(OPERATOR, "g1", "ann", 1000, "welcome bonus")
    await wallet.hold_stake(LOBBY, "h1", "ann", 100, "ticket 7", 0)
    await wallet.release_hold(LOBBY, "h1")
    await wallet.grant(OPERATOR, "g2", "ann", 5, "apology")
    first = await wallet.list_transfers(ANN, "", 2, "")
    assert [t.transfer_id for t in first.transfers] == ["g2", "void:h1"]
    assert first.transfers[1].pending_id == "h1"
    assert first.next_page_token
    second = await wallet.list_transfers(ANN, "", 2, first.next_page_token)
    assert [(t.transfer_id, t.cause, t.state) for t in second.transfers] == [
        ("h1", "hold:ticket 7", TransferState.VOIDED),
        ("g1", "grant:welcome bonus", TransferState.POSTED),
    ]
    assert second.next_page_token == ""
