"""Scopa scenarios, one or more per rule (SCOPA-1…8, RULES §8), the RULES fixtures 1-4
and 30 worked by hand, and the common conventions of §0 that Scopa follows.

Italian codes: rank ``A 2-7 F C R`` then suit ``C`` coppe, ``D`` denari, ``B`` bastoni,
``S`` spade (``"7D"`` is the settebello).
"""

from __future__ import annotations

from typing import Any

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import InvalidOptions, NotYourTurn, RuleError
from tavolo.cardgames.games.fishing.deck import ITALIAN
from tavolo.cardgames.games.fishing.match import places_of_sides, rank_keys
from tavolo.cardgames.games.fishing.scopa import Scopa
from tavolo.cardgames.games.fishing.scoring import Extras, count_hand, primiera
from tavolo.cardgames.games.fishing.state import FishingRules, fresh_deal
from tests.unit.cardgames.fishing_table import cards, events_of, play, plays_of, table

GAME = Scopa()


# -- §0: seats, direction, the deal ------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_scopa_1_deal_three_each_and_four_on_the_table(seats: int) -> None:
    state = GAME.new_game({}, seats, b"deal")
    assert [len(h) for h in state.hands] == [3] * seats
    assert len(state.table) == 4
    assert len(state.stock) == 40 - 4 - 3 * seats
    assert sorted(GAME.cards_in_play(state)) == sorted(ITALIAN.codes)


def test_scopa_1_first_player_sits_on_the_dealers_right_and_play_is_anticlockwise() -> None:
    state = GAME.new_game({}, 3, b"order")
    assert state.turn == (state.dealer + 1) % 3
    first = state.turn
    legal = GAME.legal_actions(state, first)
    after, _ = GAME.apply(state, first, legal[0])
    assert after.turn == (first + 1) % 3
    with pytest.raises(NotYourTurn):
        GAME.apply(state, (first + 2) % 3, GAME.legal_actions(after, after.turn)[0])


def test_scopa_1_three_re_on_the_table_mean_a_redeal_by_the_same_dealer() -> None:
    rules = GAME.table_rules(GAME.options({}), 2)
    kings_first = ["RC", "RD", "RB"]

    class Rigged:
        """Puts three Re where the table is dealt on the first shuffle only."""

        def __init__(self) -> None:
            self.shuffles = 0

        def shuffle(self, deck: list[str]) -> None:
            self.shuffles += 1
            if self.shuffles == 1:
                rest = [c for c in deck if c not in kings_first]
                deck[:] = rest[:6] + kings_first + rest[6:]

    rigged = Rigged()
    hands, on_table, stock, redeals = fresh_deal(rules, rigged.shuffle, 0, 2)
    assert redeals == 1 and rigged.shuffles == 2
    assert sum(1 for c in on_table if ITALIAN.value[c] == 10) < 3
    assert len(stock) == 30 and all(len(h) == 3 for h in hands)


def test_scopa_1_two_re_are_no_reason_to_redeal() -> None:
    rules: FishingRules = GAME.table_rules(GAME.options({}), 2)

    class TwoKings:
        def shuffle(self, deck: list[str]) -> None:
            rest = [c for c in deck if c not in ("RC", "RD")]
            deck[:] = [*rest[:6], "RC", "RD", *rest[6:]]

    _, on_table, _, redeals = fresh_deal(rules, TwoKings().shuffle, 0, 2)
    assert redeals == 0 and on_table[:2] == ("RC", "RD")


@pytest.mark.parametrize(("seats", "deals"), [(2, 6), (3, 4), (4, 3)])
def test_scopa_2_later_deals_three_each_and_nothing_to_the_table(seats: int, deals: int) -> None:
    state = GAME.new_game({"match_length": "hands:1"}, seats, b"later deals")
    dealt = 1
    while state.hand_no == 1 and not state.over:
        table_before = state.table
        seat = state.turn
        action = GAME.legal_actions(state, seat)[0]
        state, events = GAME.apply(state, seat, action)
        for event in events_of(events, "cards_dealt"):
            dealt += 1
            assert [len(h) for h in event["hands"]] == [3] * seats
            played = action.cards[0]
            expected = (
                tuple(c for c in table_before if c not in action.capture)
                if action.capture
                else (*table_before, played)
            )
            assert state.table == expected
    assert dealt == deals


def test_scopa_2_the_deal_passes_anticlockwise_after_each_hand() -> None:
    state = GAME.new_game({"match_length": "hands:3"}, 3, b"passes")
    dealers = [state.dealer]
    while not state.over:
        state, _ = GAME.apply(state, state.turn, GAME.timeout_action(state, state.turn))
        if not state.over and state.dealer != dealers[-1]:
            dealers.append(state.dealer)
    assert dealers == [dealers[0], (dealers[0] + 1) % 3, (dealers[0] + 2) % 3]


# -- SCOPA-3/4/5: captures ------------------------------------------------------------------


def test_scopa_3_a_card_takes_an_equal_card_or_two_or_more_summing_to_it() -> None:
    state = table(GAME, 2, {0: "6C", 1: "AS"}, "2B 4S 5D")
    assert plays_of(GAME, state, "6C") == {("2B", "4S")}
    state = table(GAME, 2, {0: "FC", 1: "AS"}, "2B 4S 5D FB")
    assert plays_of(GAME, state, "FC") == {("FB",)}


def test_scopa_4_fixture_4_table_3_4_7_a_played_7_must_take_the_7() -> None:
    state = table(GAME, 2, {0: "7C", 1: "AS"}, "3B 4S 7B")
    assert plays_of(GAME, state, "7C") == {("7B",)}
    with pytest.raises(RuleError, match="cannot take"):
        GAME.apply(state, 0, play("7C", "3B 4S"))


def test_scopa_4_fixture_4_table_a_2_3_4_sums_and_fewest_cards_sum() -> None:
    state = table(GAME, 2, {0: "7C", 1: "AS"}, "AB 2S 3D 4C")
    assert plays_of(GAME, state, "7C") == {("3D", "4C"), ("2S", "4C", "AB")}
    fewest = table(GAME, 2, {0: "7C", 1: "AS"}, "AB 2S 3D 4C", options={"fewest_cards_sum": True})
    assert plays_of(GAME, fewest, "7C") == {("3D", "4C")}


def test_scopa_4_fixture_4_table_5_5_r_a_5_takes_either_5_not_both() -> None:
    state = table(GAME, 2, {0: "5C", 1: "AS"}, "5B 5S RD")
    assert plays_of(GAME, state, "5C") == {("5B",), ("5S",)}


def test_scopa_4_capture_may_list_the_table_cards_in_any_order() -> None:
    state = table(GAME, 2, {0: "7C", 1: "AS"}, "AB 2S 3D 4C")
    after, _ = GAME.apply(state, 0, play("7C", "4C 3D"))
    assert after.table == ("AB", "2S")


def test_scopa_5_capturing_is_compulsory_but_the_card_is_free() -> None:
    state = table(GAME, 2, {0: "7C 2D", 1: "AS"}, "3B 4S")
    assert plays_of(GAME, state, "7C") == {("3B", "4S")}
    assert plays_of(GAME, state, "2D") == {()}  # cannot capture: it is laid
    with pytest.raises(RuleError, match="compulsory"):
        GAME.apply(state, 0, play("7C"))
    after, _ = GAME.apply(state, 0, play("2D"))
    assert after.table == ("3B", "4S", "2D")


def test_scopa_5_refusals_say_why() -> None:
    state = table(GAME, 2, {0: "7C 2D", 1: "AS"}, "3B 4S")
    with pytest.raises(RuleError, match="takes nothing"):
        GAME.apply(state, 0, play("2D", "3B"))
    with pytest.raises(RuleError, match="own hand"):
        GAME.apply(state, 0, play("7D", "3B 4S"))
    with pytest.raises(RuleError, match="no accusi"):
        GAME.apply(state, 0, Action(ActionKind.CALL, call="cirulla"))


# -- SCOPA-6: scopa, the last play, leftovers ---------------------------------------------


def test_scopa_6_clearing_the_table_scores_a_scopa() -> None:
    state = table(GAME, 2, {0: "7C 2D", 1: "AS 3S"}, "3B 4S", stock="")
    after, events = GAME.apply(state, 0, play("7C", "3B 4S"))
    assert after.scope == (1, 0)
    assert events_of(events, "capture")[0]["scopa"] is True


def test_scopa_6_fixture_4_a_scopa_on_the_last_play_of_the_hand_scores_0() -> None:
    state = table(GAME, 2, {0: "", 1: "7C"}, "3B 4S", turn=1, options={"match_length": "hands:1"})
    after, events = GAME.apply(state, 1, play("7C", "3B 4S"))
    assert events_of(events, "capture")[0]["scopa"] is False
    assert after.last_count is not None
    assert [line.points for line in after.last_count[1].lines if line.name == "scope"] == [0]


def test_scopa_6_leftovers_go_to_the_last_capturer_and_are_no_scopa() -> None:
    state = table(
        GAME,
        2,
        {0: "2C", 1: "5S"},
        "5B RD",
        options={"match_length": "hands:1"},
    )
    state, _ = GAME.apply(state, 0, play("2C"))  # laid: table 5B RD 2C
    after, events = GAME.apply(state, 1, play("5S", "5B"))  # last play; RD 2C left
    assert events_of(events, "leftovers") == [
        {"type": "leftovers", "side": 1, "cards": ["RD", "2C"]}
    ]
    assert after.last_count is not None
    count = {line.name: line.held for line in after.last_count[1].lines}
    assert count["carte"] == 4 and count["scope"] == 0


# -- SCOPA-7: the count --------------------------------------------------------------------


def test_scopa_7_fixture_1_primiera_76_and_78() -> None:
    assert primiera(ITALIAN, cards("7D 7C 6B AS 2S FD")) == 76
    assert primiera(ITALIAN, cards("6D 6C 7B 7S 5D RC")) == 78
    counts = count_hand(ITALIAN, [cards("7D 7C 6B AS"), cards("6D 6C 7B 7S")], [0, 0], Extras())
    assert [line.points for c in counts for line in c.lines if line.name == "primiera"] == [0, 1]


def test_scopa_7_fixture_2_a_side_missing_a_suit_cannot_win_the_primiera() -> None:
    no_spade = cards("7D 7C 7B")
    all_spade = cards("AS 2S 3S 4S 5S 6S 7S FS CS RS FD FC FB")
    assert primiera(ITALIAN, no_spade) is None
    assert primiera(ITALIAN, all_spade) == 51
    counts = count_hand(ITALIAN, [no_spade, all_spade], [0, 0], Extras())
    prim = [next(x for x in c.lines if x.name == "primiera") for c in counts]
    assert [(p.held, p.points) for p in prim] == [(63, 0), (51, 1)]
    both_missing = count_hand(ITALIAN, [cards("7D 7C 7B"), cards("7S 6S")], [0, 0], Extras())
    assert all(x.points == 0 for c in both_missing for x in c.lines if x.name == "primiera")
    both_78 = count_hand(ITALIAN, [cards("6D 6C 7B 7S"), cards("7D 7C 6B 6S")], [0, 0], Extras())
    assert all(x.points == 0 for c in both_78 for x in c.lines if x.name == "primiera")


def test_scopa_7_fixture_3_a_full_hand_a_5_b_2() -> None:
    # A: 23 cards, 6 denari with the settebello, primiera 76 (7D 7C 6B AS), 2 scope.
    side_a = cards("7D AD 2D 3D 4D 5D 7C 6B AS 2C 3C 4C 5C FC CC RC 2B 3B 4B 5B 2S 3S 4S")
    side_b = [c for c in ITALIAN.codes if c not in side_a]
    assert len(side_a) == 23 and len(side_b) == 17
    assert "6D" in side_b and sum(1 for c in side_b if ITALIAN.is_denari(c)) == 4
    assert primiera(ITALIAN, side_a) == 76 and primiera(ITALIAN, side_b) == 78
    counts = count_hand(ITALIAN, [side_a, side_b], [2, 1], Extras())
    assert [c.points for c in counts] == [5, 2]


def test_scopa_7_with_three_sides_most_means_more_than_each_other() -> None:
    piles = [cards("AD 2D 3D AC"), cards("4D 5D 6D 2C"), cards("FD CD 3C 4C 5C")]
    counts = count_hand(ITALIAN, piles, [0, 0, 0], Extras())
    lines = [{x.name: x.points for x in c.lines} for c in counts]
    assert [line["denari"] for line in lines] == [0, 0, 0]  # 3, 3 and 2: nobody
    assert [line["carte"] for line in lines] == [0, 0, 1]


def test_scopa_7_napola_and_re_bello_options() -> None:
    pile = cards("AD 2D 3D 4D 5D RD 7C")
    counts = count_hand(ITALIAN, [pile, ()], [0, 0], Extras(napola=True, re_bello=True))
    lines = {x.name: x.points for x in counts[0].lines}
    assert lines["napola"] == 5 and lines["re bello"] == 1
    full = count_hand(
        ITALIAN, [[ITALIAN.card(v, 1) for v in range(1, 11)], ()], [0, 0], Extras(napola=True)
    )
    assert {x.name: x.points for x in full[0].lines}["napola"] == 10
    short = count_hand(ITALIAN, [cards("AD 2D 4D"), ()], [0, 0], Extras(napola=True))
    assert {x.name: x.points for x in short[0].lines}["napola"] == 0
    plain = count_hand(ITALIAN, [pile, ()], [0, 0], Extras())
    assert {x.name for x in plain[0].lines} == {
        "carte",
        "denari",
        "settebello",
        "primiera",
        "scope",
    }


# -- SCOPA-8: the match ----------------------------------------------------------------------


def _last_play_of_a_hand(totals: tuple[int, int], **fields: Any) -> Any:
    """Seat 1's last card takes the 5: side 1 gets 5S 5B RD 2C (and so on) for its count."""
    return table(
        GAME,
        2,
        {0: "", 1: "5S"},
        "5B",
        turn=1,
        piles={0: "7D AD 2D 3D 4D 7C 6B AS 2C", 1: "RD"},
        totals=totals,
        sheet=((0, 0),),
        **fields,
    )


def test_scopa_8_reaching_11_ends_the_match_and_the_higher_total_wins() -> None:
    state = _last_play_of_a_hand((8, 10))
    after, events = GAME.apply(state, 1, play("5S", "5B"))
    assert after.totals == (12, 10)  # side 0: carte, denari, settebello, primiera
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.places == (1, 2)
    assert events[-1]["type"] == "game_over"


def test_scopa_8_below_the_target_the_next_hand_is_dealt() -> None:
    state = _last_play_of_a_hand((0, 0))
    after, events = GAME.apply(state, 1, play("5S", "5B"))
    assert not after.over and after.hand_no == state.hand_no + 1
    assert events_of(events, "hand_dealt")


def test_scopa_8_a_tie_at_the_top_means_a_tie_break_hand() -> None:
    state = _last_play_of_a_hand((7, 11))  # side 0 makes 4: 11 all
    after, events = GAME.apply(state, 1, play("5S", "5B"))
    assert after.totals == (11, 11) and not after.over
    assert after.tied == (0, 1)
    assert events_of(events, "tie_break") == [{"type": "tie_break", "sides": [0, 1]}]


def test_scopa_8_a_tie_break_hand_is_won_by_more_points_and_never_enters_the_totals() -> None:
    state = _last_play_of_a_hand((11, 11), tied=(0, 1))
    after, _ = GAME.apply(state, 1, play("5S", "5B"))
    assert after.over and after.totals == (11, 11)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.places == (1, 2)
    assert outcome.detail["reason"] == "tie_break"


def test_scopa_8_fixture_30_ko_third_drawn_tie_break_lost_by_the_last_capturer() -> None:
    # Tie-break hands 1 and 2 drawn, hand 3 ends 3-3; side B (seat 1) captured last.
    state = table(
        GAME,
        2,
        {0: "", 1: "5S"},
        "5B",
        turn=1,
        piles={0: "7D AD 2D 3D 7C", 1: "RD 6S 6B 6C 4D 4C 2C 3C FB CB RB"},
        totals=(11, 11),
        sheet=((11, 11),),
        tied=(0, 1),
        tiebreaks=((0, 0), (2, 2)),
        scope=(1, 1),
    )
    after, _events = GAME.apply(state, 1, play("5S", "5B"))
    assert after.tiebreaks[-1] == (3, 3)
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.places == (1, 2)
    assert outcome.detail["reason"] == "ko"
    assert keys_agree(after.totals, after.tiebreaks, 1)


def keys_agree(totals: tuple[int, ...], tiebreaks: Any, loser: int) -> bool:
    keys = rank_keys(totals, tiebreaks, loser)
    return places_of_sides(keys) == tuple(2 if s == loser else 1 for s in range(len(totals)))


def test_scopa_8_a_hands_match_ends_after_n_hands() -> None:
    state = GAME.new_game({"match_length": "hands:2"}, 2, b"two hands")
    while not state.over:
        state, _ = GAME.apply(state, state.turn, GAME.timeout_action(state, state.turn))
    assert len(state.sheet) == 2 or state.tiebreaks


def test_scopa_8_partners_share_their_sides_place() -> None:
    state = GAME.new_game({"match_length": "hands:1"}, 4, b"partners")
    while not state.over:
        state, _ = GAME.apply(state, state.turn, GAME.timeout_action(state, state.turn))
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.places[0] == outcome.places[2] and outcome.places[1] == outcome.places[3]
    assert outcome.scores[0] == outcome.scores[2]


# -- options, timers, views --------------------------------------------------------------------


@pytest.mark.parametrize(
    ("options", "named"),
    [
        ({"match_length": "points:12"}, "points:11, points:16"),
        ({"match_length": "hands:0"}, "hands:1"),
        ({"match_length": 11}, "match_length"),
        ({"napola": "yes"}, "napola"),
        ({"jokers": True}, "fewest_cards_sum"),
    ],
)
def test_a_bad_option_is_refused_naming_the_allowed_values(
    options: dict[str, Any], named: str
) -> None:
    with pytest.raises(InvalidOptions, match=named):
        GAME.new_game(options, 2, b"x")


def test_options_have_the_rules_defaults() -> None:
    assert GAME.options({}) == {
        "match_length": "points:11",
        "fewest_cards_sum": False,
        "napola": False,
        "re_bello": False,
    }
    with pytest.raises(InvalidOptions, match="2 to 4 players"):
        GAME.new_game({}, 5, b"x")


def test_turn_timeout_takes_the_biggest_capture_else_lays_the_lowest_non_denaro() -> None:
    state = table(GAME, 2, {0: "7C 5D", 1: "AS"}, "AB 2S 3D 4C 5B")
    (timer,) = GAME.timers(state)
    after, events = GAME.apply(state, 0, Action(ActionKind.EXPIRE, timer=timer.key))
    assert events[0]["type"] == "timer_expired"
    assert events[0]["default"] == [play("7C", "AB 2S 4C").to_dict()]
    laying = table(GAME, 2, {0: "2D 6C 3B", 1: "AS"}, "RB")
    assert GAME.timeout_action(laying, 0) == play("3B")
    with pytest.raises(RuleError, match="no timer"):
        GAME.apply(after, 1, Action(ActionKind.EXPIRE, timer=timer.key))


def test_views_show_the_own_hand_the_table_and_the_plays_only() -> None:
    state = GAME.new_game({}, 2, b"views")
    seat = state.turn
    after, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[0])
    mine = GAME.view(after, seat)
    theirs = GAME.view(after, 1 - seat)
    assert mine.hand == after.hands[seat] and theirs.hand == after.hands[1 - seat]
    assert not set(after.hands[seat]) & set(str(theirs.to_dict()).split("'"))
    assert mine.public == theirs.public
    assert mine.public["plays"][0]["seat"] == seat
    assert mine.public["stock"] == len(after.stock)
