"""Spades scenarios, one or more per rule (SPADES-1…10, RULES §3), and the RULES fixtures
14-16 worked by hand.

Tables are built with :func:`table`: the hands are written out card by card, and every
card in no hand and not in the current trick counts as taken in earlier tricks, so the
52 cards stay accounted for. No seed is searched for: the deal is whatever the test says.
"""

from __future__ import annotations

import copy
from typing import Any

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import GameOver, NotYourTurn, RuleError
from tavolo.cardgames.games.french_deck import full_deck
from tavolo.cardgames.games.tricks.spades import Spades
from tavolo.cardgames.games.tricks.spades_scoring import (
    Member,
    score_team_round,
    winner_after_round,
    winner_of_tiebreak,
)
from tavolo.cardgames.games.tricks.spades_state import BID, BLIND, OVER, PLAY, SpadesState
from tavolo.cardgames.games.tricks.spades_tricks import trick_winner
from tavolo.cli.play.renderers import renderer_for

GAME = Spades()


def table(
    hands: dict[int, str],
    *,
    phase: str = PLAY,
    turn: int = 0,
    first_bidder: int = 0,
    bids: tuple[int | None, ...] = (3, 3, 3, 3),
    tricks_won: tuple[int, ...] = (0, 0, 0, 0),
    trick: tuple[tuple[int, str], ...] = (),
    spades_broken: bool = False,
    scores: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
    options: dict[str, Any] | None = None,
) -> SpadesState:
    """A table in the middle of a round, with hands given as space-separated card codes.

    Seats missing from ``hands`` hold nothing. The finished-trick count is the sum of
    ``tricks_won``; the cards nobody holds are that round's taken cards.
    """
    base = GAME.new_game(options, 4, b"hand-built table")
    held = {s: tuple(hands.get(s, "").split()) for s in range(4)}
    in_use = {c for h in held.values() for c in h} | {c for _, c in trick}
    return base.replace(
        phase=phase,
        turn=turn,
        first_bidder=first_bidder,
        hands=tuple(held[s] for s in range(4)),
        bids=bids,
        trick=trick,
        tricks_done=sum(tricks_won),
        tricks_won=tricks_won,
        taken=tuple(c for c in full_deck() if c not in in_use),
        spades_broken=spades_broken,
        scores=scores,
        bags=bags,
    )


def play(state: SpadesState, seat: int, card: str) -> SpadesState:
    return GAME.apply(state, seat, Action(ActionKind.PLAY, cards=(card,)))[0]


def bid(state: SpadesState, seat: int, amount: int) -> SpadesState:
    return GAME.apply(state, seat, Action(ActionKind.BID, amount=amount))[0]


def last_trick(
    *,
    bids: tuple[int, int, int, int],
    won_before: tuple[int, int, int, int],
    cards: tuple[str, str, str, str],
    scores: tuple[int, int] = (0, 0),
    bags: tuple[int, int] = (0, 0),
    options: dict[str, Any] | None = None,
) -> tuple[SpadesState, list[dict[str, Any]]]:
    """Play the 13th trick, led by seat 0 with ``cards[s]`` for seat s; return the table
    and events after the round is scored."""
    state = table(
        {s: cards[s] for s in range(4)},
        bids=bids,
        tricks_won=won_before,
        scores=scores,
        bags=bags,
        spades_broken=True,
        options=options,
    )
    events: list[dict[str, Any]] = []
    for seat in (0, 3, 2, 1):
        state, new = GAME.apply(state, seat, Action(ActionKind.PLAY, cards=(cards[seat],)))
        events += new
    return state, events


def round_scored(events: list[dict[str, Any]]) -> dict[str, Any]:
    return next(e for e in events if e["type"] == "round_scored")


# -- SPADES-1: partnerships ---------------------------------------------------------------


def test_spades_1_partners_opposite_share_their_place() -> None:
    # Team 0 (seats 0+2) reaches the target on the last trick of the round.
    state, _ = last_trick(
        bids=(4, 3, 1, 3),
        won_before=(3, 3, 1, 5),
        cards=("AH", "2H", "3H", "4H"),
        scores=(450, 300),
    )
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.places == (1, 3, 1, 3)
    assert outcome.scores == (500, 358, 500, 358)
    assert GAME.view(state, 1).public["teams"] == [[0, 2], [1, 3]]


# -- SPADES-2 and SPADES-6: ranks, trumps and who wins a trick ------------------------------


def test_spades_2_ace_high_two_low() -> None:
    assert trick_winner(((0, "2H"), (3, "AH"), (2, "KH"), (1, "10H"))) == 3
    assert trick_winner(((0, "3D"), (3, "2D"), (2, "AC"), (1, "KH"))) == 0


def test_spades_2_any_spade_beats_any_other_card() -> None:
    assert trick_winner(((0, "AH"), (3, "KH"), (2, "2S"), (1, "QH"))) == 2


def test_spades_6_highest_spade_wins_else_highest_of_suit_led() -> None:
    assert trick_winner(((0, "5S"), (3, "AS"), (2, "KS"), (1, "2S"))) == 3
    assert trick_winner(((0, "9C"), (3, "3S"), (2, "AC"), (1, "4S"))) == 1
    # An ace of another suit, not spades, never wins.
    assert trick_winner(((0, "9C"), (3, "AD"), (2, "AH"), (1, "10C"))) == 1


def test_spades_6_trick_winner_leads_the_next_trick() -> None:
    state = table({0: "9C 2D", 3: "3S 4D", 2: "AC 5D", 1: "10C 6D"}, spades_broken=True)
    for seat, card in ((0, "9C"), (3, "3S"), (2, "AC"), (1, "10C")):
        state = play(state, seat, card)
    assert state.turn == 3
    assert state.tricks_won == (0, 0, 0, 1)
    assert GAME.legal_actions(state, 3) == [Action(ActionKind.PLAY, cards=("4D",))]
    assert GAME.view(state, 0).public["last_trick"]["winner"] == 3


# -- SPADES-3: rounds, bidding order, bids final -------------------------------------------


def test_spades_3_deal_is_13_each_from_the_first_bidder_clockwise() -> None:
    state = GAME.new_game(None, 4, b"deal")
    assert [len(h) for h in state.hands] == [13] * 4
    assert sorted(GAME.cards_in_play(state)) == sorted(full_deck())
    assert state.phase == BID
    assert GAME.to_act(state) == frozenset({state.first_bidder})


def test_spades_3_first_bidder_comes_from_the_seed() -> None:
    firsts = {GAME.new_game(None, 4, bytes([n])).first_bidder for n in range(40)}
    assert firsts == {0, 1, 2, 3}
    again = GAME.new_game(None, 4, b"same seed")
    assert again == GAME.new_game(None, 4, b"same seed")


def test_spades_3_bidding_goes_clockwise_and_bids_are_final() -> None:
    state = table({}, phase=BID, turn=2, first_bidder=2, bids=(None,) * 4)
    state = bid(state, 2, 4)
    assert GAME.to_act(state) == frozenset({1})
    with pytest.raises(NotYourTurn):
        bid(state, 2, 5)
    for seat in (1, 0, 3):
        state = bid(state, seat, 3)
    assert state.bids == (3, 3, 4, 3)
    assert state.phase == PLAY
    assert state.turn == 2  # the first bidder leads
    with pytest.raises(RuleError, match="play one card"):
        bid(state, 2, 6)


def test_spades_3_next_round_first_bidder_rotates_clockwise() -> None:
    state, events = last_trick(
        bids=(3, 3, 3, 3), won_before=(3, 3, 3, 3), cards=("AH", "2H", "3H", "4H")
    )
    assert state.round == 2
    assert state.first_bidder == 3  # seat 0 bid first in round 1; clockwise is 0 -> 3
    assert state.phase == BID and GAME.to_act(state) == frozenset({3})
    assert [len(h) for h in state.hands] == [13] * 4
    dealt = next(e for e in events if e["type"] == "round_dealt")
    assert dealt["first_bidder"] == 3


def test_spades_3_bid_must_be_0_to_13() -> None:
    state = table({}, phase=BID, bids=(None,) * 4)
    with pytest.raises(RuleError, match="from 0 \\(nil\\) to 13"):
        bid(state, 0, 14)
    with pytest.raises(RuleError, match="bid 0 to 13"):
        GAME.apply(state, 0, Action(ActionKind.PLAY, cards=("AS",)))


# -- SPADES-4: team goal and nil -----------------------------------------------------------


def test_spades_4_team_goal_is_the_sum_of_bids() -> None:
    made = score_team_round(0, 0, (Member(4, 1), Member(3, 6)))
    assert (made.contract, made.tricks, made.made, made.score) == (7, 7, True, 70)
    missed = score_team_round(0, 0, (Member(4, 6), Member(3, 0)))
    assert (missed.made, missed.score) == (False, -70)


def test_spades_4_nil_bonus_and_penalty_on_top_of_the_partner() -> None:
    kept = score_team_round(0, 0, (Member(0, 0), Member(4, 4)))
    assert kept.score == 40 + 100
    broken = score_team_round(0, 0, (Member(0, 2), Member(4, 1)))
    assert broken.nil_points == -100
    assert broken.score == -40 - 100  # 3 tricks against a contract of 4


# -- SPADES-5: leading and following -------------------------------------------------------


def test_spades_5_first_trick_may_not_be_led_with_a_spade() -> None:
    state = table({0: "AS 5H 2C", 1: "3H", 2: "4H", 3: "6H"}, tricks_won=(0, 0, 0, 0))
    assert [a.cards[0] for a in GAME.legal_actions(state, 0)] == ["5H", "2C"]
    with pytest.raises(RuleError, match="first trick may not be led with a spade"):
        play(state, 0, "AS")


def test_spades_5_leader_with_only_spades_may_lead_one() -> None:
    state = table({0: "AS 5S", 1: "3H"}, tricks_won=(0, 0, 0, 0))
    assert [a.cards[0] for a in GAME.legal_actions(state, 0)] == ["AS", "5S"]
    after, events = GAME.apply(state, 0, Action(ActionKind.PLAY, cards=("5S",)))
    assert after.spades_broken
    assert {"type": "spades_broken", "seat": 0} in events


def test_spades_5_follow_suit_if_able() -> None:
    state = table({0: "5H", 3: "KH 2S 4C"}, turn=3, trick=((0, "5H"),))
    assert [a.cards[0] for a in GAME.legal_actions(state, 3)] == ["KH"]
    with pytest.raises(RuleError, match=r"you must follow suit \(hearts\)"):
        play(state, 3, "2S")


def test_spades_5_void_may_play_a_spade_even_on_the_first_trick() -> None:
    state = table({3: "2S 4C"}, turn=3, trick=((0, "5H"),), tricks_won=(0, 0, 0, 0))
    assert [a.cards[0] for a in GAME.legal_actions(state, 3)] == ["2S", "4C"]
    after = play(state, 3, "2S")
    assert after.spades_broken


def test_spades_5_spades_not_led_until_broken() -> None:
    state = table({0: "AS 5H"}, tricks_won=(1, 1, 1, 1))
    with pytest.raises(RuleError, match="spades are not broken yet: lead another suit"):
        play(state, 0, "AS")
    broken = state.replace(spades_broken=True)
    assert [a.cards[0] for a in GAME.legal_actions(broken, 0)] == ["AS", "5H"]


def test_spades_5_play_goes_clockwise() -> None:
    state = table({0: "5H 6H", 3: "7H 8H", 2: "9H 10H", 1: "JH QH"})
    state = play(state, 0, "5H")
    assert GAME.to_act(state) == frozenset({3})
    with pytest.raises(NotYourTurn, match="seat 3 is to play"):
        play(state, 1, "JH")


def test_spades_5_refusals_name_the_problem() -> None:
    state = table({0: "5H 6H"})
    with pytest.raises(RuleError, match="you do not hold 7H"):
        play(state, 0, "7H")
    with pytest.raises(RuleError, match="'ZZ' is not a card"):
        play(state, 0, "ZZ")
    with pytest.raises(RuleError, match="play exactly one card"):
        GAME.apply(state, 0, Action(ActionKind.PLAY, cards=("5H", "6H")))


# -- SPADES-7: scoring, with the RULES fixtures ---------------------------------------------


def test_spades_7_fixture_14_bags_over_ten_cost_100_and_carry_one() -> None:
    ns = score_team_round(287, 8, (Member(4, 6), Member(3, 4)))
    assert (ns.contract_points, ns.bag_points, ns.bag_penalty) == (70, -3, -100)
    assert (ns.score, ns.bags) == (254, 1)


def test_spades_7_fixture_15_failed_nil_tricks_count_for_the_partner() -> None:
    ew = score_team_round(150, 4, (Member(0, 1), Member(2, 2)))
    assert (ew.nil_points, ew.contract_points, ew.bag_points) == (-100, 20, -1)
    assert (ew.score, ew.bags) == (69, 5)


def test_spades_7_fixture_16_standard_bags_and_a_missed_bid() -> None:
    ns = score_team_round(287, 8, (Member(4, 6), Member(3, 4)), bag_points=1)
    ew = score_team_round(150, 4, (Member(0, 1), Member(2, 2)), bag_points=1)
    assert (ns.score, ew.score) == (260, 71)
    missed = score_team_round(0, 0, (Member(6, 3), Member(0, 2)))
    assert missed.contract_points == -60
    assert missed.bags_taken == 0  # no bags on a missed contract


def test_spades_7_fixtures_14_and_15_through_the_engine() -> None:
    # NS (seats 0+2) bid 4+3; EW (1+3): seat 1 nil, seat 3 bid 2. NS take 10, EW 3.
    state, events = last_trick(
        bids=(4, 0, 3, 2),
        won_before=(6, 1, 3, 2),
        cards=("AH", "2H", "3H", "4H"),
        scores=(287, 150),
        bags=(8, 4),
    )
    assert state.scores == (254, 69)
    assert state.bags == (1, 5)
    teams = round_scored(events)["teams"]
    assert [t["delta"] for t in teams] == [254 - 287, 69 - 150]


def test_spades_7_bags_accumulate_across_rounds_and_carry_over() -> None:
    first = score_team_round(0, 0, (Member(2, 5), Member(2, 3)))  # 4 bags
    second = score_team_round(first.score, first.bags, (Member(1, 4), Member(1, 3)))  # 5
    third = score_team_round(second.score, second.bags, (Member(2, 4), Member(2, 3)))  # 3
    assert (first.bags, second.bags) == (4, 9)
    assert third.bag_penalty == -100 and third.bags == 2
    assert third.score == (40 - 4) + (20 - 5) + (40 - 3 - 100)


def test_spades_7_twenty_bags_at_once_cost_two_hundred() -> None:
    result = score_team_round(0, 9, (Member(1, 6), Member(1, 7)))  # 11 bags on top of 9
    assert result.bag_penalty == -200 and result.bags == 0


def test_spades_7_failed_nil_lets_the_partner_make_the_contract() -> None:
    # Seat 0 bid nil and took 2; seat 2 bid 5 and took 3: together 5, the contract is made.
    state, events = last_trick(
        bids=(0, 4, 5, 4),
        won_before=(2, 4, 2, 4),
        cards=("2H", "3H", "AH", "4H"),
    )
    ns = round_scored(events)["teams"][0]
    assert ns["tricks"] == 5 and ns["made"]
    assert (ns["contract_points"], ns["nil_points"], ns["bag_points"]) == (50, -100, 0)
    assert state.scores[0] == -50


def test_spades_7_kept_nil_and_partner_bags() -> None:
    state, events = last_trick(
        bids=(0, 3, 4, 3), won_before=(0, 3, 6, 3), cards=("2H", "3H", "AH", "4H")
    )
    ns = round_scored(events)["teams"][0]
    assert (ns["nil_points"], ns["contract_points"], ns["bags_taken"]) == (100, 40, 3)
    assert state.scores[0] == 137


def test_spades_7_boston_is_recorded_and_bonus_is_an_option() -> None:
    cards = ("AH", "2H", "3H", "4H")
    state, events = last_trick(bids=(6, 1, 5, 1), won_before=(6, 0, 6, 0), cards=cards)
    ns, ew = round_scored(events)["teams"]
    assert ns["boston"] and not ew["boston"]
    assert ns["boston_points"] == 0 and state.scores[0] == 110 - 2
    with_bonus, _ = last_trick(
        bids=(6, 1, 5, 1),
        won_before=(6, 0, 6, 0),
        cards=cards,
        options={"boston_bonus": 200},
    )
    assert with_bonus.scores[0] == 110 - 2 + 200


# -- SPADES-8: the end ---------------------------------------------------------------------


def test_spades_8_fixture_16_both_past_500_higher_wins() -> None:
    assert winner_after_round((510, 505), 500, -500) == 0
    assert winner_after_round((499, 505), 500, -500) == 1
    assert winner_after_round((499, 480), 500, -500) is None
    assert winner_after_round((505, 505), 500, -500) is None  # a tie-break round


def test_spades_8_a_team_at_the_floor_loses() -> None:
    assert winner_after_round((-500, 120), 500, -500) == 1
    assert winner_after_round((-499, 120), 500, -500) is None
    assert winner_after_round((-510, -620), 500, -500) == 0
    state, events = last_trick(
        bids=(3, 6, 3, 6),
        won_before=(3, 3, 3, 3),
        cards=("AH", "2H", "3H", "4H"),
        scores=(100, -400),
    )
    assert state.scores == (100 + 60 - 1, -400 - 120)
    assert state.winner == 0 and state.end_reason == "floor"
    assert events[-1]["reason"] == "floor"


def test_spades_8_both_teams_pass_500_through_the_engine() -> None:
    # NS from 450 bid 5 and take 5 (+50): 500. EW from 440 bid 7 and take 8 (+69): 509.
    state, events = last_trick(
        bids=(3, 4, 2, 3),
        won_before=(2, 4, 2, 4),
        cards=("AH", "2H", "3H", "4H"),
        scores=(450, 440),
    )
    assert state.scores == (500, 509)
    assert state.phase == OVER
    assert GAME.outcome(state).places == (3, 1, 3, 1)  # type: ignore[union-attr]
    assert events[-1]["type"] == "game_over" and events[-1]["winner_team"] == 1
    assert GAME.legal_actions(state, 1) == []
    with pytest.raises(GameOver):
        play(state, 1, "AH")


def test_spades_8_equal_scores_past_500_play_another_round() -> None:
    state, _ = last_trick(
        bids=(3, 3, 3, 3),
        won_before=(3, 3, 2, 4),
        cards=("AH", "2H", "3H", "4H"),
        scores=(450, 451),
    )
    assert state.scores == (510, 510)
    assert state.phase == BID and state.round == 2
    assert state.tiebreak_rounds == 0
    assert GAME.outcome(state) is None


def test_spades_8_a_tie_break_round_goes_to_the_higher_score() -> None:
    """SPADES-8 with RULES §0.13: level at 510 after the last round. In the tie-break
    round NS miss 6 (-60) and EW make 6 with 4 bags (+56): EW score more in it and win,
    and the round's points never enter the match scores."""
    state = table(
        {0: "AH", 1: "2H", 2: "3H", 3: "4H"},
        bids=(3, 3, 3, 3),
        tricks_won=(1, 4, 1, 6),
        scores=(510, 510),
        spades_broken=True,
    ).replace(tiebreak_rounds=0)
    bags = state.bags
    for seat, card in ((0, "AH"), (3, "4H"), (2, "3H")):
        state = play(state, seat, card)
    before = state
    state, events = GAME.apply(state, 1, Action(ActionKind.PLAY, cards=("2H",)))
    assert state.scores == (510, 510)
    assert state.score_sheet[-1] == (-60, 60 - 4, 510, 510)
    (scored,) = [e for e in events if e["type"] == "round_scored"]
    assert scored["tie_break"] == 1
    assert [t["delta"] for t in scored["teams"]] == [-60, 56]
    assert [t["score"] for t in scored["teams"]] == [510, 510]  # the match's, unchanged
    assert tuple(t["bags"] for t in scored["teams"]) == bags == state.bags
    before_view, after_view = GAME.view(before, 0), GAME.view(state, 0)
    news = renderer_for("spades").news(before_view, after_view, ["Ann", "Bo", "Cy", "Di"])
    said = "\n".join(news)
    assert "Tie-break round 1 is over" in said, said
    assert "= -60; the match stays 510" in said and "= +56; the match stays 510" in said
    assert state.winner == 1 and state.end_reason == "tie_break"
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.places == (3, 1, 3, 1)
    assert outcome.scores == (510, 510, 510, 510)


def test_spades_8_third_level_tie_break_lost_by_the_last_trick_taker() -> None:
    assert winner_of_tiebreak((600, 600), 3, last_trick_team=0) == 1
    assert winner_of_tiebreak((600, 600), 2, last_trick_team=0) is None
    assert winner_of_tiebreak((590, 600), 1, last_trick_team=1) == 1


# -- views and timers ----------------------------------------------------------------------


def test_view_shows_only_the_own_hand_and_public_facts() -> None:
    state = GAME.new_game(None, 4, b"view")
    for seat in range(4):
        view = GAME.view(state, seat)
        assert view.hand == state.hands[seat]
        text = repr(view.to_dict())
        for other in GAME.hidden_cards(state, seat):
            assert f"'{other}'" not in text
    spectator = GAME.view(state, None)
    assert spectator.hand == () and len(GAME.hidden_cards(state, None)) == 52


def test_apply_never_changes_its_input() -> None:
    state = GAME.new_game(None, 4, b"pure")
    before = copy.deepcopy(state)
    seat = state.turn
    GAME.apply(state, seat, Action(ActionKind.BID, amount=4))
    assert state == before and state.rng.counter == before.rng.counter


def test_turn_timeout_bids_one_never_nil_and_plays_the_lowest_legal_card() -> None:
    state = table({}, phase=BID, bids=(None,) * 4)
    (timer,) = GAME.timers(state)
    after, events = GAME.apply(state, 0, Action(ActionKind.EXPIRE, timer=timer.key))
    assert after.bids[0] == 1
    assert events[0]["type"] == "timer_expired" and events[0]["default"]["amount"] == 1
    playing = table({0: "KH", 3: "9H 3H 2S 2C"}, turn=3, trick=((0, "KH"),))
    (timer,) = GAME.timers(playing)
    after, _ = GAME.apply(playing, 3, Action(ActionKind.EXPIRE, timer=timer.key))
    assert after.trick[-1] == (3, "3H")
    leading = table({0: "2S 2C 2D 3H"}, spades_broken=True, tricks_won=(1, 0, 0, 0))
    (timer,) = GAME.timers(leading)
    after, _ = GAME.apply(leading, 0, Action(ActionKind.EXPIRE, timer=timer.key))
    assert after.trick == ((0, "2C"),)


def test_stale_timer_is_refused() -> None:
    state = table({0: "5H 6H", 3: "7H 8H"})
    (timer,) = GAME.timers(state)
    state = play(state, 0, "5H")
    with pytest.raises(RuleError, match="no timer"):
        GAME.apply(state, 3, Action(ActionKind.EXPIRE, timer=timer.key))


# -- blind nil (RULES §3.10) -----------------------------------------------------------------


def test_blind_nil_is_refused_when_the_option_is_off() -> None:
    state = table({0: "AS"}, phase=BID, bids=(None,) * 4, scores=(0, 300))
    with pytest.raises(RuleError, match="blind nil is off at this table"):
        GAME.apply(state, 0, Action(ActionKind.BLIND_NIL))


def test_blind_nil_offered_to_a_trailing_team_before_it_sees_its_cards() -> None:
    # After this round NS have 59 and EW 210: NS trail by 100 or more. Seat 3 bids first in
    # round 2, so NS decide in the order 2, then 0.
    state, events = last_trick(
        bids=(3, 3, 3, 3),
        won_before=(3, 3, 3, 3),
        cards=("AH", "2H", "3H", "4H"),
        scores=(0, 150),
        options={"blind_nil": True},
    )
    assert state.scores == (59, 210)
    assert state.phase == BLIND and state.undecided == (2, 0)
    assert GAME.to_act(state) == frozenset({2})
    assert GAME.view(state, 2).hand == ()
    assert set(state.hands[2]) <= set(GAME.hidden_cards(state, 2))
    assert next(e for e in events if e["type"] == "round_dealt")["blind_nil_offered"] == [2, 0]
    with pytest.raises(RuleError, match="first decide on blind nil"):
        bid(state, 2, 3)
    state = GAME.apply(state, 2, Action(ActionKind.BLIND_NIL))[0]
    assert GAME.view(state, 2).hand == state.hands[2]
    assert GAME.view(state, 0).hand == ()
    state = GAME.apply(state, 0, Action(ActionKind.PASS))[0]
    assert state.phase == BID and GAME.to_act(state) == frozenset({3})
    for seat in (3, 1, 0):  # seat 2 has bid already
        state = bid(state, seat, 4)
    assert state.bids == (4, 4, 0, 4) and state.blind == (False, False, True, False)
    assert state.phase == PLAY


def test_blind_nil_is_worth_200() -> None:
    kept = score_team_round(0, 0, (Member(0, 0, blind=True), Member(4, 4)))
    broken = score_team_round(0, 0, (Member(0, 1, blind=True), Member(4, 4)))
    assert (kept.nil_points, kept.score) == (200, 240)
    assert (broken.nil_points, broken.score) == (-200, -160 - 1)


def test_blind_nil_not_offered_when_the_scores_are_close() -> None:
    state, _ = last_trick(
        bids=(3, 3, 3, 3),
        won_before=(3, 3, 3, 3),
        cards=("AH", "2H", "3H", "4H"),
        scores=(0, 80),
        options={"blind_nil": True},
    )
    assert state.phase == BID
    with pytest.raises(RuleError, match="blind nil is bid before seeing your cards"):
        GAME.apply(state, state.turn, Action(ActionKind.BLIND_NIL))
