"""Scopone (SCOPONE-1…3, RULES §9) and Asso Pigliatutto (ASSO-1…5, RULES §10) scenarios,
and RULES fixture 5 worked by hand. Both play on the fishing core that the Scopa tests
cover rule by rule; these tests show what each game changes.
"""

from __future__ import annotations

from typing import Any

import pytest

from tavolo.cardgames.errors import InvalidOptions, RuleError
from tavolo.cardgames.games.fishing.asso import AssoPigliatutto
from tavolo.cardgames.games.fishing.deck import FRENCH, ITALIAN
from tavolo.cardgames.games.fishing.scopone import Scopone
from tests.unit.cardgames.fishing_table import events_of, play, plays_of, table

SCOPONE = Scopone()
ASSO = AssoPigliatutto()


# -- Scopone ---------------------------------------------------------------------------


def test_scopone_1_deal_9_each_and_4_on_the_table_no_stock() -> None:
    state = SCOPONE.new_game({}, 4, b"scopone")
    assert [len(h) for h in state.hands] == [9, 9, 9, 9]
    assert len(state.table) == 4 and state.stock == ()
    assert sum(1 for c in state.table if ITALIAN.value[c] == 10) < 3
    assert state.turn == (state.dealer + 1) % 4


def test_scopone_1_option_10_each_and_an_empty_table() -> None:
    state = SCOPONE.new_game({"deal": "10+0"}, 4, b"scopone")
    assert [len(h) for h in state.hands] == [10, 10, 10, 10]
    assert state.table == () and state.stock == ()
    rules = SCOPONE.table_rules(SCOPONE.options({"deal": "10+0"}), 4)
    assert not rules.redeal_kings  # nothing is on the table to redeal for
    assert SCOPONE.table_rules(SCOPONE.options({}), 4).redeal_kings


def test_scopone_1_is_for_four_players_in_partnerships() -> None:
    with pytest.raises(InvalidOptions, match="4 to 4 players"):
        SCOPONE.new_game({}, 2, b"x")
    state = SCOPONE.new_game({}, 4, b"x")
    assert state.sides == ((0, 2), (1, 3))


def test_scopone_1_the_french_deck_without_8_9_10_pcg_9() -> None:
    state = SCOPONE.new_game({"deck": "french"}, 4, b"french")
    assert sorted(SCOPONE.cards_in_play(state)) == sorted(FRENCH.codes)
    assert FRENCH.value["KD"] == 10 and FRENCH.value["JC"] == 8
    assert not any(c.startswith(("8", "9", "10")) for c in FRENCH.codes)


def test_scopone_2_captures_and_scoring_as_scopa_the_equal_card_compulsory() -> None:
    state = table(SCOPONE, 4, {0: "7C 2D", 1: "AS"}, "3B 4S 7B")
    assert plays_of(SCOPONE, state, "7C") == {("7B",)}
    with pytest.raises(RuleError, match="cannot take"):
        SCOPONE.apply(state, 0, play("7C", "3B 4S"))
    fewest = table(
        SCOPONE, 4, {0: "7C", 1: "AS"}, "AB 2S 3D 4C", options={"fewest_cards_sum": True}
    )
    assert plays_of(SCOPONE, fewest, "7C") == {("3D", "4C")}


def test_scopone_2_clearing_the_table_with_the_last_of_the_40_plays_is_no_scopa() -> None:
    state = table(
        SCOPONE,
        4,
        {3: "RC"},
        "RB",
        turn=3,
        piles={0: "7D 6D", 1: "AD"},
        options={"match_length": "hands:1"},
    )
    after, events = SCOPONE.apply(state, 3, play("RC", "RB"))
    assert events_of(events, "capture")[0]["scopa"] is False
    assert after.over


def test_scopone_3_match_points_11_or_21_or_hands() -> None:
    assert SCOPONE.options({})["match_length"] == "points:11"
    assert SCOPONE.options({"match_length": "points:21"})["match_length"] == "points:21"
    with pytest.raises(InvalidOptions, match="points:11, points:21"):
        SCOPONE.options({"match_length": "points:16"})
    state = SCOPONE.new_game({"match_length": "hands:1"}, 4, b"one hand")
    while not state.over:
        state, _ = SCOPONE.apply(state, state.turn, SCOPONE.timeout_action(state, state.turn))
    outcome = SCOPONE.outcome(state)
    assert outcome is not None
    assert outcome.places[0] == outcome.places[2] and outcome.places[1] == outcome.places[3]


# -- Asso Pigliatutto --------------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_asso_1_deal_three_each_four_on_the_table_later_deals_three(seats: int) -> None:
    state = ASSO.new_game({}, seats, b"asso")
    assert [len(h) for h in state.hands] == [3] * seats
    assert len(state.table) == 4 and len(state.stock) == 36 - 3 * seats
    assert ASSO.table_rules(ASSO.options({}), seats).redeal_kings


def test_asso_2_other_cards_capture_as_in_scopa() -> None:
    state = table(ASSO, 2, {0: "7C 2D", 1: "AS"}, "AB 2S 4C")
    assert plays_of(ASSO, state, "7C") == {("2S", "4C", "AB")}  # an ace can be summed
    assert plays_of(ASSO, state, "2D") == {("2S",)}


def test_asso_3_fixture_5_table_5_3_a_the_ace_takes_the_a_only_no_scopa() -> None:
    state = table(ASSO, 2, {0: "AC", 1: "2S"}, "5B 3S AD")
    assert plays_of(ASSO, state, "AC") == {("AD",)}
    after, _events = ASSO.apply(state, 0, play("AC", "AD"))
    assert after.table == ("5B", "3S") and after.scope == (0, 0)


def test_asso_3_fixture_5_table_5_3_r_the_ace_takes_all_three_no_scopa() -> None:
    state = table(ASSO, 2, {0: "AC", 1: "2S"}, "5B 3S RD")
    assert plays_of(ASSO, state, "AC") == {("3S", "5B", "RD")}
    after, events = ASSO.apply(state, 0, play("AC", "5B 3S RD"))
    assert after.table == () and after.scope == (0, 0)
    assert events_of(events, "capture")[0]["scopa"] is False


def test_asso_4_fixture_5_ace_sweep_scopa_option_scores_the_sweep() -> None:
    state = table(ASSO, 2, {0: "AC", 1: "2S"}, "5B 3S RD", options={"ace_sweep_scopa": True})
    after, _ = ASSO.apply(state, 0, play("AC", "5B 3S RD"))
    assert after.scope == (1, 0)


def test_asso_4_fixture_5_an_ace_taking_a_lone_ace_is_a_scopa() -> None:
    state = table(ASSO, 2, {0: "AC", 1: "2S"}, "AD")
    after, events = ASSO.apply(state, 0, play("AC", "AD"))
    assert after.scope == (1, 0) and events_of(events, "capture")[0]["scopa"] is True


def test_asso_3_fixture_5_on_an_empty_table_the_ace_is_laid() -> None:
    state = table(ASSO, 2, {0: "AC", 1: "2S"}, "")
    assert plays_of(ASSO, state, "AC") == {()}
    after, _ = ASSO.apply(state, 0, play("AC"))
    assert after.table == ("AC",)


def test_asso_3_the_ace_must_take_when_it_can() -> None:
    state = table(ASSO, 2, {0: "AC", 1: "2S"}, "5B")
    with pytest.raises(RuleError, match="compulsory"):
        ASSO.apply(state, 0, play("AC"))


def test_asso_4_no_scopa_on_the_last_play_and_leftovers_to_the_last_capturer() -> None:
    state = table(ASSO, 2, {0: "", 1: "5S"}, "5B RD", turn=1, options={"match_length": "hands:1"})
    state.last_capturer = 0
    after, events = ASSO.apply(state, 1, play("5S", "5B"))
    assert events_of(events, "leftovers") == [{"type": "leftovers", "side": 1, "cards": ["RD"]}]
    assert after.over


def test_asso_5_scoring_as_scopa_and_match_lengths() -> None:
    assert ASSO.options({}) == {
        "match_length": "points:11",
        "deck": "italian",
        "ace_sweep_scopa": False,
        "fewest_cards_sum": False,
        "napola": False,
        "re_bello": False,
    }
    for target in ("points:16", "points:21", "points:31", "hands:3"):
        assert ASSO.options({"match_length": target})["match_length"] == target
    state = _asso_last_play(napola=True)
    after, _ = ASSO.apply(state, 1, play("5S", "5B"))
    assert after.last_count is not None
    lines = {x.name: x.points for x in after.last_count[0].lines}
    assert lines == {
        "carte": 1,
        "denari": 1,
        "settebello": 1,
        "primiera": 1,  # side 1 holds only spade and bastoni
        "scope": 0,
        "napola": 4,
    }


def _asso_last_play(**options: Any) -> Any:
    return table(
        ASSO,
        2,
        {0: "", 1: "5S"},
        "5B",
        turn=1,
        piles={0: "7D AD 2D 3D 4D 7C 6B 2C 3C 4C 5C FC CC RC 2B 3B 4B 5B 2S 3S 4S 6C"},
        options={"match_length": "hands:1", **options},
    )
