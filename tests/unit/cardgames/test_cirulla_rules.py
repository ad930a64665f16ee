"""Cirulla scenarios, one or more per rule (CIRULLA-1…10, RULES §11), and the RULES
fixtures 6-9 worked by hand.

Genoese (French) codes: rank ``A 2-7 J Q K`` then suit ``H`` cuori, ``D`` quadri (the
denari), ``C`` fiori, ``S`` picche. The matta is ``7H``, the settebello ``7D``.
"""

from __future__ import annotations

from typing import Any

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Event
from tavolo.cardgames.errors import InvalidOptions, RuleError
from tavolo.cardgames.games.fishing.accusi import accuso
from tavolo.cardgames.games.fishing.cirulla import Cirulla
from tavolo.cardgames.games.fishing.core import dealer_bonus
from tavolo.cardgames.games.fishing.deck import FRENCH
from tavolo.cardgames.games.fishing.scoring import Extras, count_hand, grande, piccola
from tavolo.cardgames.games.fishing.state import fresh_deal
from tests.unit.cardgames.fishing_table import cards, events_of, play, plays_of, table

GAME = Cirulla()
CALL_CIRULLA = Action(ActionKind.CALL, call="cirulla")
CALL_DECINO = Action(ActionKind.CALL, call="decino")


class Rigged:
    """Shuffles that put each of ``tables`` in turn where a 2-player table is dealt
    (after the 6 hand cards)."""

    def __init__(self, *tables: str) -> None:
        self.tables = [cards(t) for t in tables]
        self.shuffles = 0

    def shuffle(self, deck: list[str]) -> None:
        wanted = self.tables[min(self.shuffles, len(self.tables) - 1)]
        self.shuffles += 1
        rest = [c for c in deck if c not in wanted]
        deck[:] = [*rest[:6], *wanted, *rest[6:]]


def _deal_with(opening: str) -> tuple[Any, list[Event]]:
    """A 2-player hand just dealt with ``opening`` on the table, and Cirulla's opening."""
    state = table(GAME, 2, {0: "2H 3H 4H", 1: "2S 3S 4S"}, opening, dealer=1)
    events: list[Event] = []
    dealer_bonus(state, events)
    return state, events


# -- CIRULLA-1/2: the deal and the dealer's bonus ----------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_cirulla_1_deal_three_each_and_four_on_the_table_genoese_deck(seats: int) -> None:
    state = GAME.new_game({}, seats, b"deal")
    assert [len(h) for h in state.hands] == [3] * seats
    assert len(state.table) + sum(len(p) for p in state.piles) == 4
    assert sorted(GAME.cards_in_play(state)) == sorted(FRENCH.codes)
    assert state.turn == (state.dealer + 1) % seats


def test_cirulla_1_fixture_9_two_aces_on_the_table_mean_a_redeal() -> None:
    rules = GAME.table_rules(GAME.options({}), 2)
    rigged = Rigged("AH AD 5C 6S", "2H 3D 5C 6S")
    _, on_table, _, redeals = fresh_deal(rules, rigged.shuffle, 0, 2)
    assert redeals == 1 and on_table == ("2H", "3D", "5C", "6S")
    _, _, _, none = fresh_deal(rules, Rigged("AH 2D 5C 6S").shuffle, 0, 2)
    assert none == 0


def test_cirulla_2_fixture_9_an_opening_15_is_the_dealers_capture_and_1_scopa() -> None:
    state, events = _deal_with("5H 4C 3S 3D")
    dealer_side = state.side_of(state.dealer)
    assert state.table == () and sorted(state.piles[dealer_side]) == ["3D", "3S", "4C", "5H"]
    assert state.scope[dealer_side] == 1 and state.last_capturer == dealer_side
    assert events_of(events, "dealer_bonus")[0]["scope"] == 1


def test_cirulla_2_fixture_9_an_opening_30_is_2_scope() -> None:
    state, _ = _deal_with("KH QC JS 3D")
    assert state.scope[state.side_of(state.dealer)] == 2 and state.table == ()


def test_cirulla_2_the_matta_counts_7_in_the_opening_total() -> None:
    state, _ = _deal_with("7H 5C 2S AD")  # 7 + 5 + 2 + 1 = 15
    assert state.scope[state.side_of(state.dealer)] == 1


def test_cirulla_2_otherwise_the_dealers_side_only_starts_as_the_last_capturer() -> None:
    state, events = _deal_with("5H 4C 3S 2D")
    assert state.table == ("5H", "4C", "3S", "2D") and state.scope == (0, 0)
    assert state.last_capturer == state.side_of(state.dealer)
    assert not events_of(events, "dealer_bonus")


# -- CIRULLA-3/4/5: captures, the ace, scopa ------------------------------------------------


def test_cirulla_3_fixture_6_table_j_4_3_a_7_takes_4_3_or_j() -> None:
    state = table(GAME, 2, {0: "7S", 1: "2H"}, "JC 4H 3S")
    assert plays_of(GAME, state, "7S") == {("3S", "4H"), ("JC",)}


def test_cirulla_3_fixture_6_table_7_3_5_a_7_takes_7_or_3_5() -> None:
    state = table(GAME, 2, {0: "7S", 1: "2H"}, "7C 3S 5D")
    assert plays_of(GAME, state, "7S") == {("7C",), ("3S", "5D")}


def test_cirulla_3_sums_to_15_may_be_a_single_card_and_capturing_is_compulsory() -> None:
    state = table(GAME, 2, {0: "6S 2C", 1: "2H"}, "QC KH")
    assert plays_of(GAME, state, "6S") == {("QC",)}  # 6 + 9 = 15
    assert plays_of(GAME, state, "2C") == {()}
    with pytest.raises(RuleError, match="compulsory"):
        GAME.apply(state, 0, play("6S"))


def test_cirulla_4_the_ace_takes_one_ace_or_sweeps_the_table_as_a_scopa() -> None:
    with_ace = table(GAME, 2, {0: "AS 2C", 1: "2H"}, "AD 5C")
    assert plays_of(GAME, with_ace, "AS") == {("AD",)}
    sweep = table(GAME, 2, {0: "AS 2C", 1: "2H"}, "5C KD 3H")
    assert plays_of(GAME, sweep, "AS") == {("3H", "5C", "KD")}
    after, events = GAME.apply(sweep, 0, play("AS", "5C KD 3H"))
    assert after.scope == (1, 0) and events_of(events, "capture")[0]["scopa"] is True
    empty = table(GAME, 2, {0: "AS 2C", 1: "2H"}, "")
    assert plays_of(GAME, empty, "AS") == {()}


def test_cirulla_5_an_ace_sweep_on_the_last_play_is_no_scopa() -> None:
    state = table(GAME, 2, {1: "AS"}, "5C KH", turn=1, options={"match_length": "hands:1"})
    _, events = GAME.apply(state, 1, play("AS", "5C KH"))
    assert events_of(events, "capture")[0]["scopa"] is False


def test_cirulla_5_leftovers_go_to_the_last_capturer() -> None:
    state = table(GAME, 2, {1: "5S"}, "5C KH", turn=1, options={"match_length": "hands:1"})
    _, events = GAME.apply(state, 1, play("5S", "5C"))
    assert events_of(events, "leftovers") == [{"type": "leftovers", "side": 1, "cards": ["KH"]}]


# -- CIRULLA-6/7: accusi and the matta -------------------------------------------------------


@pytest.mark.parametrize(
    ("hand", "declared"),
    [
        ("2S 3C 4D", "cirulla"),
        ("5S 5C 5D", "decino"),
        ("7H 4C 4D", "decino"),
        ("7H 6C 2D", "cirulla"),
        ("7H 6C 3D", None),
    ],
)
def test_cirulla_7_fixture_7_accusi_and_the_matta(hand: str, declared: str | None) -> None:
    assert accuso(FRENCH, cards(hand)) == declared


@pytest.mark.parametrize(
    ("hand", "points"), [("2S 3C 4D", 3), ("5S 5C 5D", 10), ("7H 4C 4D", 10), ("7H 6C 2D", 3)]
)
def test_cirulla_6_fixture_7_declaring_scores_and_shows_the_hand(hand: str, points: int) -> None:
    state = table(GAME, 2, {0: hand, 1: "2H KS QS"}, "KC", may_declare=(True, True))
    (call,) = [a for a in GAME.legal_actions(state, 0) if a.kind is ActionKind.CALL]
    after, events = GAME.apply(state, 0, call)
    assert after.accusi == (points, 0) and after.turn == 0
    assert events_of(events, "accuso")[0]["points"] == points
    mine, theirs = GAME.view(after, 0), GAME.view(after, 1)
    assert mine.hand == () and mine.public["shown"] == {"0": list(cards(hand))}
    assert theirs.public["shown"] == {"0": list(cards(hand))}
    assert set(cards(hand)).isdisjoint(GAME.hidden_cards(after, 1))
    with pytest.raises(RuleError, match="once per deal"):
        GAME.apply(after, 0, call)


def test_cirulla_6_decino_first_when_a_hand_could_declare_both() -> None:
    state = table(GAME, 2, {0: "AS AC AD", 1: "2H"}, "KC", may_declare=(True, True))
    calls = [a for a in GAME.legal_actions(state, 0) if a.kind is ActionKind.CALL]
    assert calls == [CALL_DECINO]
    with pytest.raises(RuleError, match="declares decino"):
        GAME.apply(state, 0, CALL_CIRULLA)


def test_cirulla_6_no_accuso_after_playing_the_first_card_or_out_of_turn() -> None:
    state = table(GAME, 2, {0: "2S 3C 4D", 1: "2H 3H 4S"}, "KC", may_declare=(True, True))
    assert CALL_CIRULLA not in GAME.legal_actions(state, 1)
    after, _ = GAME.apply(state, 0, play("2S"))
    after, _ = GAME.apply(after, 1, play("2H", "2S"))
    assert CALL_CIRULLA not in GAME.legal_actions(after, 0)
    with pytest.raises(RuleError, match="once per deal"):
        GAME.apply(after, 0, CALL_CIRULLA)


def test_cirulla_6_a_new_deal_of_three_offers_a_new_accuso_and_hides_the_hand_again() -> None:
    state = table(
        GAME,
        2,
        {0: "2S", 1: "2H"},
        "KC",
        stock="3S 3C 4D 4H 5H 6H",
        declared=("cirulla", ""),
    )
    after, events = GAME.apply(state, 0, play("2S"))
    after, events = GAME.apply(after, 1, play("2H", "2S"))
    assert events_of(events, "cards_dealt")
    assert after.declared == ("", "") and after.may_declare == (True, True)
    assert GAME.view(after, 0).hand == after.hands[0]


def test_cirulla_6_a_turn_timeout_declares_the_accuso_then_plays() -> None:
    state = table(GAME, 2, {0: "2S 3C 4D", 1: "2H"}, "KC", may_declare=(True, True))
    (timer,) = GAME.timers(state)
    after, events = GAME.apply(state, 0, Action(ActionKind.EXPIRE, timer=timer.key))
    assert [e["type"] for e in events][:3] == ["timer_expired", "accuso", "card_laid"]
    assert after.accusi == (3, 0) and after.turn == 1


# -- CIRULLA-8: the count --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("held", "points"),
    [
        ("AD 2D 3D", 3),
        ("AD 2D 3D 4D", 4),
        ("AD 2D 3D 4D 5D 6D", 6),
        ("AD 2D 3D 5D 6D", 3),
        ("AD 2D 3D 4D 5D 6D 7D", 6),
        ("AD 2D 4D", 0),
    ],
)
def test_cirulla_8_fixture_8_piccola(held: str, points: int) -> None:
    assert piccola(FRENCH, cards(held)) == points


def test_cirulla_8_fixture_8_grande_and_the_count_lines() -> None:
    assert grande(FRENCH, cards("JD QD KD")) == 5
    assert grande(FRENCH, cards("JD QD KH")) == 0
    pile = cards("JD QD KD AD 2D 3D 7D 7H 6C AS")
    (count, _) = count_hand(FRENCH, [pile, ()], [1, 0], Extras(grande_piccola=True), [3, 0])
    lines = {x.name: x.points for x in count.lines}
    assert lines == {
        "carte": 1,
        "denari": 1,
        "settebello": 1,
        "primiera": 1,
        "scope": 1,
        "grande": 5,
        "piccola": 3,
        "accusi": 3,
    }
    assert count.points == 16


# -- CIRULLA-9/10: cappotto and the match -----------------------------------------------------


def test_cirulla_9_capturing_all_ten_denari_ends_the_match_at_once() -> None:
    state = table(
        GAME,
        2,
        {0: "KD 3C", 1: "2H"},
        "KS",
        piles={0: "AD 2D 3D 4D 5D 6D 7D JD QD"},
        stock="4H 5H 6H 4S 5S 6S",
        totals=(20, 40),
    )
    after, events = GAME.apply(state, 0, play("KD", "KS"))
    assert after.over and after.totals == (20, 40)  # the hand is not scored
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.places == (1, 2)
    assert outcome.detail["reason"] == "cappotto"
    assert events[-1]["type"] == "game_over"


def test_cirulla_9_the_others_are_placed_by_their_totals_before_the_hand() -> None:
    state = table(
        GAME,
        3,
        {0: "KD 3C", 1: "2H", 2: "2S"},
        "KS",
        piles={0: "AD 2D 3D 4D 5D 6D 7D JD QD"},
        totals=(0, 30, 40),
    )
    after, _ = GAME.apply(state, 0, play("KD", "KS"))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.places == (1, 3, 2)


def test_cirulla_9_leftovers_completing_the_denari_are_a_cappotto_too() -> None:
    state = table(
        GAME,
        2,
        {1: "5S"},
        "5C KD",
        turn=1,
        piles={1: "AD 2D 3D 4D 5D 6D 7D JD QD"},
        options={"match_length": "hands:1"},
    )
    after, events = GAME.apply(state, 1, play("5S", "5C"))
    assert after.cappotto_side == 1 and not events_of(events, "hand_scored")


def test_cirulla_10_match_points_51_or_hands_and_no_scopa_options() -> None:
    assert GAME.options({}) == {"match_length": "points:51"}
    assert GAME.options({"match_length": "hands:4"}) == {"match_length": "hands:4"}
    with pytest.raises(InvalidOptions, match="points:51"):
        GAME.options({"match_length": "points:11"})
    with pytest.raises(InvalidOptions, match="no option napola"):
        GAME.options({"napola": True})


def test_cirulla_10_the_highest_total_wins_a_tie_plays_another_hand() -> None:
    state = table(
        GAME,
        2,
        {1: "5S"},
        "5C",
        turn=1,
        piles={0: "AD 2D 7D 7C", 1: "KH QH"},
        totals=(49, 51),
    )
    after, events = GAME.apply(state, 1, play("5S", "5C"))
    # side 0 scores denari and settebello (no side holds every suit): 51 all
    assert after.totals == (51, 51) and after.tied == (0, 1) and not after.over
    assert events_of(events, "tie_break")
