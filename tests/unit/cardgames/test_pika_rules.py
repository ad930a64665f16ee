"""Pika rule by rule (PRODUCT.md PIKA-1..12, RULES.md §1) and the RULES fixtures 17-19.

Seats play clockwise: the turn passes from seat s to s-1, so with four players the order
is 0, 3, 2, 1.
"""

from __future__ import annotations

from collections import Counter

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import InvalidOptions, NotYourTurn, RuleError
from tavolo.cardgames.games.shedding.deck import DECK
from tavolo.cardgames.games.shedding.pika import CALL, DRAW, KEEP, TAKE
from tavolo.cardgames.games.shedding.pika_state import PikaState
from tests.unit.cardgames.pika_table import FILLER_HANDS, GAME, act, pika_table, play, playable

FILL = FILLER_HANDS


def expire(state: PikaState, kind: str, seat: int) -> tuple[PikaState, list[dict[str, object]]]:
    (timer,) = [t for t in GAME.timers(state) if t.kind == kind and t.seat == seat]
    return GAME.apply(state, seat, Action(ActionKind.EXPIRE, timer=timer.key))


# -- PIKA-1: matching -------------------------------------------------------------------


def test_pika_1_match_by_colour_or_value_black_always() -> None:
    state = pika_table({0: ["R9", "G5", "Bskip", "W", "W+4", "Y1"]}, top="R5")
    assert playable(state, 0) == {"R9", "G5", "W", "W+4"}
    wild_plays = [a for a in GAME.legal_actions(state, 0) if a.cards == ("W",)]
    assert {a.colour for a in wild_plays} == {"red", "yellow", "green", "blue"}


def test_pika_1_symbols_match_symbols() -> None:
    state = pika_table({0: ["Gskip", "Grev", "G+2", "Y7"]}, top="Rskip")
    assert playable(state, 0) == {"Gskip"}


def test_pika_1_a_card_that_does_not_match_is_refused_with_the_reason() -> None:
    state = pika_table({0: ["Y1", "G5"]}, top="R5")
    with pytest.raises(RuleError, match=r"Y1 does not match R5 \(colour in play: red\)"):
        GAME.apply(state, 0, play("Y1"))
    with pytest.raises(RuleError, match="you do not hold B3"):
        GAME.apply(state, 0, play("B3"))


def test_pika_1_a_black_card_must_name_a_colour() -> None:
    state = pika_table({0: ["W", "G5"]}, top="R5")
    with pytest.raises(RuleError, match="name the colour for W"):
        GAME.apply(state, 0, play("W"))
    with pytest.raises(RuleError, match="only a black card names a colour"):
        GAME.apply(state, 0, play("G5", colour="red"))


# -- PIKA-2: draw, then play or keep --------------------------------------------------------


def test_pika_2_draw_only_when_you_cannot_play() -> None:
    state = pika_table({0: ["R1", "G2"]}, top="R5")
    assert DRAW not in GAME.legal_actions(state, 0)
    with pytest.raises(RuleError, match="you may draw only when you cannot play; you can play R1"):
        GAME.apply(state, 0, DRAW)


def test_pika_2_a_playable_drawn_card_may_be_played_at_once_or_kept() -> None:
    state = pika_table({0: ["G2", "Y3"], 3: FILL[3]}, top="R5", stock=["R7"], rest="discard")
    assert GAME.legal_actions(state, 0) == [DRAW]
    drawn = act(state, 0, DRAW)
    assert drawn.hands[0] == ("G2", "Y3", "R7")
    assert drawn.turn == 0
    assert GAME.legal_actions(drawn, 0) == [play("R7"), KEEP]
    assert GAME.view(drawn, 0).private == {"drawn": "R7"}
    assert "drawn" not in GAME.view(drawn, 3).private
    with pytest.raises(RuleError, match="you drew R7: play it or keep it"):
        GAME.apply(drawn, 0, play("G2"))
    played = act(drawn, 0, play("R7"))
    assert played.hands[0] == ("G2", "Y3") and played.discard[-1] == "R7"
    assert played.turn == 3
    kept = act(drawn, 0, KEEP)
    assert kept.hands[0] == ("G2", "Y3", "R7") and kept.turn == 3


def test_pika_2_an_unplayable_drawn_card_passes_the_turn() -> None:
    state = pika_table({0: ["G2"], 3: FILL[3]}, top="R5", stock=["Y9"], rest="discard")
    after = act(state, 0, DRAW)
    assert after.hands[0] == ("G2", "Y9")
    assert after.turn == 3 and after.drawn is None


# -- PIKA-3: reshuffle and stall ------------------------------------------------------------


def test_pika_3_empty_stock_is_rebuilt_from_discards_keeping_the_top() -> None:
    state = pika_table({0: ["G2"], 3: FILL[3]}, top="R5", stock=[], rest="discard")
    under = Counter(state.discard[:-1])
    after, events = GAME.apply(state, 0, DRAW)
    assert after.discard == ("R5",)
    assert events[0] == {"type": "reshuffle", "cards": sum(under.values())}
    assert Counter(after.stock) + Counter(after.hands[0]) == under + Counter(["G2"])
    assert Counter(GAME.cards_in_play(after)) == Counter(DECK)


def test_pika_3_nothing_to_draw_passes_the_turn() -> None:
    state = pika_table({0: ["G2"], 3: FILL[3]}, top="R5", stock=[], rest="out")
    after, events = GAME.apply(state, 0, DRAW)
    assert after.hands[0] == ("G2",) and after.turn == 3
    assert events[0] == {"type": "draw", "seat": 0, "cards": []}
    assert after.idle == 1


def test_pika_3_a_round_with_nobody_playing_on_a_dry_pile_closes() -> None:
    hands = {0: ["G1"], 1: ["G2", "G3", "G4"], 2: ["B1", "B2"]}
    state = pika_table(hands, top="R5", seats=3, stock=[], rest="out")
    state = act(state, 0, DRAW)  # order 0, 2, 1
    state = act(state, 2, DRAW)
    assert GAME.outcome(state) is None
    state = act(state, 1, DRAW)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.places == (1, 3, 2)
    assert outcome.detail["reason"] == "stall"


def test_pika_3_a_card_played_resets_the_idle_count() -> None:
    hands = {0: ["G1"], 1: ["G2", "G3"], 2: ["R1", "B2"]}
    state = pika_table(hands, top="R5", seats=3, stock=[], rest="out")
    state = act(state, 0, DRAW)
    state = act(state, 2, play("R1"))
    assert state.idle == 0
    state = act(state, 1, DRAW)
    assert GAME.outcome(state) is None


# -- PIKA-4: skip and reverse ----------------------------------------------------------------


def test_pika_4_skip_makes_the_next_player_lose_the_turn() -> None:
    state = pika_table({0: ["Rskip", "G1"], 3: FILL[3], 2: FILL[2]}, top="R5")
    after = act(state, 0, play("Rskip"))
    assert after.turn == 2


def test_pika_4_reverse_turns_the_order_round() -> None:
    state = pika_table({0: ["Rrev", "G1"], 1: ["R8", "G8"], 3: FILL[3]}, top="R5")
    after = act(state, 0, play("Rrev"))
    assert after.turn == 1
    assert GAME.view(after, 1).public["direction"] == "anticlockwise"
    again = act(after, 1, play("R8"))
    assert again.turn == 2


# -- PIKA-5: +2 and +4 -----------------------------------------------------------------------


def test_pika_5_plus_two_makes_the_next_player_draw_two_and_lose_the_turn() -> None:
    state = pika_table({0: ["R+2", "G1"], 3: ["Y1", "Y2"], 2: FILL[2]}, top="R5")
    after = act(state, 0, play("R+2"))
    assert after.stack == 2 and after.turn == 3
    assert GAME.legal_actions(after, 3) == [TAKE]
    took, events = GAME.apply(after, 3, TAKE)
    assert len(took.hands[3]) == 4 and took.stack == 0
    assert took.turn == 2
    assert events[-1]["type"] == "take" and len(events[-1]["cards"]) == 2  # type: ignore[arg-type]


def test_pika_5_plus_four_names_the_colour_and_stacks_four() -> None:
    state = pika_table({0: ["W+4", "G1"], 3: ["Y1", "Y2"]}, top="R5")
    after = act(state, 0, play("W+4", colour="yellow"))
    assert after.stack == 4 and GAME.view(after, 3).public["colour"] == "yellow"
    took = act(after, 3, TAKE)
    assert len(took.hands[3]) == 6
    assert GAME.view(took, 2).public["colour"] == "yellow"


# -- PIKA-6: stacking limits -----------------------------------------------------------------


def test_pika_6_on_a_plus_two_any_plus_two_or_plus_four_chains_nothing_else() -> None:
    hand = ["G+2", "B+2", "W+4", "W", "R7", "Rskip"]
    state = pika_table({3: hand}, top="R+2", turn=3, stack=2)
    assert playable(state, 3) == {"G+2", "B+2", "W+4"}
    with pytest.raises(RuleError, match=r"you must chain a \+2 or a \+4, or take 2 cards"):
        GAME.apply(state, 3, play("W", colour="red"))


def test_pika_6_on_a_plus_four_only_the_named_colour_plus_two_or_a_plus_four() -> None:
    hand = ["G+2", "B+2", "W+4", "W", "B7"]
    state = pika_table({3: hand}, top="W+4", colour="blue", turn=3, stack=4)
    assert playable(state, 3) == {"B+2", "W+4"}
    with pytest.raises(
        RuleError, match=r"you must chain a \+2 of the chosen colour \(blue\) or a \+4, or take 4"
    ):
        GAME.apply(state, 3, play("G+2"))


def test_pika_6_the_taker_draws_the_whole_stack_at_once() -> None:
    state = pika_table({0: ["R+2", "G4"], 3: ["G+2", "Y1"], 2: ["Y2", "Y3"]}, top="R5")
    state = act(state, 0, play("R+2", call="pika"))
    state = act(state, 3, play("G+2"))
    assert state.stack == 4
    state = act(state, 2, TAKE)
    assert len(state.hands[2]) == 6 and state.turn == 1


def test_pika_6_a_stack_beyond_the_cards_left_lapses() -> None:
    state = pika_table({3: ["Y1"]}, top="R+2", turn=3, stack=6, stock=["G5", "G6"], rest="out")
    after, events = GAME.apply(state, 3, TAKE)
    assert after.hands[3] == ("Y1", "G5", "G6")
    assert events[-1] == {"type": "take", "seat": 3, "cards": ["G5", "G6"], "lapsed": 4}


# -- PIKA-7: wild -----------------------------------------------------------------------------


def test_pika_7_wild_names_the_colour_and_nobody_draws() -> None:
    state = pika_table({0: ["W", "G1"], 3: ["B4", "R4", "Y5"]}, top="R5")
    after = act(state, 0, play("W", colour="blue"))
    assert after.stack == 0 and after.turn == 3 and len(after.hands[3]) == 3
    assert playable(after, 3) == {"B4"}


# -- PIKA-8: calling Pika ---------------------------------------------------------------------


def test_pika_8_a_play_leaving_one_card_opens_a_call_window_of_pika_window_seconds() -> None:
    state = pika_table({0: ["R1", "G1"], 3: FILL[3]}, top="R5", options={"pika_window": 5})
    after = act(state, 0, play("R1"))
    calls = [t for t in GAME.timers(after) if t.kind == "call"]
    assert [(t.seat, t.millis) for t in calls] == [(0, 5000)]
    assert CALL in GAME.legal_actions(after, 0)  # outside the turn too
    assert GAME.view(after, 2).public["pika_windows"] == [0]


def test_pika_8_expiry_without_a_call_costs_two_cards() -> None:
    state = pika_table({0: ["R1", "G1"], 3: FILL[3]}, top="R5")
    after = act(state, 0, play("R1"))
    punished, events = expire(after, "call", 0)
    assert len(punished.hands[0]) == 3
    assert events[-1]["type"] == "penalty"
    assert not [t for t in GAME.timers(punished) if t.kind == "call"]


def test_pika_8_calling_with_the_play_or_before_expiry_avoids_the_penalty() -> None:
    state = pika_table({0: ["R1", "G1"], 3: FILL[3]}, top="R5")
    assert play("R1", call="pika") in GAME.legal_actions(state, 0)
    with_play = act(state, 0, play("R1", call="pika"))
    assert not [t for t in GAME.timers(with_play) if t.kind == "call"]
    late = act(act(state, 0, play("R1")), 0, CALL)
    assert not [t for t in GAME.timers(late) if t.kind == "call"]
    assert len(late.hands[0]) == 1
    with pytest.raises(RuleError, match="you have no Pika to call"):
        GAME.apply(late, 0, CALL)


def test_pika_8_a_call_is_refused_on_a_play_that_does_not_leave_one_card() -> None:
    state = pika_table({0: ["R1", "G1", "G2"]}, top="R5")
    with pytest.raises(RuleError, match="call Pika with the play that leaves you one card"):
        GAME.apply(state, 0, play("R1", call="pika"))


def test_pika_8_other_players_actions_do_not_close_the_window() -> None:
    state = pika_table({0: ["R1", "G1"], 3: ["R2", "Y1"], 2: FILL[2]}, top="R5")
    state = act(state, 0, play("R1"))
    state = act(state, 3, play("R2"))
    assert {t.seat for t in GAME.timers(state) if t.kind == "call"} == {0, 3}
    state, _ = expire(state, "call", 0)
    assert len(state.hands[0]) == 3 and len(state.hands[3]) == 1


def test_pika_8_no_penalty_once_the_player_no_longer_holds_one_card() -> None:
    hands = {0: ["R1", "Rskip"], 3: FILL[3], 2: ["R7", "B8"], 1: ["Y7", "B9"]}
    state = pika_table(hands, top="R5")
    state = act(state, 0, play("Rskip"))  # one card left, window open
    state = act(state, 2, play("R7"))
    state = act(state, 1, play("Y7"))
    state = act(state, 0, DRAW)  # R1 does not match Y7: draws, now two cards
    assert len(state.hands[0]) == 2
    after, events = expire(state, "call", 0)
    assert len(after.hands[0]) == 2
    assert [e["type"] for e in events] == ["timeout"]


# -- turn timer defaults (RULES §0.6) -----------------------------------------------------------


def test_turn_timer_draws_takes_or_keeps() -> None:
    state = pika_table({0: ["R1", "G1"], 3: FILL[3]}, top="R5", stock=["B9"], rest="discard")
    drawn, _ = expire(state, "turn", 0)
    assert drawn.hands[0] == ("R1", "G1", "B9") and drawn.turn == 3
    facing = pika_table({3: ["G+2"]}, top="R+2", turn=3, stack=2)
    taken, _ = expire(facing, "turn", 3)
    assert len(taken.hands[3]) == 3 and taken.turn == 2
    kept, _ = expire(act(pika_table({0: ["G2"]}, top="R5", stock=["R7"]), 0, DRAW), "turn", 0)
    assert kept.hands[0] == ("G2", "R7") and kept.turn == 3


def test_a_stale_timer_is_refused() -> None:
    state = pika_table({0: ["R1", "G1"], 3: FILL[3]}, top="R5")
    (old,) = GAME.timers(state)
    after = act(state, 0, play("R1", call="pika"))
    with pytest.raises(RuleError, match="no timer"):
        GAME.apply(after, 3, Action(ActionKind.EXPIRE, timer=old.key))


# -- PIKA-9: going out on a +2 / +4 ------------------------------------------------------------


def test_pika_9_going_out_on_a_plain_card_ends_the_round() -> None:
    state = pika_table({0: ["R1"], 3: FILL[3], 2: ["G4"], 1: ["Y1", "Y2", "Y3", "Y4"]}, top="R5")
    after, events = GAME.apply(state, 0, play("R1"))
    outcome = GAME.outcome(after)
    assert outcome is not None and outcome.places == (1, 4, 2, 3)
    assert events[-1] == {"type": "game_over", "places": [1, 4, 2, 3], "scores": [38, 0, 0, 0]}
    assert GAME.legal_actions(after, 3) == [] and GAME.timers(after) == ()


def test_pika_9_a_stack_back_to_an_empty_hand_must_be_taken_and_play_goes_on() -> None:
    state = pika_table({0: ["R+2"], 1: ["G+2", "Y9"]}, top="R5", seats=2)
    state = act(state, 0, play("R+2"))
    assert GAME.outcome(state) is None and state.hands[0] == ()
    state = act(state, 1, play("G+2"))
    assert GAME.legal_actions(state, 0) == [TAKE]
    with pytest.raises(RuleError, match="you have no cards left: you must take the 4 cards"):
        GAME.apply(state, 0, play("G+2"))
    state = act(state, 0, TAKE)
    assert GAME.outcome(state) is None and len(state.hands[0]) == 4 and state.turn == 1


# -- PIKA-10: places --------------------------------------------------------------------------


def test_pika_10_places_by_cards_left_and_equal_counts_share() -> None:
    state = pika_table(
        {0: ["R1"], 3: ["G1", "G2"], 2: ["Y1", "Y2"], 1: ["B1", "B2", "B3"]}, top="R5"
    )
    outcome = GAME.outcome(act(state, 0, play("R1")))
    assert outcome is not None
    assert outcome.places == (1, 4, 2, 2)
    assert outcome.winners() == (0,)


# -- PIKA-11: reordering ----------------------------------------------------------------------


def test_pika_11_reorder_any_time_and_the_order_is_kept() -> None:
    state = pika_table({0: ["R1", "G1"], 3: ["Y1", "W", "B2", "Y1"]}, top="R5")
    order = ("Y1", "Y1", "B2", "W")
    after, events = GAME.apply(state, 3, Action(ActionKind.REORDER, cards=order))
    assert GAME.view(after, 3).hand == order
    assert events == [{"type": "reorder", "seat": 3, "hand": list(order)}]
    assert after.turn == 0
    later = act(after, 0, play("R1", call="pika"))
    assert GAME.view(later, 3).hand == order


@pytest.mark.parametrize(
    "cards",
    [
        ("Y1", "W", "B2"),
        ("Y1", "W", "B2", "B2"),
        ("Y1", "W", "B2", "Y1", "R1"),
        ("W", "W", "B2", "Y1"),
    ],
)
def test_pika_11_a_reorder_must_be_a_permutation_of_the_hand(cards: tuple[str, ...]) -> None:
    state = pika_table({0: ["R1", "G1"], 3: ["Y1", "W", "B2", "Y1"]}, top="R5")
    with pytest.raises(RuleError, match="a reorder lists every card of your hand exactly once"):
        GAME.apply(state, 3, Action(ActionKind.REORDER, cards=cards))


# -- PIKA-12: table sizes -----------------------------------------------------------------------


def test_pika_12_with_two_players_reverse_acts_as_skip() -> None:
    state = pika_table({0: ["Rrev", "G1"], 1: FILL[1]}, top="R5", seats=2)
    after = act(state, 0, play("Rrev"))
    assert after.turn == 0
    assert GAME.view(after, 0).public["direction"] == "clockwise"


def test_pika_12_with_three_players_a_reverse_can_give_the_turn_straight_back() -> None:
    state = pika_table({0: ["R1", "G7"], 2: ["Rrev", "Y4"], 1: FILL[1]}, top="R5", seats=3)
    state = act(state, 0, play("R1"))
    assert state.turn == 2
    state = act(state, 2, play("Rrev"))
    assert state.turn == 0


def test_pika_12_four_players_each_for_themselves() -> None:
    state = pika_table(
        {0: ["R1"], 3: ["G1", "G2"], 2: ["Y1", "Y2", "Y3"], 1: ["B1", "B2", "B3", "B4"]},
        top="R5",
    )
    outcome = GAME.outcome(act(state, 0, play("R1")))
    assert outcome is not None and outcome.places == (1, 4, 3, 2)
    assert GAME.min_players == 2 and GAME.max_players == 4
    with pytest.raises(InvalidOptions):
        GAME.new_game({}, 5, b"seed")


# -- RULES fixtures 17-19 ------------------------------------------------------------------------

A, B, C, D = 3, 2, 1, 0  # clockwise play order A→B→C→D


def test_fixture_17_a_stack() -> None:
    hands = {
        A: ["R+2", "Y1", "Y2"],
        B: ["G+2", "B3", "Y+2", "W", "R7", "G5"],
        C: ["W+4", "Y3", "Y4"],
        D: ["R+2", "B+2", "W"],
    }
    state = pika_table(hands, top="R5", turn=A)
    state = act(state, A, play("R+2"))
    assert state.stack == 2
    state = act(state, B, play("G+2"))
    assert state.stack == 4
    state = act(state, C, play("W+4", colour="blue"))
    assert state.stack == 8
    assert GAME.legal_actions(state, D) == [play("B+2"), TAKE]
    state = act(state, D, play("B+2"))
    assert state.stack == 10
    before = len(state.hands[A])
    state = act(state, A, TAKE)
    assert len(state.hands[A]) == before + 10
    assert state.turn == B and state.stack == 0
    assert playable(state, B) == {"B3", "Y+2", "W"}


def test_fixture_18_going_out_on_a_plus_two() -> None:
    a, b, c = 2, 1, 0  # clockwise with three seats: 2 → 1 → 0
    hands = {a: ["Y+2"], b: ["W+4", "R1", "R2"], c: ["G+2", "B1", "B2", "B3"]}
    state = pika_table(hands, top="Y7", seats=3, turn=a)
    state = act(state, a, play("Y+2"))
    assert state.hands[a] == () and GAME.outcome(state) is None
    state = act(state, b, play("W+4", colour="red"))
    assert state.stack == 6 and len(state.hands[b]) == 2
    assert GAME.legal_actions(state, c) == [TAKE]
    ended = act(state, c, TAKE)
    assert len(ended.hands[c]) == 10
    outcome = GAME.outcome(ended)
    assert outcome is not None
    assert (outcome.places[a], outcome.places[b], outcome.places[c]) == (1, 2, 3)

    # Had C held a +2 red, the 8 would come back to A, who must take them.
    hands[c] = ["R+2", "B1", "B2", "B3"]
    state = pika_table(hands, top="Y7", seats=3, turn=a)
    for seat, action in ((a, play("Y+2")), (b, play("W+4", colour="red")), (c, play("R+2"))):
        state = act(state, seat, action)
    assert state.turn == a and state.stack == 8
    assert GAME.legal_actions(state, a) == [TAKE]
    state = act(state, a, TAKE)
    assert len(state.hands[a]) == 8 and GAME.outcome(state) is None


def test_fixture_19_a_stall() -> None:
    hands = {0: ["G1", "B2"], 2: ["G3", "Y4"], 1: ["B6", "G7", "Y8", "G9", "B1"]}
    state = pika_table(hands, top="R5", seats=3, stock=[], rest="out")
    for seat in (0, 2, 1):
        assert GAME.legal_actions(state, seat) == [DRAW]
        state = act(state, seat, DRAW)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.places == (1, 3, 1)


# -- dealing, options and turn order ------------------------------------------------------------


@pytest.mark.parametrize("seats", [2, 3, 4])
def test_the_deal_gives_seven_each_and_turns_a_coloured_card(seats: int) -> None:
    for n in range(40):
        state = GAME.new_game({}, seats, f"deal {n}".encode())
        assert [len(h) for h in state.hands] == [7] * seats
        assert state.discard[-1][0] != "W"
        assert Counter(GAME.cards_in_play(state)) == Counter(DECK)
        first = (state.dealer - 1) % seats
        value = state.discard[-1][1:]
        expected = {
            "skip": (first - 1) % seats,
            "rev": state.dealer if seats > 2 else (first - 1) % seats,
        }.get(value, first)
        assert state.turn == expected
        assert state.stack == (2 if value == "+2" else 0)


def test_players_option_must_agree_with_the_seats() -> None:
    assert GAME.new_game({"players": 3}, 3, b"x").seats == 3
    with pytest.raises(InvalidOptions, match="'players' is 4 but 3 seats"):
        GAME.new_game({"players": 4}, 3, b"x")
    for bad in ({"match_length": "points:0"}, {"pika_window": 0}, {"colour": "red"}):
        with pytest.raises(InvalidOptions):
            GAME.new_game(bad, 4, b"x")


def test_out_of_turn_play_is_refused() -> None:
    state = pika_table({0: ["R1", "G1"], 3: ["R2", "G2"]}, top="R5")
    with pytest.raises(NotYourTurn, match="it is seat 0's turn"):
        GAME.apply(state, 3, play("R2"))


def test_several_rounds_to_a_points_target() -> None:
    state = pika_table(
        {0: ["R1"], 3: ["W+4", "W"], 2: FILL[2], 1: FILL[1]},
        top="R5",
        options={"match_length": "points:200"},
    )
    after, events = GAME.apply(state, 0, play("R1"))
    assert GAME.outcome(after) is None
    assert after.totals == (100 + 24 + 24, 0, 0, 0)
    assert after.round == 2 and [len(h) for h in after.hands] == [7, 7, 7, 7]
    assert after.dealer == (state.dealer - 1) % 4
    assert [e["type"] for e in events] == ["play", "round_end", "deal"]
    assert Counter(GAME.cards_in_play(after)) == Counter(DECK)


def test_hands_match_ends_after_n_rounds_and_ranks_by_total() -> None:
    state = pika_table(
        {0: ["R1"], 3: ["W"], 2: ["B7"], 1: ["G7"]},
        top="R5",
        options={"match_length": "hands:1"},
    )
    outcome = GAME.outcome(act(state, 0, play("R1")))
    assert outcome is not None
    assert outcome.scores == (50 + 7 + 7, 0, 0, 0) and outcome.places == (1, 2, 2, 2)
