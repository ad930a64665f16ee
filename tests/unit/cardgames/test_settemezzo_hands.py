"""Sette e mezzo hands, payouts and bet limits (SETTEMEZZO-4, 5, 7, 8, RULES §15) and the
RULES fixture 26, worked on the hand module (the table's rules are not built yet)."""

from __future__ import annotations

import pytest

from tavolo.cardgames.games.betting.settemezzo_hands import (
    Settlement,
    bet_range,
    bust_chance,
    busted,
    is_reale,
    settle,
    total,
)


def test_card_values_count_figures_as_a_half() -> None:
    """RULES 15: A-7 at face value; F, C and R ½; the matta alone ½ (totals in halves)."""
    assert total(["AC"]) == 2 and total(["7S"]) == 14
    assert total(["FB"]) == total(["CC"]) == total(["RS"]) == 1
    assert total(["RD"]) == 1
    assert total(["7C", "FD"]) == 15


def test_fixture_26_the_matta_takes_the_best_value() -> None:
    """Fixture 26: matta + 5 counts 7; matta + 3 + F counts 7½, but it is not a reale."""
    assert total(["RD", "5C"]) == 14
    assert total(["RD", "3B", "FS"]) == 15
    assert not is_reale(["RD", "3B", "FS"])


def test_the_matta_never_busts_a_hand_that_a_half_would_save() -> None:
    """RULES 15 [decision]: over 7½ whatever it counts, the matta counts ½."""
    assert total(["RD", "7C", "FS"]) == 16 and busted(["RD", "7C", "FS"])
    assert total(["RD", "6C", "AS"]) == 15


def test_settemezzo_8_a_reale_is_two_cards_making_seven_and_a_half() -> None:
    """SETTEMEZZO-8: 7 + figure, matta + 7, matta + figure."""
    assert is_reale(["7C", "FD"]) and is_reale(["RD", "7S"]) and is_reale(["RD", "CB"])
    assert not is_reale(["6C", "AS", "FD"])
    assert not is_reale(["5C", "2S"])


def test_fixture_26_a_winning_reale_is_paid_double_and_takes_the_bank() -> None:
    """Fixture 26, SETTEMEZZO-8: 7+F against the banker's 6 wins +20 on a bet of 10."""
    assert settle(["7C", "FD"], ["6S"], 10) == Settlement(20, True)


def test_fixture_26_equal_totals_go_to_the_banker() -> None:
    """Fixture 26, SETTEMEZZO-7: 5+2 against the banker's 7 loses; equal always loses."""
    assert settle(["5C", "2S"], ["7D"], 10) == Settlement(-10, False)
    assert settle(["7C", "FD"], ["7S", "CB"], 10) == Settlement(-10, False)


def test_fixture_26_a_punter_over_seven_and_a_half_loses_even_if_the_banker_busts() -> None:
    """Fixture 26, SETTEMEZZO-5: 6+3 loses 10, even against a banker who busts."""
    assert settle(["6C", "3S"], ["5D", "4B"], 10) == Settlement(-10, False)


def test_settemezzo_6_a_banker_over_seven_and_a_half_pays_the_punters_standing() -> None:
    """SETTEMEZZO-6: the banker busts, a punter standing on 4 wins 1:1."""
    assert settle(["4C"], ["6D", "5B"], 10) == Settlement(10, False)


def test_settemezzo_8_a_banker_s_reale_collects_one_to_one() -> None:
    """SETTEMEZZO-8: a banker's reale against 7 collects the bet once."""
    assert settle(["7C"], ["RD", "FB"], 10) == Settlement(-10, False)


@pytest.mark.parametrize(
    ("banker", "placed", "chips", "expected"),
    [
        (100, 0, 50, (1, 10)),  # the table's maximum
        (30, 10, 50, (1, 5)),  # ⌊(30 - 2x10) ÷ 2⌋
        (100, 0, 4, (1, 4)),  # nobody bets more than they hold
        (21, 10, 50, None),  # ⌊(21 - 20) ÷ 2⌋ = 0: sits the hand out
    ],
)
def test_settemezzo_4_bets_are_capped_by_the_bank_and_the_punter_s_chips(
    banker: int, placed: int, chips: int, expected: tuple[int, int] | None
) -> None:
    """SETTEMEZZO-4 and RULES 0.15."""
    assert bet_range(banker, placed, chips, min_bet=1, max_bet=10) == expected


def test_the_chance_of_busting_counts_the_cards_left() -> None:
    """What the bot weighs: on 6, only cards of 2 or more bust (figures, A and the matta
    do not)."""
    unseen = ["AC", "2C", "FC", "RD", "7S"]
    assert bust_chance(["6B"], unseen) == pytest.approx(2 / 5)
    assert bust_chance(["6B"], []) == 1.0
