"""Burraco's rules (RULES §12), one scenario per rule ID, and the fixtures 21-23."""

from __future__ import annotations

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import InvalidOptions, RuleError
from tavolo.cardgames.games.rummy.burraco_scoring import burraco_kind, score_side
from tavolo.cardgames.games.rummy.burraco_state import DRAW, OVER, PLAY, deal
from tavolo.cardgames.games.rummy.deck import full_deck
from tavolo.cardgames.rng import SeededRandom
from tests.unit.cardgames.burraco_table import GAME, act, legal, meld, table

A = ActionKind


def refused(state: object, seat: int, action: Action, reason: str) -> None:
    with pytest.raises(RuleError, match=reason):
        GAME.apply(state, seat, action)


def test_burraco_1_deal_hands_pozzetti_up_card_and_stock() -> None:
    """BURRACO-1: 11 each from the top, two pozzetti of 11 alternately from the bottom,
    one card up, the rest the stock; the dealer's right plays first."""
    for seats, stock in ((2, 63), (4, 41)):
        state = GAME.new_game({}, seats, b"deal")
        assert [len(h) for h in state.hands] == [11] * seats
        assert [len(p) for p in state.pozzetti] == [11, 11]
        assert len(state.discard) == 1 and len(state.stock) == stock
        assert state.turn == (state.dealer + 1) % seats and state.phase == DRAW
    deck = full_deck()
    SeededRandom(b"order").shuffle(deck)
    hands, stock, up, pozzetti = deal(SeededRandom(b"order"), 2, dealer=1)
    assert sorted(hands[0]) == sorted(deck[0:22:2])  # seat 0 is on the dealer's right
    assert pozzetti[0] == (deck[-1], deck[-3], *deck[-5:-23:-2])
    assert pozzetti[1] == tuple(deck[-2:-23:-2])
    assert up == (deck[22],) and stock == tuple(deck[23:86])


def test_burraco_2_turn_draw_or_take_the_whole_pile() -> None:
    """BURRACO-2: draw or take the whole pile, meld, discard; a single taken discard may
    not go straight back."""
    state = table([["3C", "9D", "QS"], ["4H", "5H", "6H"]], discard=["7S", "8S"], phase=DRAW)
    assert legal(state) == [Action(A.DRAW), Action(A.TAKE_DISCARD)]
    refused(state, 0, Action(A.DISCARD, cards=("3C",)), "first draw")
    taken, _ = act(state, 0, A.TAKE_DISCARD)
    assert sorted(taken.hands[0]) == sorted(["3C", "9D", "QS", "7S", "8S"])
    assert taken.discard == () and taken.phase == PLAY
    refused(taken, 0, Action(A.DRAW), "already drawn")
    single = table([["3C", "9D", "QS"], ["4H"]], discard=["7S"], phase=DRAW)
    single, _ = act(single, 0, A.TAKE_DISCARD)
    refused(single, 0, Action(A.DISCARD, cards=("7S",)), "single discard you just took")
    after, _ = act(single, 0, A.DISCARD, "3C")
    assert after.turn == 1 and after.phase == DRAW and after.discard == ("3C",)


def test_burraco_3_sequences_and_combinations() -> None:
    """BURRACO-3: a sequence has one ace, low or high, up to A-K plus a wild above the K;
    a combination is 3 to 9 of one rank, never 2s; one combination per rank per side."""
    hand = ["AH", "2H", "3H", "QS", "KS", "AS", "5C", "5D", "5S", "9C"]
    state = table([hand, ["4H"]])
    for cards in (("AH", "2H", "3H"), ("QS", "KS", "AS"), ("5S", "5D", "5C")):
        assert Action(A.MELD, cards=cards) in legal(state)
        act(state, 0, A.MELD, *cards)
    refused(state, 0, Action(A.MELD, cards=("KS", "AS", "2H")), "stops at the ace")
    refused(state, 0, Action(A.MELD, cards=("5S", "5D", "9C")), "sequence|one suit|one rank")
    full = ("AH", "2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH", "JK")
    assert read_ok(full)
    twos = table([["2S", "2H", "2D", "2C", "9C"], ["4H"]])
    refused(twos, 0, Action(A.MELD, cards=("2S", "2H", "2D")), "wild")
    fives = table([["5H", "5C", "5S", "9C", "9D"], ["4H"]], melds=([meld("5S", "5D", "5C")], []))
    assert not any(a.kind is A.MELD for a in legal(fives))
    refused(fives, 0, Action(A.MELD, cards=("5S", "5H", "5C")), "already has a combination of 5s")


def read_ok(cards: tuple[str, ...]) -> bool:
    from tavolo.cardgames.games.rummy.melds import BURRACO_MELDS, Meld, read_meld

    return isinstance(read_meld(cards, BURRACO_MELDS), Meld)


def test_burraco_4_one_wild_and_replacing_it() -> None:
    """BURRACO-4: at most one wild, never wilds only; a wild replaced in a sequence moves
    to an end of the same meld, not back to the hand."""
    state = table([["5H", "JK", "2C", "7H", "8H", "9C"], ["4H"]])
    refused(state, 0, Action(A.MELD, cards=("5H", "JK", "7H", "2C")), "at most one wild")
    refused(state, 0, Action(A.MELD, cards=("JK", "2C", "JK")), "wild")
    run = meld("5H", "JK", "7H")
    state = table([["6H", "9C", "KD"], ["4H"]], melds=([run], []))
    after, events = act(state, 0, A.ATTACH, "6H", meld=0)
    assert after.melds[0][0].cards == ("5H", "6H", "7H", "JK")
    assert after.melds[0][0].stands_for() == "8H" and "JK" not in after.hands[0]
    assert events[0]["shown"] == "5♥ 6♥ 7♥ joker(8♥)"


def test_burraco_4_a_wild_in_place_of_a_held_natural_is_listed() -> None:
    """BURRACO-4: legal_actions lists a wild inside a run in place of a natural the hand
    holds, and the rules accept it; a broken run is refused with its reason."""
    state = table([["5H", "6H", "7H", "JK", "9C", "KD"], ["4H"]])
    inside = Action(A.MELD, cards=("5H", "JK", "7H"))
    assert inside in legal(state)
    after, _ = GAME.apply(state, 0, inside)
    assert after.melds[0][0].stands_for() == "6H"
    refused(
        state,
        0,
        Action(A.MELD, cards=("5H", "7H", "9C")),
        "a run is of one suit|skips",
    )
    gap = table([["7H", "9H", "10H", "KD", "3C"], ["4H"]])
    refused(
        gap,
        0,
        Action(A.MELD, cards=("7H", "9H", "10H")),
        "a run needs 3 cards of one suit in sequence; 7♥ 9♥ skips 8♥",
    )


def test_burraco_5_pulito_semipulito_sporco_fixture_23() -> None:
    """BURRACO-5 and fixture 23: 5♥-J♥ with 2♣ as Q♥ is 150 (100 with the option off);
    5♥ 6♥ 2♣(7♥) 8♥-Q♥ is 100; no wild is 200."""
    semi = meld("5H", "6H", "7H", "8H", "9H", "10H", "JH", "2C")
    dirty = meld("5H", "6H", "2C", "8H", "9H", "10H", "JH", "QH")
    clean = meld("5H", "6H", "7H", "8H", "9H", "10H", "JH")
    assert semi.stands_for() == "QH" and dirty.stands_for() == "7H"
    bonus = {True: [], False: []}  # type: dict[bool, list[int]]
    for option in (True, False):
        for m in (semi, dirty, clean):
            s = score_side([m], [], closed=False, took_pozzetto=True, semipulito=option)
            bonus[option].append(s.burraco_bonus)
    assert bonus[True] == [150, 100, 200]
    assert bonus[False] == [100, 100, 200]
    assert burraco_kind(meld("5H", "6H", "7H"), True) is None
    seven_kings = meld("KS", "KS", "KH", "KH", "KD", "KD", "KC", "JK")
    assert burraco_kind(seven_kings, True) == "semipulito"


def test_burraco_6_pozzetto_al_volo_and_con_scarto() -> None:
    """BURRACO-6: melding the last cards takes the pozzetto and the turn goes on;
    discarding the last card takes it for the next turn; once per side."""
    state = table([["5H", "6H", "7H"], ["4C", "9D"]])
    after, events = act(state, 0, A.MELD, "5H", "6H", "7H")
    assert len(after.hands[0]) == 11 and after.took_pozzetto == (True, False)
    assert after.turn == 0 and after.phase == PLAY
    assert events[-1] == {"type": "pozzetto_taken", "seat": 0, "side": 0, "how": "al_volo"}
    scarto = table([["5H"], ["4C", "9D"]])
    after, events = act(scarto, 0, A.DISCARD, "5H")
    assert events[-1]["how"] == "con_scarto" and after.turn == 1
    assert len(after.hands[0]) == 11 and after.pozzetti[0] == ()
    done = table([["5H", "6H", "7H", "9C"], ["4C"]], took_pozzetto=(True, False))
    refused(done, 0, Action(A.MELD, cards=("5H", "6H", "7H")), "burraco")


def test_burraco_7_closing_needs_the_pozzetto_and_a_burraco() -> None:
    """BURRACO-7: the closer discards the last card, never a wild, once the side has its
    pozzetto and a burraco; otherwise a hand empties only into the pozzetto."""
    long_run = meld("5H", "6H", "7H", "8H", "9H", "10H", "JH")
    no_burraco = table(
        [["9C"], ["4C"]], took_pozzetto=(True, False), melds=([meld("5H", "6H", "7H")], [])
    )
    refused(no_burraco, 0, Action(A.DISCARD, cards=("9C",)), "burraco")
    wild = table([["JK"], ["4C"]], took_pozzetto=(True, False), melds=([long_run], []))
    refused(wild, 0, Action(A.DISCARD, cards=("JK",)), "may not close on a wild")
    closing = table([["9C"], ["4C", "KD"]], took_pozzetto=(True, False), melds=([long_run], []))
    _after, events = act(closing, 0, A.DISCARD, "9C")
    scored = next(e for e in events if e["type"] == "hand_scored")
    assert scored["closed_by"] == 0
    assert scored["sides"][0]["closing"] == 100
    assert scored["sides"][1]["in_hand"] == 15 and scored["sides"][1]["no_pozzetto"] == 100


def test_burraco_8_two_cards_left_in_the_stock_end_the_hand() -> None:
    """BURRACO-8: the draw that leaves 2 in the stock ends the hand after the discard,
    with no closing bonus."""
    state = table([["9C", "4D"], ["4C", "KD"]], phase=DRAW, stock_size=3)
    after, events = act(state, 0, A.DRAW)
    assert after.last_turn and events[-1]["type"] == "stock_low"
    after, events = act(after, 0, A.DISCARD, "9C")
    scored = next(e for e in events if e["type"] == "hand_scored")
    assert scored["closed_by"] is None
    assert [s["closing"] for s in scored["sides"]] == [0, 0]
    assert after.hand_no == 2


def test_burraco_9_fixture_21_closing_side_scores_370() -> None:
    """BURRACO-9, fixture 21: pulito 5♥-J♥ (55 + 200), KKK (30), closing (+100), the
    partner's 9♣ 4♦ (-15): 370."""
    melds = [meld("5H", "6H", "7H", "8H", "9H", "10H", "JH"), meld("KS", "KH", "KD")]
    side = score_side(melds, [[], ["9C", "4D"]], closed=True, took_pozzetto=True, semipulito=True)
    assert (side.melded, side.burraco_bonus, side.closing, side.in_hand) == (85, 200, 100, 15)
    assert side.total == 370


def test_burraco_9_fixture_22_side_without_its_pozzetto_scores_5() -> None:
    """BURRACO-9, fixture 22: sporco 7♠-Q♠ with a joker as K♠ (85 + 100), no pozzetto
    (-100), hands A♥ 2♣ (-35) and 5♠ K♥ joker (-45): 5."""
    sporco = meld("7S", "8S", "9S", "10S", "JS", "QS", "JK")
    assert sporco.stands_for() == "KS"
    side = score_side(
        [sporco],
        [["AH", "2C"], ["5S", "KH", "JK"]],
        closed=False,
        took_pozzetto=False,
        semipulito=True,
    )
    assert (side.melded, side.burraco_bonus, side.in_hand, side.no_pozzetto) == (85, 100, 80, 100)
    assert side.total == 5


def test_burraco_9_a_whole_hand_scores_both_sides_by_the_rules() -> None:
    """BURRACO-9: the end of a played hand scores fixture 21 for the closing side."""
    melds = [meld("5H", "6H", "7H", "8H", "9H", "10H", "JH"), meld("KS", "KH", "KD")]
    state = table(
        [["3S"], ["4C"], ["9C", "4D"], ["QD"]],
        melds=(melds, []),
        took_pozzetto=(True, False),
    )
    after, events = act(state, 0, A.DISCARD, "3S")
    scored = next(e for e in events if e["type"] == "hand_scored")
    assert scored["sides"][0]["total"] == 370
    assert scored["sides"][1]["total"] == -5 - 10 - 100
    assert after.totals == (370, -115)


def test_burraco_10_match_length_and_ties() -> None:
    """BURRACO-10: points:2005 by default or hands:N; past the target the higher total
    wins; a tie plays another hand whose points decide but do not count."""
    assert GAME.options()["match_length"] == "points:2005"
    with pytest.raises(InvalidOptions, match="match_length"):
        GAME.options({"match_length": "rounds:3"})
    with pytest.raises(InvalidOptions, match="semipulito"):
        GAME.options({"semipulito": "maybe"})
    long_run = meld("5H", "6H", "7H", "8H", "9H", "10H", "JH")
    base = table([["9C"], ["4C"]], took_pozzetto=(True, True), melds=([long_run], []))
    win = base.replace(totals=(1800, 1900))
    after, _ = act(win, 0, A.DISCARD, "9C")  # +255 +100 -0 → 2155 against 1895
    assert after.phase == OVER and after.winner == 0
    assert GAME.outcome(after).places == (1, 2)  # type: ignore[union-attr]
    tied = base.replace(totals=(1900, 2250))  # 1900 + 355 = 2255 against 2250 - 5
    after, _ = act(tied, 0, A.DISCARD, "9C")
    assert after.totals == (2255, 2245) and after.winner == 0
    level = base.replace(totals=(1900, 2260))  # 2255 against 2255: another hand
    after, _ = act(level, 0, A.DISCARD, "9C")
    assert after.phase == DRAW and after.tiebreaks == 0 and after.totals == (2255, 2255)
    tb = table([["9C"], ["4C"]], took_pozzetto=(True, True), melds=([long_run], []))
    tb = tb.replace(totals=(2255, 2255), tiebreaks=0)
    after, _events = act(tb, 0, A.DISCARD, "9C")
    assert after.winner == 0 and after.totals == (2255, 2255) and after.end_reason == "tie_break"


def test_burraco_10_hands_match_and_three_drawn_tie_breaks() -> None:
    """BURRACO-10 with RULES 0.13-14: after three drawn tie-break hands the side that
    made the last play loses."""
    state = table([["9C", "4D"], ["4S"]], options={"match_length": "hands:1"})
    state = state.replace(totals=(0, 0), tiebreaks=2, last_turn=True)
    after, _events = act(state, 0, A.DISCARD, "9C")  # each side -5 in hand, -100 pozzetto
    assert after.phase == OVER and after.end_reason == "last_play" and after.winner == 1


def test_seats_timer_default_and_view() -> None:
    """Seats 2 or 4 (not 3); a timeout draws, then discards the cheapest card it may."""
    with pytest.raises(InvalidOptions, match="2 or 4 players"):
        GAME.new_game({}, 3, b"three")
    state = table([["9C", "4D", "JK"], ["4C"]], phase=DRAW)
    (timer,) = GAME.timers(state)
    after, events = GAME.apply(state, 0, Action(A.EXPIRE, timer=timer.key))
    assert events[0]["type"] == "timer_expired" and events[1]["type"] == "drew"
    (timer,) = GAME.timers(after)
    before_discard = after
    after, events = GAME.apply(after, 0, Action(A.EXPIRE, timer=timer.key))
    cheapest = events[1]["card"]
    assert cheapest != "JK" and cheapest in before_discard.hands[0]
    assert all(
        c == "JK" or GAME_POINTS(c) >= GAME_POINTS(cheapest) for c in before_discard.hands[0]
    )
    view = GAME.view(before_discard, 1)
    assert view.hand == before_discard.hands[1] and view.public["stock_size"] == len(
        before_discard.stock
    )


def GAME_POINTS(card: str) -> int:
    from tavolo.cardgames.games.rummy.burraco_scoring import card_points

    return card_points(card)
