"""Poker all'italiana scenarios, one or more per rule (POKER-1…11, RULES §14), RULES
fixture 25, and properties of the hand ranking and the side pots.

Tables are dealt from a seed, then the hands the test needs are written in; the cards
nobody holds stay in the stock so the deck is accounted for. With ``dealer = 0`` at four
seats the order of speech is clockwise 3, 2, 1, 0: seat 3 is the buiante.
"""

from __future__ import annotations

import json
from dataclasses import replace
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import InvalidOptions, NotYourTurn, RuleError
from tavolo.cardgames.games.betting import poker_betting, poker_hands, poker_legal
from tavolo.cardgames.games.betting.poker import Poker
from tavolo.cardgames.games.betting.poker_betting import open_round, side_pots
from tavolo.cardgames.games.betting.poker_legal import CALL, CHECK, FOLD, STAND_PAT, bet, raise_by
from tavolo.cardgames.games.betting.poker_state import (
    BLIND,
    CHANGE,
    FIRST,
    OVER,
    SECOND,
    PokerState,
)

GAME = Poker()
LOW4 = poker_hands.lowest_rank(4)


def table(
    hands: dict[int, str],
    *,
    seats: int = 4,
    dealer: int = 0,
    chips: tuple[int, ...] | None = None,
    minimum: int = 11,
    options: dict[str, Any] | None = None,
) -> PokerState:
    """A first round about to start, everyone anted 1, with ``hands`` written in."""
    base = GAME.new_game({"blind": False, **(options or {})}, seats, b"hand-built table")
    held = {s: tuple(hands.get(s, "").split()) for s in range(seats)}
    used = {c for h in held.values() for c in h}
    stock = tuple(c for c in poker_hands.deck(seats) if c not in used)
    state = replace(
        base,
        dealer=dealer,
        hands=tuple(held[s] for s in range(seats)),
        stock=stock,
        discards=(),
        minimum=minimum,
        chips=chips or base.chips,
        folded=tuple(not held[s] for s in range(seats)),
    )
    speakers = [s for s in state.clockwise(state.buiante()) if state.can_act(s)]
    return replace(state, phase=FIRST, rnd=open_round(seats, speakers), turn=speakers[0])


def play(state: PokerState, *moves: tuple[int, Action]) -> tuple[PokerState, list[Any]]:
    events: list[Any] = []
    for seat, action in moves:
        state, more = GAME.apply(state, seat, action)
        events.extend(more)
    return state, events


def key(hand: str) -> poker_hands.HandKey:
    return poker_hands.hand_key(hand.split(), LOW4)


def change(state: PokerState, *seats: int) -> PokerState:
    return play(state, *((s, STAND_PAT) for s in seats))[0]


# -- POKER-1, 2: the deck and the deal ------------------------------------------------


@pytest.mark.parametrize(
    ("players", "low", "size"), [(2, 9, 24), (3, 8, 28), (4, 7, 32), (5, 6, 36), (6, 5, 40)]
)
def test_poker_1_the_deck_starts_at_eleven_minus_players(players: int, low: int, size: int) -> None:
    deck = poker_hands.deck(players)
    assert len(deck) == size and poker_hands.lowest_rank(players) == low
    state = GAME.new_game(None, players, b"deck")
    assert sorted(GAME.cards_in_play(state)) == sorted(deck)
    assert min(int(c[:-1]) for c in deck if c[:-1].isdigit()) == low


def test_poker_2_everyone_antes_automatically_and_gets_five_cards() -> None:
    state = GAME.new_game({"ante": 2}, 5, b"ante")
    assert state.contributed == (2,) * 5 and state.pot == 10
    assert state.chips == (98,) * 5
    assert all(len(h) == 5 for h in state.hands)


# -- POKER-3, 4: ranks and ties --------------------------------------------------------


def test_poker_3_the_ranking_with_the_flush_above_the_full_house() -> None:
    ordered = [
        "AS KH QD 9C 8S",  # high card
        "JS JH 7D 8C 9S",  # pair
        "JS JH 8D 8C 9S",  # two pair
        "7S 7H 7D 9C 10S",  # three of a kind
        "AS 7H 8D 9C 10S",  # straight (the lowest)
        "QS QH QD 9C 9S",  # full house
        "AH 8H 10H JH QH",  # flush
        "8S 8H 8D 8C 9S",  # four of a kind
        "7S 8S 9S 10S JS",  # straight flush
    ]
    keys = [key(h) for h in ordered]
    assert [k[0] for k in keys] == list(range(9))
    assert keys == sorted(keys)


def test_poker_3_the_ace_is_low_just_below_the_lowest_rank() -> None:
    assert poker_hands.hand_key(["AS", "9H", "10D", "JC", "QS"], 9)[0] == poker_hands.STRAIGHT
    assert key("AS 9H 10D JC QS")[0] == poker_hands.HIGH_CARD  # 4 players: 7 is lowest
    assert key("10S JH QD KC AS")[0] == poker_hands.STRAIGHT  # and high


def test_poker_4_groups_then_kickers_then_the_suit_of_the_top_group() -> None:
    assert key("QS QH AD 8C 7S") > key("QD QC KD 10C 9S")  # kicker ace over king
    assert key("9S 9H 8D 8C AS") > key("9D 9C 8S 8H KS")
    assert key("AH 8H 10H JH QH") < key("AS 9S 10S JS QS")  # flush: ranks before suits
    assert key("AS 9S 10S JS QS") < key("AH 9H 10H JH QH")  # then the suit: hearts best
    assert key("KH KC 9S 8S 7S") > key("KD KS 9H 8H 7H")  # hearts in the pair


@settings(max_examples=300, deadline=None)
@given(st.permutations(poker_hands.deck(4)))
def test_poker_4_two_hands_never_tie(cards: list[str]) -> None:
    mine, theirs = cards[:5], cards[5:10]
    assert key(" ".join(mine)) != key(" ".join(theirs))


# -- POKER-5, 6: opening, the blind and the first round --------------------------------


def test_poker_5_opening_needs_a_pair_of_jacks() -> None:
    state = table(
        {3: "10S 10H 7D 8C AS", 2: "JS JH 7S 8D 9C", 1: "QS KH 9D 7C 8H", 0: "AH AD 9S KD QD"}
    )
    assert all(a.kind is not ActionKind.BET for a in GAME.legal_actions(state, 3))
    with pytest.raises(RuleError, match="pair of jacks"):
        GAME.apply(state, 3, bet(2))
    state, _ = play(state, (3, CHECK))
    assert bet(2) in GAME.legal_actions(state, 2)
    assert GAME.view(state, 2).private["may_open"] is True


def test_poker_5_the_buiante_may_open_blind_before_seeing_a_card() -> None:
    state = GAME.new_game(None, 4, b"blind")
    buiante = (state.dealer - 1) % 4
    assert state.phase == BLIND and GAME.to_act(state) == {buiante}
    assert GAME.view(state, buiante).hand == () and GAME.view(state, 0).hand == ()
    assert GAME.legal_actions(state, buiante) == [CHECK, bet(2)]
    state, events = play(state, (buiante, bet(2)))
    assert state.opener == buiante and state.blind and state.phase == FIRST
    nxt = (buiante - 1) % 4
    kinds = {a.kind for a in GAME.legal_actions(state, nxt)}
    assert kinds == {ActionKind.CALL_BET, ActionKind.RAISE, ActionKind.FOLD}
    assert events[0] == {"type": "blind", "seat": buiante, "opens": True}


def test_poker_5_no_blind_unless_jacks_open() -> None:
    hands = {3: "10S 10H 7D 8C AS", 2: "9S 9H 7S 8D 10C", 1: "QS KH 9D 7C 8H", 0: "AH KD 9C JD QD"}
    state = table(hands, options={"blind": True})
    state, _ = play(state, (3, CHECK), (2, CHECK), (1, CHECK), (0, CHECK))
    assert state.minimum == 12 and state.phase == FIRST  # queens: no blind
    state = table(hands, options={"blind": True}, minimum=14)
    state, _ = play(state, (3, CHECK), (2, CHECK), (1, CHECK), (0, CHECK))
    assert state.minimum == 11 and state.phase == BLIND  # back to jacks: blind again


def test_poker_6_the_first_round_from_the_dealers_left() -> None:
    state = table(
        {3: "JS JH 7D 8C AS", 2: "10S 10H 7S 8D 9C", 1: "QS KH 9D 7C 8H", 0: "AH AD 9S KD QD"}
    )
    assert GAME.to_act(state) == {3}
    before = {a.kind for a in GAME.legal_actions(state, 3)}
    assert before == {ActionKind.CHECK, ActionKind.BET, ActionKind.FOLD}  # busso, punto, passo
    state, _ = play(state, (3, bet(2)))
    after = {a.kind for a in GAME.legal_actions(state, 2)}
    assert after == {ActionKind.CALL_BET, ActionKind.RAISE, ActionKind.FOLD}  # vedo, rilancio
    with pytest.raises(NotYourTurn):
        GAME.apply(state, 1, CALL)


# -- POKER-7: bet sizes, all-in, side pots ---------------------------------------------


def test_poker_7_bets_from_the_minimum_to_the_pot_and_raises_by_the_last_increase() -> None:
    state = table(
        {3: "JS JH 7D 8C AS", 2: "10S 10H 7S 8D 9C", 1: "QS KH 9D 7C 8H", 0: "AH AD 9S KD QD"}
    )
    bets = [a.amount for a in GAME.legal_actions(state, 3) if a.kind is ActionKind.BET]
    assert bets == [2, 3, 4]  # min_bet 2, the pot is 4
    state, _ = play(state, (3, bet(4)))  # pot 8
    raises = [a.amount for a in GAME.legal_actions(state, 2) if a.kind is ActionKind.RAISE]
    assert raises == list(range(4, 13))  # at least the last increase; after calling 4, pot 12
    state, _ = play(state, (2, raise_by(5)))  # puts 9: pot 17
    raises = [a.amount for a in GAME.legal_actions(state, 1) if a.kind is ActionKind.RAISE]
    assert raises[0] == 5 and raises[-1] == 17 + 9
    with pytest.raises(RuleError, match="raise from 5 to 26"):
        GAME.apply(state, 1, raise_by(4))


def test_poker_7_the_round_ends_when_all_have_matched_and_a_lone_player_takes_the_pot() -> None:
    state = table(
        {3: "JS JH 7D 8C AS", 2: "10S 10H 7S 8D 9C", 1: "QS KH 9D 7C 8H", 0: "AH AD 9S KD QD"}
    )
    state, _ = play(state, (3, bet(2)), (2, CALL), (1, FOLD), (0, CALL))
    assert state.phase == CHANGE and state.pot == 4 + 6
    state = table(
        {3: "JS JH 7D 8C AS", 2: "10S 10H 7S 8D 9C", 1: "QS KH 9D 7C 8H", 0: "AH AD 9S KD QD"}
    )
    state, events = play(state, (3, bet(3)), (2, FOLD), (1, FOLD), (0, FOLD))
    assert {"type": "pot_won", "seat": 3, "chips": 7, "shown": False} in events
    assert state.chips[3] == 99 - 3 + 7 - 1 and state.hand_no == 2  # the next ante is in


def test_poker_7_a_short_stack_goes_all_in_and_wins_only_the_main_pot() -> None:
    hands = {3: "JS JH 7D 8C AS", 2: "AH AD AC KD QD", 1: "QS KH 9D 7C 8H", 0: "KS KC 9S 9H 10D"}
    state = table(hands, chips=(99, 99, 99, 5))
    state, _ = play(state, (3, bet(4)), (2, CALL), (1, FOLD), (0, CALL))
    assert state.chips[3] == 1
    state = change(state, 3, 2, 0)
    assert state.phase == SECOND and GAME.to_act(state) == {3}  # the opener speaks first
    state, events = play(state, (3, bet(1)))
    assert events[0]["all_in"] and GAME.view(state, None).public["all_in"][3]
    assert any(a.kind is ActionKind.RAISE for a in GAME.legal_actions(state, 2))
    state, _ = play(state, (2, raise_by(10)), (0, CALL))
    assert state.in_match[3] is False and state.hand_no == 2  # broke, the match goes on
    pots = state.last_hand["pots"] if state.last_hand else []
    # seat 3 (6 in, all-in) can win only 6 from each live seat, plus the folded ante
    assert pots[0] == {"chips": 6 * 3 + 1, "eligible": [0, 2, 3], "winner": 2}
    assert pots[1] == {"chips": 10 * 2, "eligible": [0, 2], "winner": 2}


@settings(max_examples=200, deadline=None)
@given(
    st.lists(st.integers(0, 50), min_size=2, max_size=6),
    st.lists(st.booleans(), min_size=6, max_size=6),
    st.integers(0, 20),
)
def test_poker_7_side_pots_pay_out_every_chip(
    puts: list[int], folds: list[bool], dead: int
) -> None:
    folded = folds[: len(puts)]
    if all(folded):
        folded[0] = False
    pots = side_pots(puts, folded, dead)
    assert sum(p.chips for p in pots) == sum(puts) + dead
    for pot in pots:
        assert pot.eligible and all(not folded[s] for s in pot.eligible)
    levels = [min(puts[s] for s in p.eligible) for p in pots]
    assert levels == sorted(levels)


# -- POKER-8: nobody opens ---------------------------------------------------------------


def test_poker_8_nobody_opens_the_pot_stays_and_the_minimum_rises() -> None:
    state = table(
        {3: "10S 10H 7D 8C AS", 2: "9S 9H 7S 8D 10C", 1: "QS KH 9D 7C 8H", 0: "AH KD 9C JD QD"}
    )
    state, events = play(state, (3, CHECK), (2, CHECK), (1, CHECK), (0, CHECK))
    assert {"type": "no_opening", "pot": 4, "minimum": 12} in events
    assert state.pot == 8 and state.minimum == 12 and state.hand_no == 1
    assert state.dealer == 3 and state.phase == FIRST  # the deal passes, no blind with queens


# -- POKER-9: the change ---------------------------------------------------------------


def test_poker_9_the_change_from_the_dealers_left_and_openers_never_shown() -> None:
    state = table(
        {3: "JS JH 7D 8C AS", 2: "10S 10H 7S 8D 9C", 1: "QS KH 9D 7C 8H", 0: "AH AD 9S KD QD"}
    )
    state, _ = play(state, (3, bet(2)), (2, CALL), (1, CALL), (0, CALL))
    assert state.to_change == (3, 2, 1, 0)
    assert len(GAME.legal_actions(state, 3)) == 1 + 5 + 10 + 10 + 5  # 0 to 4 cards
    top = state.stock[:2]
    state, events = play(state, (3, Action(ActionKind.DISCARD, cards=("JH", "8C"))))  # splits
    assert events[0]["drawn"] == list(top) and set(top) <= set(state.hands[3])
    assert "JH" not in json.dumps(GAME.view(state, 2).to_dict())
    assert GAME.view(state, None).public["changed"][3] == 2
    with pytest.raises(RuleError, match="at most 4"):
        GAME.apply(state, 2, Action(ActionKind.DISCARD, cards=tuple(state.hands[2])))


def test_poker_9_a_short_stock_takes_back_the_earlier_discards() -> None:
    state = table(
        {3: "JS JH 7D 8C AS", 2: "10S 10H 7S 8D 9C", 1: "QS KH 9D 7C 8H", 0: "AH AD 9S KD QD"}
    )
    state, _ = play(state, (3, bet(2)), (2, CALL), (1, CALL), (0, CALL))
    state = replace(state, stock=state.stock[:3], discards=(*state.discards, *state.stock[3:]))
    state, _ = play(state, (3, Action(ActionKind.DISCARD, cards=("JH", "7D", "8C", "AS"))))
    assert len(state.hands[3]) == 5 and not set(state.hands[3]) & {"7D", "8C", "AS", "JH"}


# -- POKER-10: the second round and the showdown ------------------------------------------


def test_poker_10_parola_stands_only_if_everyone_says_it() -> None:
    state = table(
        {3: "JS JH 7D 8C AS", 2: "10S 10H 7S 8D 9C", 1: "QS KH 9D 7C 8H", 0: "AH AD 9S KD QD"}
    )
    state, _ = play(state, (3, bet(2)), (2, CALL), (1, FOLD), (0, CALL))
    state = change(state, 3, 2, 0)
    assert state.turn == 3
    state, _ = play(state, (3, CHECK), (2, bet(2)))
    kinds = {a.kind for a in GAME.legal_actions(state, 0)}
    assert kinds == {ActionKind.CALL_BET, ActionKind.RAISE, ActionKind.FOLD}
    state, _ = play(state, (0, CALL))
    assert GAME.to_act(state) == {3}  # who said parola must now see, raise or pass
    state, events = play(state, (3, CALL))
    showdown = next(e for e in events if e["type"] == "showdown")
    assert showdown["pots"][0]["winner"] == 0  # aces
    assert state.last_hand is not None and state.last_hand["shown"]["0"] == "pair of aces"


# -- POKER-11: the match ------------------------------------------------------------------


def test_poker_11_the_match_ends_after_the_hands_and_the_broke_rank_by_when() -> None:
    hands = {3: "JS JH 7D 8C AS", 2: "AH AD AC KD QD", 1: "QS KH 9D 7C 8H", 0: "KS KC 9S 9H 10D"}
    state = table(hands, chips=(99, 99, 99, 3), options={"hands": 1})
    state, _ = play(state, (3, bet(3)), (2, CALL), (1, FOLD), (0, FOLD))
    state = change(state, 3, 2)
    assert state.phase == OVER
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.detail["reason"] == "hands"
    assert state.in_match[3] is False and outcome.places[3] == 4 and outcome.places[2] == 1
    assert outcome.places[0] == outcome.places[1] == 2  # 99 each, a shared place


def test_poker_11_earlier_broke_ranks_below_later_broke() -> None:
    state = replace(
        table({3: "JS JH 7D 8C AS", 2: "AH AD AC KD QD"}),
        phase=OVER,
        chips=(0, 0, 300, 0),
        in_match=(False, False, True, False),
        broke_at=(2, 5, 0, 5),
    )
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.places == (4, 2, 1, 2)


# -- Fixture 25 ---------------------------------------------------------------------------


def showdown_winner(hands: dict[int, str]) -> int:
    """Seat 3 opens, seat 2 calls, both stand pat and check: who wins at the showdown."""
    state = table(hands)
    state, _ = play(state, (3, bet(2)), (2, CALL))
    state, events = play(change(state, 3, 2), (3, CHECK), (2, CHECK))
    (showdown,) = [e for e in events if e["type"] == "showdown"]
    return int(showdown["pots"][0]["winner"])


def test_poker_fixture_25_short_deck_ranks_and_the_rising_minimum() -> None:
    # A-7-8-9-10 is the lowest straight: it beats three aces, loses to 7-8-9-10-J.
    assert showdown_winner({3: "AS 7H 8D 9C 10S", 2: "AH AD AC KD QD"}) == 3
    assert showdown_winner({3: "AS 7H 8D 9C 10S", 2: "7S 8H 9D 10C JD"}) == 2
    # A flush beats a full house.
    assert showdown_winner({3: "QS QH QD 9C 9S", 2: "7H 8H 10H JH KH"}) == 2
    # K♥K♣ 9 8 7 beats K♦K♠ 9 8 7.
    assert showdown_winner({3: "KD KS 9D 8D 7D", 2: "KH KC 9H 8H 7H"}) == 2
    assert showdown_winner({3: "KH KC 9S 8S 7S", 2: "KD KS 9H 8C 7H"}) == 3
    # Three deals without an opening raise the minimum through QQ and KK to AA.
    state = GAME.new_game({"blind": False}, 4, b"fixture 25")
    minimums = [state.minimum]
    while len(minimums) < 4:
        for seat in state.clockwise(state.buiante()):
            state = replace(
                state,
                hands=tuple(
                    ("7S", "8H", "9D", "JC", "KS") if s == seat else h
                    for s, h in enumerate(state.hands)
                ),
            )
            state, _ = play(state, (seat, CHECK))
        minimums.append(state.minimum)
    assert minimums == [11, 12, 13, 14]
    assert state.hand_no == 1 and state.pot == 16  # the pot stays: four antes of 4


# -- options, refusals, timeouts, secrecy -----------------------------------------------------


def test_options_are_checked_with_their_names() -> None:
    with pytest.raises(InvalidOptions, match="'blind' must be one of true, false, not 'maybe'"):
        GAME.new_game({"blind": "maybe"}, 4, b"x")
    with pytest.raises(InvalidOptions, match="'min_bet'"):
        GAME.new_game({"min_bet": 0}, 4, b"x")
    with pytest.raises(InvalidOptions, match="2 to 6 players"):
        GAME.new_game(None, 7, b"x")
    assert GAME.options()["starting_stack"] == 100 and GAME.options()["hands"] == 20


def test_timeouts_risk_no_chips() -> None:
    state = GAME.new_game(None, 4, b"timeouts")
    (timer,) = GAME.timers(state)
    state, events = GAME.apply(state, timer.seat, Action(ActionKind.EXPIRE, timer=timer.key))
    assert events[0]["default"] == {"kind": "check"} and state.phase == FIRST
    state = table(
        {3: "JS JH 7D 8C AS", 2: "10S 10H 7S 8D 9C", 1: "QS KH 9D 7C 8H", 0: "AH AD 9S KD QD"}
    )
    state, _ = play(state, (3, bet(2)))
    (timer,) = GAME.timers(state)
    state, events = GAME.apply(state, 2, Action(ActionKind.EXPIRE, timer=timer.key))
    assert events[0]["default"] == {"kind": "fold"}


def test_a_folded_hand_is_never_shown() -> None:
    state = table(
        {3: "JS JH 7D 8C AS", 2: "10S 10H 7S 8D 9C", 1: "QS KH 9D 7C 8H", 0: "AH AD 9S KD QD"}
    )
    state, _ = play(state, (3, bet(2)), (2, FOLD), (1, CALL), (0, FOLD))
    folded = {"10S", "10H", "7S", "8D", "9C", "AH", "AD", "9S", "KD", "QD"}
    for seat in (None, 0, 1, 2, 3):
        view = GAME.view(state, seat)
        assert not folded & set(json.dumps(view.public).split('"'))
        assert seat not in (0, 2) or view.hand == ()
    state, _ = play(change(state, 3, 1), (3, CHECK), (1, CHECK))
    assert state.last_hand is not None and set(state.last_hand["shown"]) == {"3", "1"}
    assert not folded & set(json.dumps(state.last_hand).split('"'))


def test_bet_amounts_are_refused_outside_their_range() -> None:
    state = table({3: "JS JH 7D 8C AS"})
    assert poker_betting.bet_range(4, 99, 2) == (2, 4)
    with pytest.raises(RuleError, match="bet from 2 to"):
        GAME.apply(state, 3, bet(50))


@settings(max_examples=15, deadline=None)
@given(st.binary(min_size=1, max_size=8), st.integers(2, 6), st.randoms(use_true_random=False))
def test_poker_7_apply_accepts_exactly_the_listed_amounts_and_changes(
    seed: bytes, seats: int, chooser: Any
) -> None:
    """``apply`` checks an action without listing them all; it must agree with the list."""
    state = GAME.new_game({"starting_stack": 30}, seats, seed)
    for _ in range(40):
        if GAME.outcome(state) is not None:
            break
        (seat,) = GAME.to_act(state)
        legal = GAME.legal_actions(state, seat)
        hand = state.hands[seat]
        tries = [
            Action(kind, amount=n)
            for kind in (ActionKind.BET, ActionKind.RAISE)
            for n in range(-1, 70)
        ]
        tries += [
            CHECK,
            CALL,
            FOLD,
            Action(ActionKind.CHECK, amount=2),
            Action(ActionKind.FOLD, cards=hand[:1]),
        ]
        tries += [
            Action(ActionKind.DISCARD, cards=tuple(chooser.sample(hand, k)))
            for k in range(6)
            if k <= len(hand)
        ]
        for action in tries:
            assert poker_legal.is_legal(state, seat, action) == (action in legal), action
        state, _ = GAME.apply(state, seat, chooser.choice(legal))
