"""Accounts, ids and transfer contents: the pure checks behind every ledger refusal."""

from __future__ import annotations

from datetime import UTC, datetime

import grpc
import pytest

from tavolo.servicekit.errors import InvalidArgument
from tavolo.wallet.accounts import (
    ISSUANCE_SHARDS,
    Account,
    AccountIsFrozen,
    AccountKind,
    InsufficientCoins,
    account_kind,
    check_caller_id,
    ensure_can_debit,
    ensure_not_frozen,
    escrow_account,
    issuance_account,
    payout_transfer_id,
    player_account,
    player_of,
    seat_of,
    welcome_transfer_id,
)
from tavolo.wallet.facts import PlayerRegistered
from tavolo.wallet.transfers import (
    Transfer,
    TransferIdTaken,
    TransferKind,
    TransferSpec,
    TransferState,
    ensure_same_content,
    row_state,
)


def test_account_ids_say_what_they_are() -> None:
    assert account_kind(player_account("ann")) is AccountKind.PLAYER
    assert account_kind(escrow_account("t1")) is AccountKind.ESCROW
    assert account_kind("issuance") is AccountKind.ISSUANCE
    assert account_kind("holds") is AccountKind.HOLDS
    assert player_of(player_account("ann")) == "ann"
    assert player_of(escrow_account("t1")) == ""
    with pytest.raises(ValueError):
        account_kind("bank:1")


def test_grants_spread_over_the_issuance_accounts_and_a_retry_picks_the_same() -> None:
    # MODE-2: rewards come from issuance; 16 accounts share it so grants commit side by side.
    chosen = {issuance_account(f"welcome:p{n}") for n in range(400)}
    assert chosen == {"issuance", *(f"issuance:{n}" for n in range(1, ISSUANCE_SHARDS))}
    assert all(account_kind(a) is AccountKind.ISSUANCE for a in chosen)
    assert issuance_account("welcome:p7") == issuance_account("welcome:p7")
    for not_issuance in ("issuance:0", "issuance:16", "issuance:01", "issuance:x", "issuance:"):
        with pytest.raises(ValueError):
            account_kind(not_issuance)


def test_table_transfer_ids_name_table_and_seat_even_when_the_table_id_has_colons() -> None:
    transfer_id = payout_transfer_id("room:7", 3)
    assert transfer_id == "payout:room:7:3"
    assert seat_of(transfer_id) == 3


def test_caller_ids_cannot_collide_with_derived_ids() -> None:
    assert check_caller_id("ticket-1.a_b@x", "hold_id") == "ticket-1.a_b@x"
    for bad in ("payout:t:0", "", "-lead", "x" * 129, "sp ace"):
        with pytest.raises(InvalidArgument):
            check_caller_id(bad, "hold_id")


def test_a_welcome_grant_id_is_derived_from_the_player_and_no_caller_can_take_it() -> None:
    assert welcome_transfer_id("p-1") == "welcome:p-1"
    with pytest.raises(InvalidArgument):
        check_caller_id(welcome_transfer_id("p-1"), "transfer_id")


def test_only_a_persons_first_account_counts_as_first() -> None:
    assert PlayerRegistered("e1", "ann", "ann").first_account
    assert not PlayerRegistered("e2", "ann-2", "ann").first_account
    # A lobby older than person_id said nothing: every account was a first account then.
    assert PlayerRegistered("e3", "bob", "").first_account


def test_available_is_posted_balance_minus_holds() -> None:
    account = Account("player:a", credits_posted=900, debits_posted=100, debits_pending=400)
    assert (account.balance, account.held, account.available) == (800, 400, 400)


def test_mode4_short_of_coins_says_how_many_are_available_and_needed() -> None:
    account = Account("player:a", credits_posted=900, debits_posted=100, debits_pending=400)
    with pytest.raises(InsufficientCoins) as refused:
        ensure_can_debit(account, 500)
    assert str(refused.value) == "insufficient coins: 400 available, 500 needed"
    assert refused.value.status is grpc.StatusCode.FAILED_PRECONDITION
    ensure_can_debit(account, 400)
    ensure_can_debit(Account("issuance"), 10**9)


def test_pcg4_a_frozen_account_refusal_says_why() -> None:
    account = Account("player:a", frozen=True, frozen_reason="chargeback under review")
    with pytest.raises(AccountIsFrozen) as refused:
        ensure_not_frozen(account, "hold or stake coins")
    message = str(refused.value)
    assert "frozen (chargeback under review)" in message
    assert "cannot hold or stake coins" in message
    assert refused.value.status is grpc.StatusCode.FAILED_PRECONDITION
    ensure_not_frozen(Account("player:b"), "hold or stake coins")


def _recorded(spec: TransferSpec) -> Transfer:
    return Transfer(
        seq=1,
        transfer_id=spec.transfer_id,
        kind=spec.kind,
        debit_account=spec.debit_account,
        credit_account=spec.credit_account,
        amount=spec.amount,
        cause=spec.cause,
        pending_id=spec.pending_id,
        expires_at=None,
        event_id="e1",
        created_at=datetime(2026, 1, 1, tzinfo=UTC),
        state=TransferState.POSTED,
    )


def test_a_retry_returns_the_first_record_and_other_content_is_refused() -> None:
    spec = TransferSpec("g1", TransferKind.POSTED, "issuance", "player:a", 100, "grant:welcome")
    recorded = _recorded(spec)
    assert ensure_same_content(spec, recorded) is recorded
    other = TransferSpec("g1", TransferKind.POSTED, "issuance", "player:a", 101, "grant:welcome")
    with pytest.raises(TransferIdTaken) as refused:
        ensure_same_content(other, recorded)
    assert refused.value.status is grpc.StatusCode.ALREADY_EXISTS
    assert "choose a new id" in str(refused.value)


def test_transfer_specs_refuse_empty_or_circular_movements() -> None:
    with pytest.raises(ValueError):
        TransferSpec("x", TransferKind.POSTED, "issuance", "player:a", 0, "c")
    with pytest.raises(ValueError):
        TransferSpec("x", TransferKind.POSTED, "player:a", "player:a", 5, "c")


def test_a_holds_state_follows_its_resolution() -> None:
    assert row_state(TransferKind.PENDING, None) is TransferState.PENDING
    assert row_state(TransferKind.PENDING, TransferKind.POST_PENDING) is TransferState.POSTED
    assert row_state(TransferKind.PENDING, TransferKind.VOID_PENDING) is TransferState.VOIDED
    assert row_state(TransferKind.VOID_PENDING, None) is TransferState.VOIDED
    assert row_state(TransferKind.POSTED, None) is TransferState.POSTED
