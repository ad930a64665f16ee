"""The Spades bots do what SPADES-9 and SPADES-10 say, shown on hand-built tables.

Where a behaviour belongs to the hard level, the same table is given to the medium bot
too, and the two must differ: that is what makes the levels differ. Strength in numbers
is measured by ``bench/bench_bot_league.py``, not here.
"""

from __future__ import annotations

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.registry import bot_levels, make_bot
from tavolo.cardgames.bots.tricks.spades import SpadesBot
from tavolo.cardgames.bots.tricks.spades_bidding import (
    BidContext,
    easy_bid,
    estimate_tricks,
    hard_bid,
    medium_bid,
)
from tavolo.cardgames.bots.tricks.spades_memory import CardMemory
from tavolo.cardgames.games.tricks.spades_state import BID, SpadesState
from tests.unit.cardgames.test_spades_rules import GAME, table

WEAK = "2S 3S 2H 3H 4H 5H 2D 3D 4D 5D 2C 3C 4C"
STRONG = "AS KS 7S 5S AH KH 3H AD 4D 5D 9C 2C 3C"


def choice(bot: SpadesBot, state: SpadesState, seat: int) -> Action:
    return bot.choose(GAME.view(state, seat), GAME.legal_actions(state, seat))


def card_of(bot: SpadesBot, state: SpadesState, seat: int) -> str:
    return choice(bot, state, seat).cards[0]


def ctx(*bids: int | None) -> BidContext:
    return BidContext(seat=0, bids=tuple(bids))


# -- SPADES-9: the levels ------------------------------------------------------------------


def test_spades_9_three_levels_are_registered() -> None:
    assert bot_levels("spades") == ("easy", "medium", "hard")
    seated = make_bot("spades", "hard", "seat 2")
    assert isinstance(seated.bot, SpadesBot) and seated.bot.level == "hard"


def test_spades_9_easy_bid_is_the_seed_formula() -> None:
    # Non-spade aces and kings: AH, KH, AD, KC = 4. Spades 10 to ace: AS, 10S = 2.
    assert (
        easy_bid(["AS", "10S", "9S", "AH", "KH", "QH", "AD", "2D", "KC", "QC", "JC", "3C", "2C"])
        == 6
    )
    assert easy_bid(WEAK.split()) == 0  # which is a nil bid
    state = table(
        {1: "AS 10S 9S AH KH QH AD 2D KC QC JC 3C 2C"}, phase=BID, turn=1, bids=(None,) * 4
    )
    assert choice(SpadesBot("easy"), state, 1) == Action(ActionKind.BID, amount=6)


def test_spades_9_medium_estimates_extra_winners_and_losers() -> None:
    long_spades = ["2S", "3S", "4S", "5S", "6S", "7S", "2H", "3H", "4H", "2D", "3D", "4D", "2C"]
    assert easy_bid(long_spades) == 0
    assert estimate_tricks(long_spades) >= 1.5  # long trumps win once the others run out
    guarded_king = ["KH", "4H", "3H", "2H", "2D", "3D", "4D", "5D", "6D", "2C", "3C", "4C", "5C"]
    bare_king = ["KH", "2D", "3D", "4D", "5D", "6D", "7D", "2C", "3C", "4C", "5C", "6C", "7C"]
    assert estimate_tricks(guarded_king) > estimate_tricks(bare_king) + 0.3


def test_spades_9_medium_takes_the_other_bids_into_account() -> None:
    hand = STRONG.split()
    alone = medium_bid(hand, ctx(None, None, None, None))
    crowded = medium_bid(hand, ctx(None, 5, 4, 4))  # 13 already bid around the table
    assert crowded < alone


def test_spades_9_hard_remembers_cards_no_longer_on_view() -> None:
    # Trick 10: seat 1 cashes AH. Trick 11: seat 0 wins with AC. Trick 12: seat 0 leads.
    # The hard bot remembers AH is gone, so KH is the master; the medium bot sees only
    # trick 11 and the hand, and leads its low diamond instead.
    hands = {0: "KH 2H AC 3D", 1: "AH 9C 4D 5D", 2: "3H 4C 6D 7D", 3: "4H 5C 8D 9D"}
    script = {1: ["AH", "9C"], 3: ["4H", "5C"], 2: ["3H", "4C"]}
    leads = {}
    for level in ("hard", "medium"):
        bot = SpadesBot(level)
        state = table(hands, turn=1, bids=(4, 3, 3, 3), tricks_won=(2, 3, 2, 2))
        moves = {s: list(cards) for s, cards in script.items()}
        while state.tricks_done < 11:
            seat = state.turn
            card = card_of(bot, state, 0) if seat == 0 else moves[seat].pop(0)
            state = GAME.apply(state, seat, Action(ActionKind.PLAY, cards=(card,)))[0]
        assert state.turn == 0
        leads[level] = card_of(bot, state, 0)
    assert leads == {"hard": "KH", "medium": "3D"}


def test_spades_9_hard_memory_infers_voids_from_views() -> None:
    memory = CardMemory()
    state = table({0: "2H 3H", 3: "2C 4C", 2: "5H 6H", 1: "7H 8H"}, tricks_won=(3, 3, 3, 2))
    for seat, card in ((0, "2H"), (3, "2C"), (2, "5H"), (1, "7H")):
        state = GAME.apply(state, seat, Action(ActionKind.PLAY, cards=(card,)))[0]
    memory.observe(GAME.view(state, 0).public)
    assert memory.voids()[3] == {"H"}
    assert {"2H", "2C", "5H", "7H"} <= memory.played()


def test_spades_9_bots_decide_from_the_view_alone() -> None:
    # Two tables that differ only in cards seat 0 cannot see: the same choice.
    mine = "AH 2H 5D 9C"
    one = table({0: mine, 1: "KH 3D 4D 5C", 2: "QH 6D 7D 8C", 3: "JH 8D 9D 2C"})
    other = table({0: mine, 1: "JH 8D 9D 2C", 2: "KH 3D 4D 5C", 3: "QH 6D 7D 8C"})
    assert GAME.view(one, 0) == GAME.view(other, 0)
    for level in ("easy", "medium", "hard"):
        assert choice(SpadesBot(level), one, 0) == choice(SpadesBot(level), other, 0)


# -- SPADES-10: the seed's tips ------------------------------------------------------------


def test_spades_10_hard_bids_nil_on_a_hand_without_winners() -> None:
    assert hard_bid(WEAK.split(), ctx(None, None, None, None)) == 0


def test_spades_10_hard_never_bids_nil_holding_the_ace_of_spades() -> None:
    with_ace = WEAK.replace("2S", "AS").split()
    assert hard_bid(with_ace, ctx(None, None, None, None)) >= 1


def test_spades_10_hard_never_bids_nil_after_its_partner() -> None:
    assert hard_bid(WEAK.split(), ctx(None, 3, 0, None)) >= 1


def test_spades_10_hard_bids_lower_when_its_partner_bid_nil() -> None:
    hand = STRONG.split()
    assert hard_bid(hand, ctx(None, 3, 0, None)) < hard_bid(hand, ctx(None, 3, 3, None))


def test_spades_10_hard_bids_higher_when_an_opponent_bid_nil() -> None:
    hand = STRONG.split()
    assert hard_bid(hand, ctx(None, 0, None, 2)) > hard_bid(hand, ctx(None, 2, None, 2))


def test_spades_10_hard_covers_its_partners_nil() -> None:
    # Seat 1 leads; seat 0 plays second and its nil partner (seat 2) plays after it.
    state = table(
        {0: "KH 3H 4C", 1: "5H 5C 6C", 2: "9H 7C 8C", 3: "2H 9C 10C"},
        turn=0,
        trick=((1, "5H"),),
        bids=(4, 3, 0, 3),
    )
    assert card_of(SpadesBot("hard"), state, 0) == "KH"
    assert card_of(SpadesBot("medium"), state, 0) == "3H"  # second hand low


def test_spades_10_hard_overtakes_its_nil_partner() -> None:
    # Seat 2 (nil) had to lead its AH and is winning; seat 0 has no heart but a spade.
    state = table(
        {0: "2S 4C 5C", 2: "7C 8C", 1: "5C 6C", 3: "2H 9C 10C"},
        turn=0,
        trick=((2, "AH"), (1, "5H")),
        bids=(4, 3, 0, 3),
    )
    assert card_of(SpadesBot("hard"), state, 0) == "2S"
    assert card_of(SpadesBot("medium"), state, 0) == "4C"  # a partner's master is let stand


def test_spades_10_hard_leads_low_into_an_opponents_nil() -> None:
    state = table(
        {0: "AH 2H 3D", 1: "5H 5C 6C", 2: "9H 7C 8C", 3: "3H 9C 10C"},
        bids=(4, 0, 3, 4),
    )
    assert card_of(SpadesBot("hard"), state, 0) == "2H"
    assert card_of(SpadesBot("medium"), state, 0) == "AH"  # cashes the master


def test_spades_10_hard_stays_under_an_opponents_nil() -> None:
    # Seat 1 (nil) is winning with 9H; seat 0 plays third and could take it with KH.
    state = table(
        {0: "KH 5H 4C", 1: "5C 6C", 2: "7C 8C", 3: "2H 9C 10C"},
        turn=0,
        trick=((2, "3H"), (1, "9H")),
        bids=(4, 0, 3, 4),
    )
    assert card_of(SpadesBot("hard"), state, 0) == "5H"
    assert card_of(SpadesBot("medium"), state, 0) == "KH"  # third hand high


def test_spades_10_hard_sets_the_opponents_when_it_is_worth_it() -> None:
    # Seats 0+2 made 5 with 6 tricks; seats 1+3 bid 7, have 5 and need both tricks left.
    state = table(
        {0: "AH 2H", 1: "6C", 2: "3D 4D", 3: "7H 8C"},
        turn=0,
        trick=((1, "5H"),),
        bids=(3, 4, 2, 3),
        tricks_won=(3, 3, 3, 2),
    )
    assert card_of(SpadesBot("hard"), state, 0) == "AH"
    assert card_of(SpadesBot("medium"), state, 0) == "2H"  # ducks to avoid a bag
    # With the opponents already set, the hard bot ducks too.
    spared = state.replace(tricks_won=(4, 2, 3, 2))
    assert card_of(SpadesBot("hard"), spared, 0) == "2H"
