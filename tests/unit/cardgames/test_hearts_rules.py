"""Hearts rule by rule (RULES.md §4, HEARTS-1..7) and RULES fixture 13.

Hearts goes anticlockwise: the turn passes from seat s to s+1, and the pass of the seed's
rules goes to the player on the right, seat s+1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import InvalidOptions, RuleError
from tavolo.cardgames.games.french_deck import full_deck
from tavolo.cardgames.games.tricks.hearts import Hearts
from tavolo.cardgames.games.tricks.hearts_state import PASSING, PLAYING, HeartsState, hand_points

GAME = Hearts()


def passing(card: str) -> Action:
    return Action(ActionKind.PASS_CARDS, cards=(card,))


def play(card: str) -> Action:
    return Action(ActionKind.PLAY, cards=(card,))


def act(state: HeartsState, seat: int, action: Action) -> HeartsState:
    return GAME.apply(state, seat, action)[0]


def pass_all(state: HeartsState, choose: Sequence[int] = (0, 1, 2)) -> HeartsState:
    """Every seat still choosing passes the cards at positions ``choose`` of its hand."""
    for seat in sorted(GAME.to_act(state)):
        for card in [state.hands[seat][i] for i in choose]:
            state = act(state, seat, passing(card))
    return state


def fresh(rules: str = "seed", seed: bytes = b"hearts") -> HeartsState:
    return GAME.new_game({"rules": rules}, 4, seed)


def playing(hands: Sequence[Sequence[str]], *, turn: int, rules: str = "seed") -> HeartsState:
    """A hand in play with the given hands (13 cards each in all), no pass pending."""
    state = fresh(rules)
    state.hands = tuple(tuple(h) for h in hands)
    state.phase, state.pass_to, state.turn = PLAYING, 0, turn
    return state


# -- HEARTS-1: deal and pass --------------------------------------------------------------


def test_hearts_1_thirteen_each_and_three_cards_to_the_right_chosen_in_secret() -> None:
    state = fresh()
    assert [len(h) for h in state.hands] == [13] * 4 and state.phase == PASSING
    assert GAME.to_act(state) == frozenset(range(4))  # the four choose at once
    chosen = state.hands[0][:3]
    for card in chosen:
        state = act(state, 0, passing(card))
    assert 0 not in GAME.to_act(state) and state.hands[0][:3] == chosen  # not given yet
    assert GAME.view(state, 1).public["chosen"] == [0]
    assert all(c in GAME.hidden_cards(state, 1) for c in chosen)  # unseen by the others
    before = state
    state = pass_all(state)  # seat 0 has already chosen: the others now choose
    received = set(state.hands[1]) - set(before.hands[1])
    assert received == set(chosen) and state.phase == PLAYING
    assert GAME.view(state, 0).private["passed"] == {"to": 1, "cards": list(chosen)}


def test_hearts_1_a_card_is_chosen_once() -> None:
    state = act(fresh(), 0, passing(fresh().hands[0][0]))
    with pytest.raises(RuleError, match="not chosen already"):
        GAME.apply(state, 0, passing(state.hands[0][0]))


def test_hearts_7_standard_passes_cycle_left_right_across_none() -> None:
    state = fresh("standard")
    seen = []
    for _ in range(4):
        seen.append(GAME.view(state, 0).public["pass"])
        state.totals = (0, 0, 0, 0)
        if state.phase == PASSING:
            state = pass_all(state)
        while state.phase == PLAYING and state.hand_no == len(seen):
            seat = state.turn
            state = act(state, seat, GAME.legal_actions(state, seat)[0])
    assert seen == ["left", "right", "across", "none"]


# -- HEARTS-2 / HEARTS-7: leading ------------------------------------------------------------


def test_hearts_2_the_dealers_right_leads_any_card() -> None:
    state = pass_all(fresh())
    assert state.turn == (state.dealer + 1) % 4
    assert {a.cards[0] for a in GAME.legal_actions(state, state.turn)} == set(
        state.hands[state.turn]
    )


def test_hearts_7_standard_the_two_of_clubs_leads_it() -> None:
    state = pass_all(fresh("standard"))
    leader = state.turn
    assert "2C" in state.hands[leader]
    assert GAME.legal_actions(state, leader) == [play("2C")]
    with pytest.raises(RuleError, match="the 2 of clubs leads the first trick"):
        GAME.apply(state, leader, play(next(c for c in state.hands[leader] if c != "2C")))


# -- HEARTS-3: tricks -------------------------------------------------------------------------

HANDS = [
    ["AH", "2C", "3C", "4C", "5C", "6C", "7C", "8C", "9C", "10C", "JC", "QC", "KC"],
    ["KH", "2D", "3D", "4D", "5D", "6D", "7D", "8D", "9D", "10D", "JD", "QD", "KD"],
    ["QH", "2S", "3S", "4S", "5S", "6S", "7S", "8S", "9S", "10S", "JS", "QS", "KS"],
    ["JH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "AC", "AD", "AS"],
]


def test_hearts_3_follow_suit_and_the_highest_of_the_suit_led_wins() -> None:
    state = playing(HANDS, turn=0)
    state = act(state, 0, play("2C"))
    assert {a.cards[0] for a in GAME.legal_actions(state, 1)} == set(HANDS[1])  # void
    state = act(state, 1, play("KD"))
    state = act(state, 2, play("QS"))
    assert GAME.legal_actions(state, 3) == [play("AC")]
    with pytest.raises(RuleError, match="you must follow suit \\(clubs\\)"):
        GAME.apply(state, 3, play("2H"))
    state, events = GAME.apply(state, 3, play("AC"))
    assert events[-1] == {"type": "trick", "winner": 3, "points": 13}
    assert state.turn == 3 and GAME.view(state, 0).public["points_taken"] == [0, 0, 0, 13]


def test_hearts_7_standard_no_points_on_the_first_trick_and_hearts_must_be_broken() -> None:
    state = playing(HANDS, turn=0, rules="standard")
    state = act(state, 0, play("2C"))
    state = act(state, 1, play("2D"))
    # Seat 2 holds no club: anything but the Q♠ (and hearts) on the first trick.
    assert "QS" not in {a.cards[0] for a in GAME.legal_actions(state, 2)}
    state = act(state, 2, play("2S"))
    state = act(state, 3, play("AC"))
    assert state.turn == 3
    led = {a.cards[0] for a in GAME.legal_actions(state, 3)}
    assert led == {"AD", "AS"}  # no heart led before hearts are broken
    with pytest.raises(RuleError, match="hearts are not broken yet"):
        GAME.apply(state, 3, play("2H"))


# -- HEARTS-4/5/fixture 13: points -----------------------------------------------------------


def test_hearts_4_fixture_13_points_per_hand() -> None:
    """5 hearts / Q♠ + 2 hearts / 6 hearts / nothing: 5, 15, 6, 0."""
    won = (
        ("2H", "3H", "4H", "5H", "6H"),
        ("QS", "7H", "8H"),
        ("9H", "10H", "JH", "QH", "KH", "AH"),
        ("2C",),
    )
    assert hand_points(won) == ((5, 15, 6, 0), None)


def test_hearts_5_fixture_13_shooting_the_moon() -> None:
    """All the hearts and the Q♠ to one seat: 0, 26, 26, 26."""
    hearts = tuple(c for c in full_deck() if c.endswith("H"))
    assert hand_points((("QS", *hearts), (), (), ())) == ((0, 26, 26, 26), 0)


# -- HEARTS-6: the end ----------------------------------------------------------------------


def test_hearts_6_the_match_ends_at_the_target_lowest_total_wins() -> None:
    state = GAME.new_game({"target": 1}, 4, b"short")
    while GAME.outcome(state) is None:
        seat = min(GAME.to_act(state))
        state = act(state, seat, GAME.legal_actions(state, seat)[0])
    outcome = GAME.outcome(state)
    assert outcome is not None and max(outcome.scores) >= 1
    assert outcome.places[outcome.scores.index(min(outcome.scores))] == 1
    assert sum(outcome.scores) % 26 == 0


def test_hearts_options_are_checked_by_name() -> None:
    with pytest.raises(InvalidOptions, match="option 'rules' must be one of 'seed', 'standard'"):
        GAME.new_game({"rules": "house"}, 4, b"s")
    with pytest.raises(InvalidOptions, match="target"):
        GAME.new_game({"target": 0}, 4, b"s")


# -- timers ---------------------------------------------------------------------------------


def test_a_pass_timeout_passes_the_most_dangerous_cards() -> None:
    state = fresh()
    state.hands = (tuple(HANDS[2]), *state.hands[1:])
    (timer,) = [t for t in GAME.timers(state) if t.seat == 0]
    state = act(state, 0, Action(ActionKind.EXPIRE, timer=timer.key))
    assert state.chosen[0] == ("QS", "QH", "KS")  # the queen, then hearts, then by rank


def test_a_turn_timeout_plays_the_lowest_legal_card() -> None:
    state = playing(HANDS, turn=0)
    (timer,) = GAME.timers(state)
    after = act(state, 0, Action(ActionKind.EXPIRE, timer=timer.key))
    assert after.trick == ((0, "2C"),)
    assert Counter(GAME.cards_in_play(after)) == Counter(GAME.cards_in_play(state))
