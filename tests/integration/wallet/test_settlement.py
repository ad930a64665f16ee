"""Stake tables and rewards driven by events, on a real PostgreSQL (MODE-1..5, guarantee 7)."""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from dataclasses import replace
from typing import Any

import asyncpg
import pytest

from tavolo.eventlog import PostgresEventStore
from tavolo.servicekit.errors import AlreadyExists, FailedPrecondition
from tavolo.wallet.app import WalletApp
from tavolo.wallet.config import WalletConfig
from tavolo.wallet.facts import (
    FreezeChanged,
    MatchCancelled,
    MatchFormed,
    Mode,
    Prize,
    SeatResult,
    TableAborted,
    TableFinished,
    TournamentFinished,
)
from tavolo.wallet.hold_events import HoldEvents
from tavolo.wallet.settlement import RetryLater, Settlement
from tavolo.wallet.store import SCHEMA

from .conftest import LOBBY, OPERATOR, Clock
from .ledger_audit import audit_pool, balance, issued
from .registered import register

pytestmark = pytest.mark.integration


@pytest.fixture(autouse=True)
async def registered_players(pool: asyncpg.Pool) -> None:
    """The players these tests fund by name, registered at the lobby."""
    await register(pool, "ann", "bob")


async def run(pool: asyncpg.Pool, step: Callable[[Any], Awaitable[None]]) -> None:
    """One event's effect in its own transaction, as the consumer runs it."""
    async with pool.acquire() as conn, conn.transaction():
        await step(conn)


async def stake_table(
    wallet: WalletApp,
    settlement: Settlement,
    pool: asyncpg.Pool,
    table: str,
    stake: int,
    players: list[str],
    *,
    funds: int = 1000,
) -> MatchFormed:
    """Players funded and seated at a formed stake table, their holds posted into escrow."""
    await register(pool, *players)
    for player in players:
        await wallet.grant(OPERATOR, f"g-{table}-{player}", player, funds, "welcome bonus")
        await wallet.hold_stake(LOBBY, f"h-{table}-{player}", player, stake, "queue", 0)
    formed = MatchFormed(
        event_id=f"mf-{table}",
        table_id=table,
        mode=Mode.STAKE,
        stake=stake,
        seats=tuple(SeatResult(i, p) for i, p in enumerate(players)),
        hold_ids={i: f"h-{table}-{p}" for i, p in enumerate(players)},
    )
    await run(pool, lambda c: settlement.match_formed(c, formed))
    return formed


def finished(
    table: str,
    players: list[str],
    places: list[int],
    *,
    mode: Mode = Mode.STAKE,
    stake: int = 0,
    event_id: str = "",
    boosted: bool = False,
    bots: frozenset[int] = frozenset(),
) -> TableFinished:
    seats = tuple(
        SeatResult(
            i,
            "" if i in bots else p,
            bot=i in bots,
            booster=boosted,
            vip=boosted,
            place=places[i],
        )
        for i, p in enumerate(players)
    )
    return TableFinished(event_id or f"tf-{table}", table, mode, stake, seats)


async def test_mode4_stakes_go_to_escrow_and_the_whole_pot_to_the_winner(
    wallet: WalletApp, settlement: Settlement, pool: asyncpg.Pool
) -> None:
    players = ["ann", "bob", "cy", "dee"]
    await stake_table(wallet, settlement, pool, "t1", 250, players)
    assert await balance(pool, "escrow:t1") == 1000
    assert [await balance(pool, f"player:{p}") for p in players] == [750] * 4
    end = finished("t1", players, [3, 1, 2, 4], stake=250)
    await run(pool, lambda c: settlement.table_finished(c, end))
    assert [await balance(pool, f"player:{p}") for p in players] == [750, 1750, 750, 750]
    assert await balance(pool, "escrow:t1") == 0
    assert (await audit_pool(pool)).problems == []


async def test_mode4_tied_winners_split_the_pot_and_the_lowest_seat_takes_the_remainder(
    wallet: WalletApp, settlement: Settlement, pool: asyncpg.Pool
) -> None:
    players = ["ann", "bob", "cy", "dee"]
    await stake_table(wallet, settlement, pool, "t1", 250, players)
    end = finished("t1", players, [4, 1, 1, 1], stake=250)
    await run(pool, lambda c: settlement.table_finished(c, end))
    gains = [await balance(pool, f"player:{p}") - 750 for p in players]
    assert gains == [0, 334, 333, 333]
    assert await balance(pool, "escrow:t1") == 0


async def test_mode4_the_winning_partnership_shares_the_pot_and_boosters_never_multiply_it(
    wallet: WalletApp, settlement: Settlement, pool: asyncpg.Pool
) -> None:
    players = ["ann", "bob", "cy", "dee"]
    await stake_table(wallet, settlement, pool, "t1", 500, players)
    end = finished("t1", players, [1, 2, 1, 2], stake=500, boosted=True)
    await run(pool, lambda c: settlement.table_finished(c, end))
    assert [await balance(pool, f"player:{p}") for p in players] == [1500, 500, 1500, 500]
    assert await issued(pool) == -4000  # only the grants: no reward, no bonus


async def test_guarantee6_a_replayed_finish_under_a_new_event_id_pays_nothing_twice(
    wallet: WalletApp, settlement: Settlement, pool: asyncpg.Pool
) -> None:
    players = ["ann", "bob"]
    formed = await stake_table(wallet, settlement, pool, "t1", 100, players)
    await run(pool, lambda c: settlement.match_formed(c, formed))
    for event_id in ("tf-1", "tf-1", "tf-2"):
        end = finished("t1", players, [2, 1], stake=100, event_id=event_id)
        await run(pool, lambda c, end=end: settlement.table_finished(c, end))
    aborted = TableAborted("ta-1", "t1", Mode.STAKE, 100, "late abort")
    await run(pool, lambda c: settlement.table_aborted(c, aborted))
    assert [await balance(pool, f"player:{p}") for p in players] == [900, 1100]
    async with pool.acquire() as conn:
        settled = await conn.fetch("SELECT outcome, event_id FROM wallet.table_settlements")
    assert [tuple(r) for r in settled] == [("paid", "tf-1")]
    assert (await audit_pool(pool)).problems == []


async def test_mode4_an_aborted_table_refunds_every_stake_exactly(
    wallet: WalletApp, settlement: Settlement, pool: asyncpg.Pool
) -> None:
    players = ["ann", "bob", "cy"]
    await stake_table(wallet, settlement, pool, "t1", 1000, players, funds=1000)
    assert [await balance(pool, f"player:{p}") for p in players] == [0, 0, 0]
    aborted = TableAborted("ta-1", "t1", Mode.STAKE, 1000, "every human left")
    await run(pool, lambda c: settlement.table_aborted(c, aborted))
    await run(pool, lambda c: settlement.table_aborted(c, aborted))
    assert [await balance(pool, f"player:{p}") for p in players] == [1000, 1000, 1000]
    assert await balance(pool, "escrow:t1") == 0
    page = await wallet.list_transfers(OPERATOR, "bob", 0, "")
    refund = page.transfers[0]
    assert (refund.transfer_id, refund.cause, refund.event_id) == ("refund:t1:1",) * 2 + ("ta-1",)


async def test_mode4_a_cancelled_match_voids_its_holds(
    wallet: WalletApp, settlement: Settlement, pool: asyncpg.Pool
) -> None:
    await wallet.grant(OPERATOR, "g-ann", "ann", 500, "welcome bonus")
    await wallet.hold_stake(LOBBY, "h-ann", "ann", 500, "queue", 0)
    cancelled = MatchCancelled("mc-1", "t1", "not full in time", {"ann": "h-ann"})
    await run(pool, lambda c: settlement.match_cancelled(c, cancelled))
    await run(pool, lambda c: settlement.match_cancelled(c, cancelled))
    view = await wallet.get_balance(OPERATOR, "ann")
    assert (view.available, view.held) == (500, 0)
    assert (await audit_pool(pool)).problems == []


async def test_guarantee6_a_finish_before_the_formation_waits_and_changes_nothing(
    wallet: WalletApp, settlement: Settlement, pool: asyncpg.Pool
) -> None:
    end = finished("t1", ["ann", "bob"], [1, 2], stake=100)
    with pytest.raises(RetryLater):
        await run(pool, lambda c: settlement.table_finished(c, end))
    aborted = TableAborted("ta-1", "t1", Mode.STAKE, 100, "")
    with pytest.raises(RetryLater):
        await run(pool, lambda c: settlement.table_aborted(c, aborted))
    async with pool.acquire() as conn:
        assert await conn.fetchval("SELECT count(*) FROM wallet.table_settlements") == 0
    await stake_table(wallet, settlement, pool, "t1", 100, ["ann", "bob"])
    await run(pool, lambda c: settlement.table_finished(c, end))
    assert await balance(pool, "player:ann") == 1100


async def test_mode4_a_hold_expired_before_the_table_formed_adds_nothing_to_the_pot(
    wallet: WalletApp, settlement: Settlement, pool: asyncpg.Pool, clock: Clock
) -> None:
    await wallet.grant(OPERATOR, "g-ann", "ann", 1000, "welcome bonus")
    await wallet.grant(OPERATOR, "g-bob", "bob", 1000, "welcome bonus")
    await wallet.hold_stake(LOBBY, "h-ann", "ann", 250, "queue", 30)
    clock.advance(20)
    await wallet.hold_stake(LOBBY, "h-bob", "bob", 250, "queue", 30)
    clock.advance(20)  # Ann's hold is past its time, Bob's is not
    formed = MatchFormed(
        "mf-1",
        "t1",
        Mode.STAKE,
        250,
        (SeatResult(0, "ann"), SeatResult(1, "bob")),
        {0: "h-ann", 1: "h-bob"},
    )
    await run(pool, lambda c: settlement.match_formed(c, formed))
    assert await balance(pool, "escrow:t1") == 250
    end = finished("t1", ["ann", "bob"], [1, 2], stake=250)
    await run(pool, lambda c: settlement.table_finished(c, end))
    assert (await balance(pool, "player:ann"), await balance(pool, "player:bob")) == (1250, 750)
    assert await balance(pool, "escrow:t1") == 0
    assert (await audit_pool(pool)).problems == []


async def test_pcg4_a_player_frozen_before_the_table_forms_is_not_staked(
    wallet: WalletApp, settlement: Settlement, pool: asyncpg.Pool
) -> None:
    await wallet.grant(OPERATOR, "g-ann", "ann", 1000, "welcome bonus")
    await wallet.hold_stake(LOBBY, "h-ann", "ann", 100, "queue", 0)
    freeze = FreezeChanged("af-1", "sanction-9", "ann", True, "collusion", "mod")
    await run(pool, lambda c: settlement.freeze_changed(c, freeze))
    formed = MatchFormed("mf-1", "t1", Mode.STAKE, 100, (SeatResult(0, "ann"),), {0: "h-ann"})
    await run(pool, lambda c: settlement.match_formed(c, formed))
    view = await wallet.get_balance(OPERATOR, "ann")
    assert (view.available, view.held, view.frozen) == (1000, 0, True)
    assert await balance(pool, "escrow:t1") == 0


async def test_mode3_mode5_online_rewards_every_place_and_boosters_multiply_them(
    settlement: Settlement, pool: asyncpg.Pool
) -> None:
    players = ["ann", "bob", "cy", "dee"]
    end = finished("t1", players, [2, 1, 4, 3], mode=Mode.ONLINE, bots=frozenset({3}))
    boosted = TableFinished(
        end.event_id,
        end.table_id,
        end.mode,
        0,
        (SeatResult(0, "ann", booster=True, place=2), *end.seats[1:]),
    )
    for _ in range(2):
        await run(pool, lambda c: settlement.table_finished(c, boosted))
    got = [await balance(pool, f"player:{p}") for p in players]
    assert got == [150, 100, 25, 0]
    assert await issued(pool) == -275
    assert (await audit_pool(pool)).problems == []


async def test_mode2_and_mode1_friends_pay_the_winner_half_and_computer_pays_nothing(
    settlement: Settlement, pool: asyncpg.Pool
) -> None:
    friends = finished("f1", ["ann", "bob"], [2, 1], mode=Mode.VERSUS_FRIENDS)
    computer = finished("c1", ["ann", "bob"], [1, 2], mode=Mode.VERSUS_COMPUTER)
    await run(pool, lambda c: settlement.table_finished(c, friends))
    await run(pool, lambda c: settlement.table_finished(c, computer))
    assert (await balance(pool, "player:ann"), await balance(pool, "player:bob")) == (0, 50)


async def test_pcg4_a_frozen_players_reward_is_credited_into_the_frozen_balance(
    wallet: WalletApp, settlement: Settlement, pool: asyncpg.Pool
) -> None:
    await wallet.freeze(OPERATOR, "ann", "under review")
    end = finished("t1", ["ann", "bob"], [1, 2], mode=Mode.ONLINE)
    await run(pool, lambda c: settlement.table_finished(c, end))
    assert (await balance(pool, "player:ann"), await balance(pool, "player:bob")) == (100, 50)
    view = await wallet.get_balance(OPERATOR, "ann")
    assert (view.available, view.frozen) == (100, True)
    with pytest.raises(FailedPrecondition, match="frozen"):
        await wallet.hold_stake(LOBBY, "h-ann", "ann", 100, "queue", 0)
    await wallet.unfreeze(OPERATOR, "ann")
    held = await wallet.hold_stake(LOBBY, "h-ann", "ann", 100, "queue", 0)
    assert held.amount == 100
    assert (await audit_pool(pool)).problems == []


# -- tournaments (PCG-7) -----------------------------------------------------------------


def prizes_paid(
    escrow: str, pot: int, at: dict[str, tuple[int, int]], split: tuple[int, ...] = (70, 30)
) -> Any:
    """A TournamentFinished: player -> (seat, place); the wallet computes the coins."""
    return TournamentFinished(
        f"tf-{escrow}",
        escrow,
        pot,
        tuple(Prize(seat, p, place, 0) for p, (seat, place) in at.items()),
        escrow.removeprefix("tournament-"),
        "scopa",
        split,
    )


async def told_paid(pool: asyncpg.Pool, tournament_id: str) -> dict[str, int]:
    """The coins by player of the TournamentPaid the wallet recorded (once)."""
    found = await PostgresEventStore(pool, SCHEMA).read_stream(f"tournament-{tournament_id}-paid")
    assert [e.type for e in found] == ["tournament_paid"]
    return {player: coins for _, player, _, coins in found[0].data["prizes"]}


@pytest.fixture
def paying(clock: Clock, pool: asyncpg.Pool) -> Settlement:
    """The settlement with the wallet's event log, as the service runs it."""
    return Settlement(WalletConfig(), clock, HoldEvents(PostgresEventStore(pool, SCHEMA)))


async def test_pcg_7_tournament_prizes_are_computed_from_the_escrow_paid_once_and_told(
    wallet: WalletApp, paying: Settlement, pool: asyncpg.Pool
) -> None:
    players = ["ann", "bob", "cy", "dee"]
    await stake_table(wallet, paying, pool, "tournament-k1", 100, players)
    assert await balance(pool, "escrow:tournament-k1") == 400
    end = prizes_paid(
        "tournament-k1", 400, {"ann": (0, 2), "bob": (1, 1), "cy": (2, 3), "dee": (3, 3)}
    )
    await run(pool, lambda c: paying.tournament_finished(c, end))
    again = replace(end, event_id="tf-again")  # a replay under a new id pays nothing
    await run(pool, lambda c: paying.tournament_finished(c, again))
    assert [await balance(pool, f"player:{p}") for p in players] == [1020, 1180, 900, 900]
    assert await balance(pool, "escrow:tournament-k1") == 0
    assert await told_paid(pool, "k1") == {"ann": 120, "bob": 280, "cy": 0, "dee": 0}
    assert (await audit_pool(pool)).problems == []


async def test_pcg_7_a_fee_missing_from_the_escrow_is_missing_from_the_prizes_told(
    wallet: WalletApp, paying: Settlement, pool: asyncpg.Pool
) -> None:
    await register(pool, "cy", "dee")
    for player in ("ann", "bob", "cy", "dee"):
        await wallet.grant(OPERATOR, f"g-{player}", player, 1000, "welcome bonus")
        await wallet.hold_stake(LOBBY, f"h-{player}", player, 100, "tournament", 0)
    freeze = FreezeChanged("af-1", "sanction-1", "dee", True, "collusion", "mod")
    await run(pool, lambda c: paying.freeze_changed(c, freeze))
    formed = MatchFormed(
        "td-1",
        "tournament-k2",
        Mode.STAKE,
        100,
        tuple(SeatResult(i, p) for i, p in enumerate(["ann", "bob", "cy", "dee"])),
        {i: f"h-{p}" for i, p in enumerate(["ann", "bob", "cy", "dee"])},
    )
    await run(pool, lambda c: paying.match_formed(c, formed))
    assert await balance(pool, "escrow:tournament-k2") == 300  # Dee's fee never came in
    early = prizes_paid("tournament-k3", 400, {"ann": (0, 1)})
    with pytest.raises(RetryLater):  # a tournament whose fees were never taken waits
        await run(pool, lambda c: paying.tournament_finished(c, early))
    end = prizes_paid("tournament-k2", 400, {"ann": (0, 1), "bob": (1, 2), "cy": (2, 3)})
    await run(pool, lambda c: paying.tournament_finished(c, end))
    assert await balance(pool, "player:ann") == 1110  # 70 % of the 300 escrowed
    assert await balance(pool, "player:bob") == 990
    assert await balance(pool, "escrow:tournament-k2") == 0
    assert await told_paid(pool, "k2") == {"ann": 210, "bob": 90, "cy": 0}
    assert (await audit_pool(pool)).problems == []


async def test_pcg_7_a_tournament_without_a_fee_is_told_paid_with_every_prize_zero(
    paying: Settlement, pool: asyncpg.Pool
) -> None:
    end = prizes_paid("tournament-k4", 0, {"ann": (0, 1), "bob": (1, 2)})
    await run(pool, lambda c: paying.tournament_finished(c, end))
    await run(pool, lambda c: paying.tournament_finished(c, replace(end, event_id="tf-2")))
    assert await told_paid(pool, "k4") == {"ann": 0, "bob": 0}


async def test_pcg_7_a_hold_id_once_released_holds_nothing_again_and_says_so(
    wallet: WalletApp, pool: asyncpg.Pool
) -> None:
    """A player who withdrew and entered again must pay again: the released hold's id,
    asked again, is refused rather than answered as if it held the fee."""
    await wallet.grant(OPERATOR, "g-ann", "ann", 1000, "welcome bonus")
    await wallet.hold_stake(LOBBY, "entry.t1.ann", "ann", 100, "tournament", 0)
    again = await wallet.hold_stake(LOBBY, "entry.t1.ann", "ann", 100, "tournament", 0)
    assert again.amount == 100  # a retry of a standing hold finds it
    await wallet.release_hold(LOBBY, "entry.t1.ann")
    with pytest.raises(AlreadyExists, match="already voided: a new hold needs a new id"):
        await wallet.hold_stake(LOBBY, "entry.t1.ann", "ann", 100, "tournament", 0)
    view = await wallet.get_balance(OPERATOR, "ann")
    assert (view.available, view.held) == (1000, 0)
    await wallet.hold_stake(LOBBY, "entry.t1.ann.2", "ann", 100, "tournament", 0)
    view = await wallet.get_balance(OPERATOR, "ann")
    assert (view.available, view.held) == (900, 100)
