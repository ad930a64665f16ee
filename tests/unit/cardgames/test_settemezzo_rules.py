"""Sette e mezzo scenarios through the engine, one or more per rule (SETTEMEZZO-1…9,
RULES §15, §0 rule 15) and RULES fixture 26.

Tables are dealt from a seed, then the first cards, the top of the stock and the chips the
test needs are written in; the cards nobody holds stay in the stock, so the deck is
accounted for.
"""

from __future__ import annotations

from dataclasses import replace
from typing import Any

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import InvalidOptions, NotYourTurn, RuleError
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.betting.settemezzo import HITS, STANDS, SetteMezzo, bets
from tavolo.cardgames.games.betting.settemezzo_state import (
    BANKER,
    BETTING,
    PUNTERS,
    SetteMezzoState,
)
from tavolo.cardgames.rng import SeededRandom

GAME = SetteMezzo()


def table(
    first: dict[int, str],
    draws: str = "",
    *,
    banker: int = 0,
    seats: int = 4,
    chips: tuple[int, ...] | None = None,
    options: dict[str, Any] | None = None,
) -> SetteMezzoState:
    """A hand at its bets: ``first`` is each seat's face-down card, ``draws`` the top of
    the stock in the order it will be drawn."""
    base = GAME.new_game(options, seats, b"hand-built table")
    hands = tuple((first[s],) if s in first else () for s in range(seats))
    top = tuple(draws.split())
    used = set(first.values()) | set(top)
    order = [(banker + 1 + i) % seats for i in range(seats)]
    return replace(
        base,
        hand_no=1,
        banker=banker,
        phase=BETTING,
        hands=hands,
        revealed=(False,) * seats,
        stock=top + tuple(c for c in italian_cards.DECK if c not in used),
        chips=chips or base.chips,
        bets=(None,) * seats,
        sitting_out=(False,) * seats,
        queue=tuple(s for s in order if s != banker and hands[s]),
        last_hand=None,
    )


def play(state: SetteMezzoState, *moves: tuple[int, Action]) -> tuple[SetteMezzoState, list[Any]]:
    """Apply the moves in order; the events of them all."""
    events: list[Any] = []
    for seat, action in moves:
        state, more = GAME.apply(state, seat, action)
        events.extend(more)
    return state, events


def settled(events: list[Any]) -> dict[str, Any]:
    found: dict[str, Any] = next(e for e in events if e["type"] == "hand_settled")
    return found


def gains(summary: dict[str, Any]) -> dict[int, int]:
    return {p["seat"]: p["gain"] for p in summary["punters"] if p["bet"]}


def test_settemezzo_1_the_first_banker_is_drawn_and_the_bank_passes_on() -> None:
    bankers = {GAME.new_game(None, 4, f"bank {n}".encode()).banker for n in range(30)}
    assert bankers == {0, 1, 2, 3}
    state = table({1: "5C", 2: "4C", 3: "3C", 0: "6S"})
    state, events = play(
        state, (1, bets(1)), (2, bets(1)), (3, bets(1)), (1, STANDS), (2, STANDS), (3, STANDS)
    )
    state, events = play(state, (0, STANDS))
    assert settled(events)["bank_taken_by"] is None
    assert state.banker == 1 and state.hand_no == 2  # the next seat anticlockwise


def test_settemezzo_1_a_winning_reale_takes_the_bank_the_first_in_turn_order() -> None:
    state = table({1: "4C", 2: "7C", 3: "RD", 0: "6S"}, "2D FD 7S", banker=0)
    state, _ = play(state, (1, bets(2)), (2, bets(2)), (3, bets(2)))
    state, events = play(
        state, (1, HITS), (1, STANDS), (2, HITS), (2, STANDS), (3, HITS), (3, STANDS)
    )
    state, events = play(state, (0, STANDS))
    summary = settled(events)
    assert summary["bank_taken_by"] == 2  # seats 2 and 3 both won with a reale
    assert gains(summary) == {1: -2, 2: 4, 3: 4}  # 6 against 6 goes to the banker
    assert state.banker == 2 and state.chips == (94, 98, 104, 104)


def test_settemezzo_1_a_seat_without_chips_neither_banks_nor_punts() -> None:
    state = table({2: "5C", 3: "3C", 0: "6S"}, chips=(100, 0, 100, 100))
    assert state.queue == (2, 3)
    state, _ = play(state, (2, bets(1)), (3, bets(1)), (2, STANDS), (3, STANDS), (0, STANDS))
    assert state.banker == 2 and state.hand_no == 2  # seat 1 is passed over
    assert state.hands[1] == () and 1 not in state.queue


def test_settemezzo_2_all_forty_cards_are_shuffled_every_hand() -> None:
    state = table({1: "5C", 2: "4C", 3: "3C", 0: "6S"})
    state, _ = play(
        state, (1, bets(1)), (2, bets(1)), (3, bets(1)), (1, STANDS), (2, STANDS), (3, STANDS)
    )
    state, _ = play(state, (0, STANDS))
    assert sorted(GAME.cards_in_play(state)) == sorted(italian_cards.DECK)
    assert len(state.stock) == 40 - 4 and all(len(h) == 1 for h in state.hands)


def test_settemezzo_3_one_face_down_card_each_from_the_bankers_right_banker_last() -> None:
    state = GAME.new_game(None, 4, b"deal order")
    rng = SeededRandom(b"deal order")
    banker = rng.randbelow(4)
    cards = italian_cards.deck()
    rng.shuffle(cards)
    order = [(banker + 1 + i) % 4 for i in range(4)]  # the banker is last
    assert [state.hands[s] for s in order] == [(c,) for c in cards[:4]]
    assert state.stock == tuple(cards[4:])
    assert GAME.to_act(state) == {order[0]}
    public = GAME.view(state, order[0]).public
    assert public["cards"] == [[None]] * 4  # nobody sees another's card
    assert GAME.view(state, order[0]).hand == state.hands[order[0]]


def test_settemezzo_4_bets_run_from_min_to_max_and_within_the_bank() -> None:
    state = table({1: "5C", 2: "4C", 3: "3C", 0: "6S"}, chips=(24, 100, 100, 3))
    assert GAME.legal_actions(state, 1) == [bets(a) for a in range(1, 11)]
    with pytest.raises(RuleError, match="bet from 1 to 10 chips"):
        play(state, (1, bets(11)))
    state, _ = play(state, (1, bets(10)))
    assert GAME.legal_actions(state, 2) == [bets(1), bets(2)]  # (24 - 2 x 10) / 2
    state, events = play(state, (2, bets(2)))
    assert {"type": "sits_out", "seat": 3} in events  # (24 - 24) / 2 = 0 < 1
    assert state.phase == PUNTERS and state.sitting_out == (False, False, False, True)


def test_settemezzo_4_never_more_than_the_punter_holds() -> None:
    """RULES §0 rule 15: nobody bets more than they hold."""
    state = table({1: "5C", 2: "4C", 3: "3C", 0: "6S"}, chips=(100, 3, 100, 100))
    assert GAME.legal_actions(state, 1) == [bets(1), bets(2), bets(3)]


def test_settemezzo_4_a_fixed_bet_is_placed_for_every_punter_who_can() -> None:
    state = GAME.new_game({"fixed_bet": 5}, 4, b"fixed")
    assert state.phase == PUNTERS
    assert sorted(b for b in state.bets if b) == [5, 5, 5] and state.bets[state.banker] is None
    with pytest.raises(InvalidOptions, match=r"'fixed_bet'.*'none' or a whole number"):
        GAME.new_game({"fixed_bet": 0}, 4, b"fixed")


def test_settemezzo_5_a_punter_draws_face_up_and_busting_pays_at_once() -> None:
    state = table({1: "6C", 2: "4C", 3: "3C", 0: "6S"}, "3S AC")
    state, _ = play(state, (1, bets(10)), (2, bets(1)), (3, bets(1)))
    assert GAME.to_act(state) == {1} and GAME.legal_actions(state, 1) == [HITS, STANDS]
    state, events = play(state, (1, HITS))
    assert {"type": "bet_lost", "seat": 1, "chips": 10} in events
    assert state.chips[:2] == (110, 90)
    public = GAME.view(state, 2).public
    assert public["cards"][1] == ["6C", "3S"] and public["busted"][1]  # the bust is shown
    assert GAME.to_act(state) == {2}
    state, _ = play(state, (2, HITS))
    assert GAME.view(state, 3).public["cards"][2] == [None, "AC"]  # face up, the first down


def test_settemezzo_5_with_the_stock_empty_a_player_can_only_stand() -> None:
    state = table({1: "6C", 2: "4C", 3: "3C", 0: "6S"})
    state, _ = play(state, (1, bets(1)), (2, bets(1)), (3, bets(1)))
    state = replace(state, stock=())
    assert GAME.legal_actions(state, 1) == [STANDS]
    with pytest.raises(RuleError, match="stock is empty"):
        play(state, (1, HITS))


def test_settemezzo_6_the_banker_plays_last_with_its_card_turned_up() -> None:
    state = table({1: "6C", 2: "4C", 3: "3C", 0: "2S"}, "5D")
    state, _ = play(state, (1, bets(1)), (2, bets(1)), (3, bets(1)))
    state, events = play(state, (1, STANDS), (2, STANDS), (3, STANDS))
    assert state.phase == BANKER and GAME.to_act(state) == {0}
    assert {"type": "banker_shows", "seat": 0, "card": "2S"} in events
    assert GAME.view(state, 1).public["cards"][0] == ["2S"]
    state, events = play(state, (0, HITS), (0, STANDS))
    assert gains(settled(events)) == {1: -1, 2: -1, 3: -1}  # 7 beats them all


def test_settemezzo_6_a_banker_who_busts_pays_every_punter_still_standing() -> None:
    """And fixture 26: a punter's 6+3 loses 10, even if the banker busts."""
    state = table({1: "6C", 2: "4C", 3: "RS", 0: "5D"}, "3S 4B")
    state, _ = play(state, (1, bets(10)), (2, bets(10)), (3, bets(3)))
    state, events = play(state, (1, HITS), (2, STANDS), (3, STANDS), (0, HITS))
    summary = settled(events)
    assert summary["banker_busted"] and summary["banker_total"] == 18
    assert gains(summary) == {1: -10, 2: 10, 3: 3}
    assert state.chips == (100 + 10 - 10 - 3, 90, 110, 103)


def test_settemezzo_6_the_banker_does_not_play_when_every_punter_has_busted() -> None:
    state = table({1: "6C", 2: "7C", 0: "5D"}, "3S 4B", seats=3)
    state, _ = play(state, (1, bets(4)), (2, bets(5)), (1, HITS))
    state, events = play(state, (2, HITS))
    summary = settled(events)
    assert summary["banker_total"] is None and state.chips == (109, 96, 95)
    assert state.hand_no == 2


def test_settemezzo_7_equal_totals_always_go_to_the_banker() -> None:
    """Fixture 26: a punter's 5+2 against the banker's 7: the banker wins. No exception:
    a punter's reale loses to a banker's 7½ of three cards."""
    state = table({1: "5C", 2: "6C", 0: "7D"}, "2S", seats=3)
    state, _ = play(state, (1, bets(10)), (2, bets(10)))
    state, _ = play(state, (1, HITS), (1, STANDS), (2, STANDS))
    state, events = play(state, (0, STANDS))
    assert gains(settled(events)) == {1: -10, 2: -10}
    state = table({1: "7C", 0: "6D"}, "FB AS CS", seats=2)
    state, _ = play(state, (1, bets(10)), (1, HITS), (1, STANDS), (0, HITS), (0, HITS))
    state, events = play(state, (0, STANDS))
    assert settled(events)["banker_total"] == 15 and gains(settled(events)) == {1: -10}


def test_settemezzo_8_a_winning_reale_is_paid_double_and_fixture_26() -> None:
    """Fixture 26 (bet 10): a punter's 7+F against the banker's 6 wins +20, and the
    punter takes the bank. A plain win is paid 1:1."""
    state = table({1: "7C", 2: "5C", 0: "6S"}, "FD AB", seats=3)
    state, _ = play(state, (1, bets(10)), (2, bets(10)))
    state, _ = play(state, (1, HITS), (1, STANDS), (2, HITS), (2, STANDS))
    state, events = play(state, (0, STANDS))
    summary = settled(events)
    assert gains(summary) == {1: 20, 2: -10}
    assert [p["reale"] for p in summary["punters"]] == [True, False]
    assert summary["bank_taken_by"] == 1 and state.banker == 1
    assert state.chips == (90, 120, 90)


def test_settemezzo_8_a_bankers_reale_collects_one_to_one() -> None:
    state = table({1: "6C", 0: "RD"}, "AB 7S", seats=2)
    state, _ = play(state, (1, bets(10)), (1, HITS), (1, STANDS), (0, HITS))
    state, events = play(state, (0, STANDS))
    summary = settled(events)
    assert summary["banker_reale"] and gains(summary) == {1: -10}
    assert state.chips == (110, 90)


def test_fixture_26_the_matta_counts_its_best_value_at_the_table() -> None:
    """Fixture 26: matta + 5 counts 7; matta + 3 + F counts 7½, but it is not a reale."""
    state = table({1: "RD", 2: "3B", 0: "6S"}, "5C FS", seats=3)
    state, _ = play(state, (1, bets(10)), (2, bets(10)), (1, HITS))
    assert GAME.view(state, 1).private["total"] == 14
    state, _ = play(state, (1, STANDS), (2, HITS), (2, STANDS))
    state = table({1: "RD", 0: "6S"}, "3B FS", seats=2)
    state, _ = play(state, (1, bets(10)), (1, HITS), (1, HITS))
    assert GAME.view(state, 1).private["total"] == 15
    state, events = play(state, (1, STANDS), (0, STANDS))
    summary = settled(events)
    assert gains(summary) == {1: 10}  # paid 1:1: three cards are no reale
    assert summary["punters"][0]["reale"] is False and summary["bank_taken_by"] is None


def test_settemezzo_9_the_match_lasts_two_hands_a_player() -> None:
    state = GAME.new_game(None, 3, b"length")
    assert state.options["hands"] == 6
    assert GAME.new_game({"hands": 2}, 3, b"length").options["hands"] == 2
    assert GAME.options({"players": 6})["hands"] == 12  # as the lobby fills a table in
    state = GAME.new_game({"hands": 1}, 2, b"one hand")
    while GAME.outcome(state) is None:
        (seat,) = GAME.to_act(state)
        state, _ = GAME.apply(state, seat, GAME.legal_actions(state, seat)[-1])
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.detail["reason"] == "hands"
    assert sum(outcome.scores) == 200 and outcome.detail["hands"] == 1


def test_settemezzo_9_the_match_ends_when_one_seat_has_chips_and_ranks_by_chips() -> None:
    state = table({1: "7C", 0: "6S"}, "FD", seats=3, chips=(10, 5, 0))
    state, _ = play(state, (1, bets(5)), (1, HITS), (1, STANDS))
    state, _ = play(state, (0, STANDS))
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.detail["reason"] == "one_seat_left"
    assert state.chips == (0, 15, 0) and outcome.places == (2, 1, 2)


def test_options_are_checked_and_refused_by_name() -> None:
    with pytest.raises(InvalidOptions, match="'players' must be one of"):
        GAME.options({"players": 9})
    with pytest.raises(InvalidOptions, match="'max_bet' must be at least min_bet"):
        GAME.new_game({"min_bet": 5, "max_bet": 2}, 4, b"x")
    with pytest.raises(InvalidOptions, match="option 'hands'"):
        GAME.new_game({"hands": 0}, 4, b"x")
    with pytest.raises(InvalidOptions, match="2 to 8 players"):
        GAME.new_game(None, 9, b"x")


def test_refusals_and_timeouts() -> None:
    """[decision] docs/decisions.md: a timeout bets the least allowed, then stands."""
    state = table({1: "6C", 2: "4C", 3: "3C", 0: "2S"})
    with pytest.raises(NotYourTurn):
        play(state, (2, bets(1)))
    with pytest.raises(RuleError, match="bet from"):
        play(state, (1, HITS))
    (timer,) = GAME.timers(state)
    state, events = play(state, (1, Action(ActionKind.EXPIRE, timer=timer.key)))
    assert events[1] == {"type": "bet", "seat": 1, "amount": 1}
    state, _ = play(state, (2, bets(1)), (3, bets(1)))
    (timer,) = GAME.timers(state)
    state, events = play(state, (1, Action(ActionKind.EXPIRE, timer=timer.key)))
    assert events[1] == {"type": "stood", "seat": 1} and GAME.to_act(state) == {2}
    with pytest.raises(RuleError, match="no timer"):
        play(state, (2, Action(ActionKind.EXPIRE, timer=timer.key)))
