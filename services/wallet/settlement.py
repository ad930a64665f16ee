"""The wallet's use cases driven by events: stakes into escrow, pots, refunds, rewards.

Each runs inside the transaction in which the consumer records the message as handled,
so an effect and its "handled" mark commit together or not at all (guarantee 6). Each is
also idempotent on its own: a table's settlement is claimed once (``table_settlements``)
and every transfer id is derived from the table and seat, so even a replay under a new
message id pays nothing twice.

All events of one table are serialised by a lock on the table id, taken first, before
any account: a cancellation and a formation of the same match, or two replicas handling
the same table, never interleave.

The pot is whatever the table's escrow holds, never ``stake * seats``: a hold that expired
before the table formed added nothing, and the escrow still ends at exactly zero.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping
from dataclasses import replace
from datetime import datetime

import structlog

from tavolo.servicekit.errors import NotFound
from tavolo.wallet import app, ledger, store
from tavolo.wallet import settlement_store as tables
from tavolo.wallet.accounts import (
    HOLDS,
    escrow_account,
    issuance_account,
    payout_transfer_id,
    player_account,
    refund_transfer_id,
    reward_transfer_id,
    seat_of,
    stake_transfer_id,
)
from tavolo.wallet.config import WalletConfig
from tavolo.wallet.facts import (
    FreezeChanged,
    MatchCancelled,
    MatchFormed,
    Mode,
    TableAborted,
    TableFinished,
    TournamentFinished,
)
from tavolo.wallet.hold_events import HoldEvents, resolved
from tavolo.wallet.payouts import rewards, split_pot, winners
from tavolo.wallet.prizes import tournament_prizes
from tavolo.wallet.store import Connection
from tavolo.wallet.tournament_events import TournamentPaid
from tavolo.wallet.transfers import TransferKind, TransferSpec

log = structlog.get_logger("tavolo.wallet.settlement")


class RetryLater(Exception):
    """The event depends on one not handled yet (a table's end before its formation)."""


def _is_stake(mode: Mode, stake: int) -> bool:
    return mode is Mode.STAKE or stake > 0


def _owed(fact: TournamentFinished, pot: int) -> dict[str, int]:
    """Coins by player of ``pot``: by the split, or (no split) the coins the lobby sent,
    cut to what the escrow holds best place first, the surplus to the best place."""
    if fact.split:
        return tournament_prizes(pot, fact.split, {p.player_id: p.place for p in fact.prizes})
    ranked = sorted(fact.prizes, key=lambda p: (p.place, p.seat))
    owed = {p.player_id: 0 for p in ranked}
    left = pot
    for prize in ranked:
        owed[prize.player_id] = min(max(prize.coins, 0), left)
        left -= owed[prize.player_id]
    if ranked:
        owed[ranked[0].player_id] += left
    return owed


class Settlement:
    """What the wallet does when tables form, end or are cancelled, and on freezes."""

    def __init__(
        self,
        config: WalletConfig,
        clock: Callable[[], datetime],
        holds: HoldEvents | None = None,
    ) -> None:
        self._config = config
        self._clock = clock
        self._holds = holds

    async def _tell(self, conn: Connection, done: ledger.Resolution, table_id: str) -> None:
        if self._holds is not None:
            await self._holds.tell(conn, resolved(done, table_id))

    async def match_formed(self, conn: Connection, fact: MatchFormed) -> None:
        """Post each seat's stake hold into the table's escrow (MODE-4)."""
        if not _is_stake(fact.mode, fact.stake):
            return
        await tables.lock_table(conn, fact.table_id)
        settled = await tables.settlement(conn, fact.table_id)
        await tables.insert_stake_table(
            conn, fact.table_id, fact.stake, len(fact.seats), fact.event_id
        )
        escrow = escrow_account(fact.table_id)
        holds = await store.find_transfers(conn, list(fact.hold_ids.values()))
        players = {s.seat: s.player_id for s in fact.seats}
        accounts = await store.lock_accounts(
            conn, {escrow, HOLDS, *(h.debit_account for h in holds.values())}
        )
        now = self._clock()
        for seat, hold_id in sorted(fact.hold_ids.items()):
            hold = holds.get(hold_id)
            if hold is None or hold.kind is not TransferKind.PENDING:
                log.warning("stake hold not found", table=fact.table_id, seat=seat, hold=hold_id)
                continue
            if hold.debit_account != player_account(players.get(seat, "")):
                log.error("stake hold of another player", table=fact.table_id, seat=seat)
                continue
            account = accounts[hold.debit_account]
            staked = await store.find_transfer(conn, stake_transfer_id(fact.table_id, seat))
            other_hold = staked is not None and staked.pending_id != hold_id
            if settled is not None or account.frozen or other_hold:
                why = (
                    f"table {settled}"
                    if settled
                    else f"frozen: {account.frozen_reason}"
                    if account.frozen
                    else f"seat {seat} of {fact.table_id} already staked"
                )
                voided = await ledger.resolve(
                    conn, hold_id, now=now, cause=why, event_id=fact.event_id
                )
                await self._tell(conn, voided, fact.table_id)
                log.warning("stake not taken", table=fact.table_id, seat=seat, why=why)
                continue
            done = await ledger.resolve(
                conn,
                hold_id,
                now=now,
                cause=stake_transfer_id(fact.table_id, seat),
                post_to=escrow,
                post_id=stake_transfer_id(fact.table_id, seat),
                event_id=fact.event_id,
            )
            await self._tell(conn, done, fact.table_id)
            if done.resolution.kind is not TransferKind.POST_PENDING:
                log.warning("stake hold was voided first", table=fact.table_id, seat=seat)

    async def match_cancelled(self, conn: Connection, fact: MatchCancelled) -> None:
        """Void the match's holds and refund anything already in its escrow (MODE-4)."""
        await tables.lock_table(conn, fact.table_id)
        formed = await tables.stake_table(conn, fact.table_id) is not None
        if not (formed or fact.hold_ids):
            return
        claimed = await tables.insert_settlement(conn, fact.table_id, "cancelled", fact.event_id)
        now = self._clock()
        for _, hold_id in sorted(fact.hold_ids.items()):
            try:
                done = await ledger.resolve(
                    conn,
                    hold_id,
                    now=now,
                    cause=f"cancelled:{fact.table_id}",
                    event_id=fact.event_id,
                )
                await self._tell(conn, done, fact.table_id)
            except NotFound:
                log.warning("cancelled hold not found", table=fact.table_id, hold=hold_id)
        if claimed:
            await self._refund_escrow(conn, fact.table_id, fact.event_id)

    async def table_finished(self, conn: Connection, fact: TableFinished) -> None:
        """Pay the pot to the winners (MODE-4) or the rewards of the mode (MODE-1..3, 5)."""
        await tables.lock_table(conn, fact.table_id)
        if _is_stake(fact.mode, fact.stake):
            await self._pay_pot(conn, fact)
        else:
            await self._pay_rewards(conn, fact)

    async def table_aborted(self, conn: Connection, fact: TableAborted) -> None:
        """Refund every stake of a table that ended without a result."""
        if not _is_stake(fact.mode, fact.stake):
            return
        await tables.lock_table(conn, fact.table_id)
        if await tables.stake_table(conn, fact.table_id) is None:
            raise RetryLater(f"table {fact.table_id} aborted before its stakes were taken")
        if await tables.insert_settlement(conn, fact.table_id, "refunded", fact.event_id):
            await self._refund_escrow(conn, fact.table_id, fact.event_id)

    async def tournament_finished(self, conn: Connection, fact: TournamentFinished) -> None:
        """Pay a finished tournament's prizes from the escrowed entry fees, once (PCG-7), and
        tell what was paid (``TournamentPaid``): the one account of the prizes, which the
        lobby shows and the leaderboard counts.

        The prizes are computed here, from what the escrow holds (``fee x entrants``, less a
        fee that could not move in at the draw, a frozen account's) and the split, by
        ``prizes.tournament_prizes``: the escrow always ends at exactly zero. A lobby that
        sent no split computed the coins itself: those are paid, best place first, until
        the escrow is empty, and whatever is left over goes to the best place."""
        if fact.pot == 0:  # no fee: nothing was escrowed, every prize is 0
            await self._tell_paid(conn, fact, {p.player_id: 0 for p in fact.prizes}, 0)
            return
        await tables.lock_table(conn, fact.escrow_id)
        if await tables.stake_table(conn, fact.escrow_id) is None:
            raise RetryLater(f"tournament {fact.escrow_id} finished before its fees were taken")
        if not await tables.insert_settlement(conn, fact.escrow_id, "paid", fact.event_id):
            return
        escrow = escrow_account(fact.escrow_id)
        players = {player_account(p.player_id) for p in fact.prizes}
        accounts = await store.lock_accounts(conn, {escrow, *players})
        pot = accounts[escrow].balance
        if pot != fact.pot:
            log.error("escrow differs from fee x entrants", escrow=pot, expected=fact.pot)
        owed = _owed(fact, pot)
        for prize in sorted(fact.prizes, key=lambda p: (p.place, p.seat)):
            coins = owed.get(prize.player_id, 0)
            if coins <= 0:
                continue
            transfer_id = payout_transfer_id(fact.escrow_id, prize.seat)
            spec = TransferSpec(
                transfer_id=transfer_id,
                kind=TransferKind.POSTED,
                debit_account=escrow,
                credit_account=player_account(prize.player_id),
                amount=coins,
                cause=transfer_id,
                event_id=fact.event_id,
            )
            await ledger.record(conn, spec)
        await self._tell_paid(conn, fact, owed, pot)
        log.info("tournament prizes paid", tournament=fact.escrow_id, pot=pot)

    async def _tell_paid(
        self, conn: Connection, fact: TournamentFinished, owed: Mapping[str, int], pot: int
    ) -> None:
        if self._holds is None or not fact.tournament_id:
            return
        prizes = tuple(replace(p, coins=owed.get(p.player_id, 0)) for p in fact.prizes)
        paid = TournamentPaid(fact.tournament_id, fact.game, pot, prizes)
        await self._holds.tell_once(conn, paid.stream(), paid.event())

    async def freeze_changed(self, conn: Connection, fact: FreezeChanged) -> None:
        """Apply a sanction's freeze or its lifting (PCG-4)."""
        change = app.FreezeChange(
            fact.player_id, fact.sanction, fact.frozen, fact.reason, fact.by, fact.event_id
        )
        await app.change_freeze(conn, change)

    async def _pay_pot(self, conn: Connection, fact: TableFinished) -> None:
        if await tables.stake_table(conn, fact.table_id) is None:
            raise RetryLater(f"table {fact.table_id} finished before its stakes were taken")
        won = winners(fact.seats)
        if not won:
            log.warning("no human winner: stakes refunded", table=fact.table_id)
            if await tables.insert_settlement(conn, fact.table_id, "refunded", fact.event_id):
                await self._refund_escrow(conn, fact.table_id, fact.event_id)
            return
        if not await tables.insert_settlement(conn, fact.table_id, "paid", fact.event_id):
            return
        escrow = escrow_account(fact.table_id)
        accounts = await store.lock_accounts(
            conn, {escrow, *(player_account(s.player_id) for s in won)}
        )
        pot = accounts[escrow].balance
        if pot == 0:
            log.warning("empty pot", table=fact.table_id)
            return
        shares = split_pot(pot, [s.seat for s in won])
        for seat in won:
            transfer_id = payout_transfer_id(fact.table_id, seat.seat)
            spec = TransferSpec(
                transfer_id=transfer_id,
                kind=TransferKind.POSTED,
                debit_account=escrow,
                credit_account=player_account(seat.player_id),
                amount=shares[seat.seat],
                cause=transfer_id,
                event_id=fact.event_id,
            )
            await ledger.record(conn, spec)
        log.info("pot paid", table=fact.table_id, pot=pot, winners=len(won))

    async def _pay_rewards(self, conn: Connection, fact: TableFinished) -> None:
        paid = rewards(fact.mode, fact.seats, self._config.rates)
        if not paid:
            return
        if not await tables.insert_settlement(conn, fact.table_id, "rewarded", fact.event_id):
            return
        players = {s.seat: player_account(s.player_id) for s in fact.seats if s.seat in paid}
        issuers = {seat: issuance_account(reward_transfer_id(fact.table_id, seat)) for seat in paid}
        accounts = await store.lock_accounts(conn, {*issuers.values(), *players.values()})
        for seat, coins in sorted(paid.items()):
            # A frozen account is credited all the same: PCG-4 freezes a balance pending the
            # authority's decision, it does not confiscate what the player earns meanwhile.
            account = accounts[players[seat]]
            if account.frozen:
                log.info("reward credited to a frozen balance", table=fact.table_id, seat=seat)
            transfer_id = reward_transfer_id(fact.table_id, seat)
            spec = TransferSpec(
                transfer_id=transfer_id,
                kind=TransferKind.POSTED,
                debit_account=issuers[seat],
                credit_account=account.account_id,
                amount=coins,
                cause=transfer_id,
                event_id=fact.event_id,
            )
            await ledger.record(conn, spec)

    async def _refund_escrow(self, conn: Connection, table_id: str, event_id: str) -> None:
        """Give every seat back exactly what it put into the table's escrow."""
        escrow = escrow_account(table_id)
        stakes = await store.escrow_stakes(conn, escrow)
        if not stakes:
            return
        await store.lock_accounts(conn, {escrow, *(s.debit_account for s in stakes)})
        for stake in stakes:
            transfer_id = refund_transfer_id(table_id, seat_of(stake.transfer_id))
            spec = TransferSpec(
                transfer_id=transfer_id,
                kind=TransferKind.POSTED,
                debit_account=escrow,
                credit_account=stake.debit_account,
                amount=stake.amount,
                cause=transfer_id,
                event_id=event_id,
            )
            await ledger.record(conn, spec)
        log.info("stakes refunded", table=table_id, seats=len(stakes))
