"""Scala 40's rules (RULES §13), one scenario per rule ID, and fixture 24."""

from __future__ import annotations

import dataclasses

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import InvalidOptions, RuleError
from tavolo.cardgames.games.rummy.deck import JOKER
from tavolo.cardgames.games.rummy.scala40_scoring import hand_penalty, meld_value
from tavolo.cardgames.games.rummy.scala40_state import DRAW, OVER, PLAY, deal
from tavolo.cardgames.rng import SeededRandom
from tests.unit.cardgames.scala40_table import GAME, act, meld, table

A = ActionKind


def refused(state: object, seat: int, action: Action, reason: str) -> None:
    with pytest.raises(RuleError, match=reason):
        GAME.apply(state, seat, action)


def test_scala40_1_deal_and_a_joker_turned_up_goes_under_the_stock() -> None:
    """SCALA40-1: 13 each, one card up to start the pozzo; a joker turned up goes to
    the bottom of the stock and the next card is turned."""
    for seats in (2, 6):
        state = GAME.new_game({}, seats, b"deal")
        assert [len(h) for h in state.hands] == [13] * seats
        assert len(state.pozzo) == 1 and len(state.stock) == 108 - 13 * seats - 1
        assert state.turn == (state.dealer + 1) % seats and state.phase == DRAW
    seed = next(bytes([n]) for n in range(256) if _turned_joker(SeededRandom(bytes([n]))))
    _, stock, pozzo = deal(SeededRandom(seed), (0, 1), 2)
    assert pozzo[0] != JOKER and stock[-1] == JOKER


def _turned_joker(rng: SeededRandom) -> bool:
    from tavolo.cardgames.games.rummy.deck import full_deck

    deck = full_deck()
    rng.shuffle(deck)
    return deck[26] == JOKER


def test_scala40_2_the_pozzo_card_only_to_open_with_it() -> None:
    """SCALA40-2: an unopened player takes the pozzo card only to open with it this turn;
    taking it back returns it and draws from the stock instead."""
    hand = ["10H", "JH", "4C", "5C", "7C", "9S", "9D", "9C", "2D", "3S", "7D", "KS", "8H"]
    state = table([hand, ["4H", "4H"]], pozzo=["3C", "QH"], phase=DRAW)
    taken, _ = act(state, 0, A.TAKE_DISCARD)
    assert taken.taken == "QH" and taken.pozzo == ("3C",)
    refused(taken, 0, Action(A.DISCARD, cards=("4C",)), "open with Q♥")
    melded, _ = act(taken, 0, A.MELD, "10H", "JH", "QH")  # 30: not yet an opening
    refused(melded, 0, Action(A.DISCARD, cards=("4C",)), "worth 30: an opening needs 40")
    back, events = act(melded, 0, A.PASS)
    assert [e["type"] for e in events] == ["opening_taken_back", "pozzo_card_returned", "drew"]
    assert back.pozzo == ("3C", "QH") and back.melds == () and len(back.hands[0]) == 14
    more, _ = act(melded, 0, A.MELD, "9S", "9D", "9C")  # 30 + 27
    after, events = act(more, 0, A.DISCARD, "4C")
    assert events[0] == {"type": "opened", "seat": 0, "worth": 57}
    assert after.opened[0] and after.turn == 1


def test_scala40_2_the_stock_is_rebuilt_from_the_pozzo() -> None:
    """SCALA40-2: when the stock runs out, the pozzo but its top is shuffled into it."""
    state = table([["4C", "9D"], ["4H", "5H"]], pozzo=["3C", "QH", "7D"], phase=DRAW)
    rest = state.stock
    state = state.replace(stock=(), pozzo=(*rest, "3C", "QH", "7D"))
    after, events = act(state, 0, A.DRAW)
    assert events[0] == {"type": "stock_rebuilt", "cards": len(rest) + 2}
    assert after.pozzo == ("7D",) and len(after.stock) == len(rest) + 1


def test_scala40_3_melds() -> None:
    """SCALA40-3: a sequence with the ace low or high, never in the middle; a combination
    of 3 or 4 in different suits; one joker at most."""
    hand = ["AH", "2H", "3H", "QS", "KS", "AS", "5C", "5D", "5S", "5H", "5C", "JK", "JK"]
    state = table([hand, ["4D"]], opened=(True, False))
    for cards in (("AH", "2H", "3H"), ("QS", "KS", "AS"), ("5S", "5H", "5D", "5C")):
        act(state, 0, A.MELD, *cards)
    refused(state, 0, Action(A.MELD, cards=("KS", "AS", "2S")), "stops at the ace")
    refused(state, 0, Action(A.MELD, cards=("5S", "5D", "5C", "5C")), "one card of each suit")
    refused(state, 0, Action(A.MELD, cards=("5S", "5H", "5D", "5C", "JK")), "at most 4")
    refused(state, 0, Action(A.MELD, cards=("5S", "JK", "JK")), "at most one wild")
    refused(state, 0, Action(A.MELD, cards=("2H", "JK", "4C")), "one suit")


def test_scala40_4_opening_of_40_and_its_values() -> None:
    """SCALA40-4: the first melding turn lays 40 or more; the ace is 1 low, 11 high; a
    joker is worth the card it stands for."""
    assert meld_value(meld("AH", "2H", "3H")) == 6
    assert meld_value(meld("QS", "KS", "AS")) == 31
    assert meld_value(meld("AS", "AH", "AD")) == 33
    assert meld_value(meld("9H", "JK", "JH")) == 29
    hand = ["QS", "KS", "AS", "9H", "JK", "JH", "4C", "7D", "8D", "2C", "3C", "5S", "6S", "9C"]
    state = table([hand, ["4D"]], turns_done=0)
    one, _ = act(state, 0, A.MELD, "QS", "KS", "AS")
    refused(one, 0, Action(A.DISCARD, cards=("4C",)), "worth 31")
    two, _ = act(one, 0, A.MELD, "9H", "JK", "JH")
    after, events = act(two, 0, A.DISCARD, "4C")
    assert events[0] == {"type": "opened", "seat": 0, "worth": 60}
    assert after.opened == (True, False) and after.pending == 0


def test_scala40_5_attach_anywhere_and_keep_a_swapped_joker() -> None:
    """SCALA40-5: once open, add to any meld on the table and swap a joker for the card
    it stands for, keeping the joker; ``no_attachable_discard`` forbids feeding."""
    theirs = meld("9H", "JK", "JH")
    state = table([["10H", "QH", "4C", "7D"], ["4D"]], melds=[(1, theirs)], opened=(True, True))
    swap, events = act(state, 0, A.ATTACH, "10H", meld=0)
    assert swap.melds[0][1].cards == ("9H", "10H", "JH") and JOKER in swap.hands[0]
    assert events[0]["joker_back"] is True
    closed_state = table([["4C"], ["4D"]], opened=(False, True))
    refused(closed_state, 0, Action(A.ATTACH, cards=("4C",), meld=0), "once you have opened")
    strict = table(
        [["QH", "4C", "7D"], ["4D"]],
        melds=[(1, meld("9H", "10H", "JH"))],
        opened=(True, True),
        options={"no_attachable_discard": True},
    )
    refused(strict, 0, Action(A.DISCARD, cards=("QH",)), "could be added to a meld")
    act(strict, 0, A.DISCARD, "4C")
    loose = strict.replace(options=dataclasses.replace(strict.options, no_attachable_discard=False))
    act(loose, 0, A.DISCARD, "QH")


def test_scala40_6_no_closing_in_the_first_round_and_chiusura_in_mano() -> None:
    """SCALA40-6: you close by discarding your last card, never in the first round; a
    player who never opened may lay the whole hand at once, under 40."""
    first = table([["4C", "5C", "6C", "9D"], ["4D"]], opened=(True, False), turns_done=1)
    refused(first, 0, Action(A.MELD, cards=("4C", "5C", "6C")), "first round: keep two")
    later = first.replace(turns_done=2)
    ready, _ = act(later, 0, A.MELD, "4C", "5C", "6C")
    _, events = act(ready, 0, A.DISCARD, "9D")
    assert any(e["type"] == "closed" and e["in_mano"] is False for e in events)
    hand = ["AH", "2H", "3H", "4S", "4D", "4C", "9D"]
    mano = table([hand, ["4H", "KD"]], turns_done=5)
    a, _ = act(mano, 0, A.MELD, "AH", "2H", "3H")
    b, _ = act(a, 0, A.MELD, "4S", "4D", "4C")
    _after, events = act(b, 0, A.DISCARD, "9D")
    closed = next(e for e in events if e["type"] == "closed")
    assert closed["in_mano"] is True
    scored = next(e for e in events if e["type"] == "hand_scored")
    assert [p["points"] for p in scored["players"]] == [0, 100]


def test_scala40_7_fixture_24_penalties() -> None:
    """SCALA40-7, fixture 24: joker A♠ K♦ 7♣ is 53, a lone A♥ 1, never opened 100;
    after a chiusura in mano 106, 2, 100."""
    assert hand_penalty(["JK", "AS", "KD", "7C"], opened=True, in_mano=False) == 53
    assert hand_penalty(["AH"], opened=True, in_mano=False) == 1
    assert hand_penalty(["2C"] * 13, opened=False, in_mano=False) == 100
    assert hand_penalty(["JK", "AS", "KD", "7C"], opened=True, in_mano=True) == 106
    assert hand_penalty(["AH"], opened=True, in_mano=True) == 2
    assert hand_penalty(["2C"] * 13, opened=False, in_mano=True) == 100


def test_scala40_7_fixture_24_closing_in_the_first_round_is_rejected() -> None:
    """Fixture 24: a closing in the first round is rejected."""
    state = table([["9D", "KD"], ["4D"]], opened=(True, False), turns_done=1)
    state = state.replace(hands=(("9D",), state.hands[1]))
    refused(state, 0, Action(A.DISCARD, cards=("9D",)), "nobody may close in the first round")
    later = state.replace(turns_done=2)
    _after, events = act(later, 0, A.DISCARD, "9D")
    assert any(e["type"] == "closed" for e in events)


def test_scala40_8_elimination_and_places() -> None:
    """SCALA40-8: a total reaching the limit eliminates; the last one left wins; players
    rank in reverse order of elimination, the same hand by lower total."""
    assert GAME.options()["elimination"] == 101
    with pytest.raises(InvalidOptions, match="elimination"):
        GAME.options({"elimination": 150})
    with pytest.raises(InvalidOptions, match="match_length"):
        GAME.options({"match_length": "points:3"})
    state = table(
        [["9D"], ["KD", "KH"], ["QS", "5C"], ["4H"]],
        opened=(True, True, True, True),
        totals=(0, 90, 95, 10),
    )
    state = state.replace(alive=(True, True, True, False), out_order=((3,),))
    state = state.replace(hands=(("9D",), ("KD", "KH"), ("QS", "5C"), ()))
    after, _events = act(state, 0, A.DISCARD, "9D")
    assert after.phase == OVER
    assert after.totals == (0, 110, 110, 10)
    assert GAME.outcome(after).places == (1, 2, 2, 4)  # type: ignore[union-attr]


def test_scala40_8_hands_match_majority() -> None:
    """SCALA40-8: with hands:N the closer wins the hand; a majority wins the match."""
    state = table([["9D"], ["KD"]], opened=(True, True), options={"match_length": "hands:3"})
    state = state.replace(hands_won=(1, 0))
    after, _ = act(state, 0, A.DISCARD, "9D")
    assert after.phase == OVER and GAME.outcome(after).places == (1, 2)  # type: ignore[union-attr]
    state = state.replace(hands_won=(0, 1))
    after, _ = act(state, 0, A.DISCARD, "9D")
    assert after.phase == DRAW and after.hands_won == (1, 1) and after.hand_no == 2


def test_timer_defaults() -> None:
    """A timeout draws, takes back an unfinished opening, else discards the costliest card."""
    state = table([["9D", "KD", "JK", "2C"], ["4D"]], opened=(True, False), phase=DRAW)
    (timer,) = GAME.timers(state)
    after, events = GAME.apply(state, 0, Action(A.EXPIRE, timer=timer.key))
    assert events[1]["type"] == "drew" and after.phase == PLAY
    at_play = table([["9D", "KD", "JK", "2C"], ["4D"]], opened=(True, False))
    (timer,) = GAME.timers(at_play)
    after, events = GAME.apply(at_play, 0, Action(A.EXPIRE, timer=timer.key))
    assert events[1] == {"type": "discarded", "seat": 0, "card": "KD"}
