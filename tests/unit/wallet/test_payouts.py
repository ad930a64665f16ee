"""Who gets what when a table ends: pots (MODE-4, MODE-5) and rewards (MODE-1..3, MODE-5)."""

from __future__ import annotations

import pytest
from hypothesis import given
from hypothesis import strategies as st

from tavolo.wallet.facts import Mode, SeatResult
from tavolo.wallet.payouts import RewardRates, rewards, split_pot, winners


def seat(
    n: int, place: int, *, bot: bool = False, booster: bool = False, vip: bool = False
) -> SeatResult:
    return SeatResult(n, "" if bot else f"p{n}", bot=bot, booster=booster, vip=vip, place=place)


def test_mode4_pot_is_split_evenly_with_the_remainder_to_the_lowest_seats() -> None:
    assert split_pot(1000, [3, 1, 2]) == {1: 334, 2: 333, 3: 333}
    assert split_pot(1001, [2, 0]) == {0: 501, 2: 500}
    assert split_pot(500, [1]) == {1: 500}


@given(
    pot=st.integers(min_value=0, max_value=10**9),
    seats=st.sets(st.integers(min_value=0, max_value=7), min_size=1),
)
def test_mode4_split_pot_pays_the_whole_pot_and_shares_differ_by_at_most_one(
    pot: int, seats: set[int]
) -> None:
    shares = split_pot(pot, sorted(seats))
    assert sum(shares.values()) == pot
    assert set(shares) == seats
    assert max(shares.values()) - min(shares.values()) <= 1
    ordered = [shares[s] for s in sorted(seats)]
    assert ordered == sorted(ordered, reverse=True)


def test_split_pot_refuses_no_winner_and_a_negative_pot() -> None:
    with pytest.raises(ValueError):
        split_pot(100, [])
    with pytest.raises(ValueError):
        split_pot(-1, [0])


def test_mode4_winners_are_every_seat_sharing_first_place() -> None:
    table = [seat(0, 2), seat(1, 1), seat(2, 3), seat(3, 1)]
    assert [s.seat for s in winners(table)] == [1, 3]


def test_mode4_winners_of_a_partnership_game_are_both_partners() -> None:
    spades = [seat(0, 1), seat(1, 2), seat(2, 1), seat(3, 2)]
    assert [s.seat for s in winners(spades)] == [0, 2]


def test_mode4_no_human_winner_when_a_bot_holds_first_place() -> None:
    assert winners([seat(0, 1, bot=True), seat(1, 2)]) == []
    assert winners([seat(0, 0), seat(1, 0)]) == []


RATES = RewardRates()


def test_mode1_versus_computer_pays_nothing() -> None:
    assert rewards(Mode.VERSUS_COMPUTER, [seat(0, 1), seat(1, 2, bot=True)], RATES) == {}


def test_mode3_online_pays_every_place_by_the_default_formula() -> None:
    four = [seat(0, 3), seat(1, 1), seat(2, 4), seat(3, 2)]
    assert rewards(Mode.ONLINE, four, RATES) == {1: 100, 3: 75, 0: 50, 2: 25}
    two = [seat(0, 2), seat(1, 1)]
    assert rewards(Mode.ONLINE, two, RATES) == {1: 100, 0: 50}
    three = [seat(0, 1), seat(1, 2), seat(2, 3)]
    assert rewards(Mode.ONLINE, three, RATES) == {0: 100, 1: 67, 2: 34}


def test_mode3_tied_seats_earn_the_same_and_bots_earn_nothing() -> None:
    table = [seat(0, 1), seat(1, 1), seat(2, 3, bot=True), seat(3, 4)]
    assert rewards(Mode.ONLINE, table, RATES) == {0: 100, 1: 100, 3: 25}


def test_mode3_a_configured_placement_row_replaces_the_formula() -> None:
    rates = RewardRates(placement={4: (60, 40, 20)})
    table = [seat(0, 1), seat(1, 2), seat(2, 3), seat(3, 4)]
    assert rewards(Mode.ONLINE, table, rates) == {0: 60, 1: 40, 2: 20}


def test_mode2_versus_friends_pays_only_the_winner_at_half_the_online_rate() -> None:
    table = [seat(0, 2), seat(1, 1), seat(2, 3)]
    assert rewards(Mode.VERSUS_FRIENDS, table, RATES) == {1: 50}


def test_mode2_nobody_is_paid_when_a_bot_wins_among_friends() -> None:
    table = [seat(0, 2), seat(1, 1, bot=True)]
    assert rewards(Mode.VERSUS_FRIENDS, table, RATES) == {}


def test_mode5_booster_and_vip_multiply_rewards_and_round_down_once() -> None:
    table = [
        seat(0, 1, booster=True),
        seat(1, 2, vip=True),
        seat(2, 3, booster=True, vip=True),
        seat(3, 4),
    ]
    # base 100, 75, 50, 25 -> x2, x1.5 (112.5 down to 112), x3, x1
    assert rewards(Mode.ONLINE, table, RATES) == {0: 200, 1: 112, 2: 150, 3: 25}


def test_mode4_and_mode5_stake_tables_pay_no_reward_even_with_boosters() -> None:
    table = [seat(0, 1, booster=True, vip=True), seat(1, 2)]
    assert rewards(Mode.STAKE, table, RATES) == {}


def test_rates_refuse_nonsense() -> None:
    with pytest.raises(ValueError):
        RewardRates(booster_percent=-1)
    with pytest.raises(ValueError):
        RewardRates(placement={2: (100, 50, 25)})
