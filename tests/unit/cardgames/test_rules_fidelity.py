"""Rules that an independent implementation of RULES.md found broken, each pinned by the
position that showed it (PCG-2: the server enforces the rules; FAIR-1: every seat plays
by the same ones).
"""

from __future__ import annotations

import random
from collections import Counter
from typing import Any

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.registry import make_bot
from tavolo.cardgames.errors import RuleError
from tavolo.cardgames.games.rummy.deck import JOKER
from tavolo.cardgames.games.rummy.meld_search import melds_in_hand
from tavolo.cardgames.games.rummy.melds import BURRACO_MELDS, HIGH, LOW, SCALA40_MELDS
from tavolo.cardgames.games.solitario.piles import (
    COLUMN_NAMES,
    FOUNDATION_NAMES,
    WASTE,
    Layout,
)
from tavolo.cardgames.games.solitario.solitario import SeatGame, Solitario, SolitarioState
from tavolo.cardgames.games.tricks.tresette import Tresette
from tests.unit.cardgames import burraco_table, scala40_table

A = ActionKind


# -- SCALA40-5: no_attachable_discard ---------------------------------------------------


def _strict(hands: list[list[str]], melds: list[Any], **changes: Any) -> Any:
    return scala40_table.table(
        hands,
        melds=[(1, m) for m in melds],
        opened=(True, True),
        options={"no_attachable_discard": True},
        **changes,
    )


def test_scala40_5_the_option_never_leaves_a_turn_without_a_discard() -> None:
    """SCALA40-5: holding 4♦ after taking 5♦ from the pozzo, with 4♥ 4♣ joker on the
    table, 5♦ may not go (taken this turn) and attaching 4♦ would leave only 5♦: the
    option does not apply, and 4♦ may be discarded."""
    meld = scala40_table.meld
    state = _strict([["4D", "5D"], ["9S"]], [meld("4H", "4C", JOKER)]).replace(taken="5D")
    legal = scala40_table.GAME.legal_actions(state, 0)
    assert Action(A.DISCARD, cards=("4D",)) in legal
    assert Action(A.DISCARD, cards=("5D",)) not in legal
    scala40_table.act(state, 0, A.DISCARD, "4D")


def test_scala40_5_a_joker_that_fits_a_meld_may_not_be_discarded() -> None:
    """SCALA40-5: the joker counts as a card that could be added (at either end of a run
    with room, or to a set without a wild), as does a card that could replace a joker."""
    meld = scala40_table.meld
    runs = _strict([[JOKER, "9C", "2S"], ["9S"]], [meld("5H", "6H", "7H")])
    with pytest.raises(RuleError, match="could be added"):
        scala40_table.act(runs, 0, A.DISCARD, JOKER)
    scala40_table.act(runs, 0, A.DISCARD, "9C")
    swap = _strict([["6H", "9C", "2S"], ["9S"]], [meld("5H", JOKER, "7H")])
    with pytest.raises(RuleError, match="could be added"):
        scala40_table.act(swap, 0, A.DISCARD, "6H")
    full = _strict([[JOKER, "9C", "2S"], ["9S"]], [meld("4S", "4H", "4D", "4C")])
    scala40_table.act(full, 0, A.DISCARD, JOKER)  # a full set takes no joker


def test_scala40_5_a_player_who_has_not_opened_is_not_bound() -> None:
    """SCALA40-5: the option binds only a player who has opened."""
    meld = scala40_table.meld
    state = _strict([["8H", "9C", "2S"], ["9S"]], [meld("5H", "6H", "7H")])
    closed = state.replace(opened=(False, True))
    scala40_table.act(closed, 0, A.DISCARD, "8H")
    with pytest.raises(RuleError, match="could be added"):
        scala40_table.act(state, 0, A.DISCARD, "8H")


# -- SCALA40-5 and BURRACO-3: an ace beside 2…K -----------------------------------------


RUN_2_TO_K = ("2H", "3H", "4H", "5H", "6H", "7H", "8H", "9H", "10H", "JH", "QH", "KH")


def test_scala40_5_an_ace_beside_2_to_k_goes_to_the_end_the_player_names() -> None:
    """SCALA40-5 (and SCALA40-3: the ace low or high): both ends are listed, each puts
    the ace where it says, and an attachment naming no end is refused saying why."""
    state = scala40_table.table(
        [["AH", "9C", "9D"], ["9S"]],
        melds=[(1, scala40_table.meld(*RUN_2_TO_K))],
        opened=(True, True),
    )
    legal = scala40_table.GAME.legal_actions(state, 0)
    ends = {a.target for a in legal if a.kind is A.ATTACH and a.cards == ("AH",)}
    assert ends == {LOW, HIGH}
    low, _ = scala40_table.act(state, 0, A.ATTACH, "AH", meld=0, target=LOW)
    high, _ = scala40_table.act(state, 0, A.ATTACH, "AH", meld=0, target=HIGH)
    assert low.melds[0][1].cards == ("AH", *RUN_2_TO_K)
    assert high.melds[0][1].cards == (*RUN_2_TO_K, "AH")
    with pytest.raises(RuleError, match="low or high"):
        scala40_table.act(state, 0, A.ATTACH, "AH", meld=0)


def test_burraco_3_an_ace_beside_2_to_k_goes_to_the_end_the_player_names() -> None:
    """BURRACO-3: a sequence has one ace, low or high; beside 2…K the player names it."""
    state = burraco_table.table(
        [["AH", "9C", "9D"], ["9S"]], melds=([burraco_table.meld(*RUN_2_TO_K)], [])
    )
    legal = burraco_table.GAME.legal_actions(state, 0)
    ends = {a.target for a in legal if a.kind is A.ATTACH and a.cards == ("AH",)}
    assert ends == {LOW, HIGH}
    high, _ = burraco_table.GAME.apply(
        state, 0, Action(A.ATTACH, cards=("AH",), meld=0, target=HIGH)
    )
    assert high.melds[0][0].cards == (*RUN_2_TO_K, "AH")


# -- GAMES.md 6: every enumerable action listed, once -----------------------------------


@pytest.mark.parametrize("rules", [SCALA40_MELDS, BURRACO_MELDS], ids=["scala40", "burraco"])
def test_scala40_3_and_burraco_4_a_wild_in_place_of_a_held_natural_is_listed(
    rules: Any,
) -> None:
    """SCALA40-3, BURRACO-4: 5♥ joker 7♥ is a meld the hand may lay while it also holds
    6♥; every run a hand can lay, with its wild anywhere, is listed exactly once."""
    hand = ["5H", "6H", "7H", "8H", JOKER, "2S"]
    found = [cards for cards, _ in melds_in_hand(hand, rules)]
    assert ("5H", JOKER, "7H") in found and ("5H", "6H", JOKER, "8H") in found
    assert len(found) == len(set(found))
    runs = {c for c in found if JOKER in c and c[0] != JOKER and c[-1] != JOKER}
    for cards in [("5H", JOKER, "7H"), (JOKER, "6H", "7H"), ("6H", JOKER, "8H", JOKER)]:
        assert (cards in runs) == (cards[1] == JOKER and cards.count(JOKER) == 1)


def test_burraco_4_a_pinella_in_its_own_place_is_listed_once() -> None:
    """BURRACO-4: 2♠ before 3♠ 4♠ is one play, laid or attached: never listed twice
    (as a natural and again as a wild at the low end); as a wild above 5♠ it is another."""
    state = burraco_table.table(
        [["2S", "3S", "4S", "9D", "9C"], ["9S"]],
        melds=([burraco_table.meld("3S", "4S", "5S")], []),
    )
    legal = burraco_table.GAME.legal_actions(state, 0)
    assert len(legal) == len(set(legal))
    ends = [a.target for a in legal if a.kind is A.ATTACH and a.cards == ("2S",)]
    assert sorted(map(str, ends)) == ["None", "high"]
    # The same play named with `low` is still accepted (older logs replay), never listed.
    low = Action(A.ATTACH, cards=("2S",), meld=0, target=LOW)
    plain = Action(A.ATTACH, cards=("2S",), meld=0)
    assert burraco_table.GAME.listed_form(state, 0, low) == plain
    assert (
        burraco_table.GAME.apply(state, 0, low)[0] == burraco_table.GAME.apply(state, 0, plain)[0]
    )
    assert Counter(a.cards for a in legal if a.kind is A.MELD)[("2S", "3S", "4S")] == 1


# -- SOLITARIO-3: a king back from its foundation ----------------------------------------

SOLITARIO = Solitario()


def _solitario(columns: list[tuple[str, ...]], foundations: tuple[int, ...]) -> SolitarioState:
    base = SOLITARIO.new_game(None, 1, b"hand-built layout")
    up = tuple(columns) + ((),) * (7 - len(columns))
    lay = Layout(((),) * 7, up, ("5C",), (), foundations)
    return SolitarioState(base.options, 0, (SeatGame(lay, 0, 0, 0, 0, None),))


def _accepted_moves(state: SolitarioState) -> set[Action]:
    """Every move ``apply`` accepts, found by trying each source, target and count."""
    piles = (WASTE, *COLUMN_NAMES, *FOUNDATION_NAMES)
    found = set()
    for source in piles:
        for target in piles:
            for count in range(1, 14):
                action = Action(A.MOVE, source=source, target=target, count=count)
                try:
                    SOLITARIO.apply(state, 0, action)
                except RuleError:
                    continue
                found.add(action)
    return found


def test_solitario_3_a_foundation_king_may_go_back_to_an_empty_column() -> None:
    """SOLITARIO-3: a foundation's top card may go back to a column, and only a king
    fills an empty one: the move is listed, as every move ``apply`` accepts is."""
    state = _solitario([(), ("9C",)], (13, 12, 0, 0))
    listed = {a for a in SOLITARIO.legal_actions(state, 0) if a.kind is A.MOVE}
    king = Action(A.MOVE, source="fS", target="t1", count=1)
    assert king in listed
    assert listed == _accepted_moves(state)


def test_solitario_3_listed_moves_are_the_accepted_moves_along_random_games() -> None:
    """SOLITARIO-3: along random games, at every tenth position, ``legal_actions``
    lists exactly the moves ``apply`` accepts."""
    rng = random.Random(3)
    checked = 0
    for game_no in range(6):
        state = SOLITARIO.new_game({"draw": 1 + 2 * (game_no % 2)}, 1, bytes([game_no]))
        for step in range(300):
            legal = SOLITARIO.legal_actions(state, 0)
            if not legal:
                break
            if step % 10 == 0:
                listed = {a for a in legal if a.kind is A.MOVE}
                assert listed == _accepted_moves(state)
                checked += 1
            playable = [a for a in legal if a.kind is not A.STOP] or legal
            state, _ = SOLITARIO.apply(state, 0, rng.choice(playable))
    assert checked > 30


def test_solitario_hard_bot_chooses_cold_in_positions_it_did_not_produce() -> None:
    """GAMES.md 6 and 8: one hard bot asked at random positions of other games (a seat
    taken over mid-game) still chooses a legal action: a plan made elsewhere is
    dropped, never followed into a missing card."""
    rng = random.Random(5)
    positions = []
    for game_no in range(10):
        for draw in (1, 3):
            state = SOLITARIO.new_game({"draw": draw}, 1, f"s{game_no}".encode())
            for _ in range(300):
                legal = SOLITARIO.legal_actions(state, 0)
                playable = [a for a in legal if a.kind is not A.STOP]
                if not playable:
                    break
                state, _ = SOLITARIO.apply(state, 0, rng.choice(playable))
                positions.append(state)
    bot = make_bot("solitario", "hard", b"one bot for every position")
    for _ in range(3000):
        state = rng.choice(positions)
        legal = SOLITARIO.legal_actions(state, 0)
        if legal:
            assert bot.choose(SOLITARIO.view(state, 0), legal) in legal


# -- TRESETTE-6 with §0.13: tie-break hands ---------------------------------------------

TRESETTE = Tresette()


def _play_hand(state: Any, rng: random.Random) -> tuple[Any, list[dict[str, Any]]]:
    """Random legal play to the end of the hand being played; its events."""
    events: list[dict[str, Any]] = []
    number = state.hand_no
    while TRESETTE.outcome(state) is None and state.hand_no == number:
        seat = min(TRESETTE.to_act(state))
        choice = rng.choice(TRESETTE.legal_actions(state, seat))
        state, produced = TRESETTE.apply(state, seat, choice)
        events.extend(produced)
    return state, events


@pytest.mark.parametrize("players", [2, 4])
def test_tresette_6_equal_totals_past_the_target_play_tie_break_hands_outside_the_totals(
    players: int,
) -> None:
    """TRESETTE-6 with RULES §0.13: 22-22 after a hand means tie-break hands that order
    the sides only (totals stay 22-22), at most 3, the third drawn one lost by the side
    that took its last trick. Checked against the hands' own scores, seed by seed."""
    for seed in range(12):
        rng = random.Random(seed)
        start = TRESETTE.new_game({"players": players}, players, bytes([seed]))
        _, events = _play_hand(start, random.Random(seed))
        points = next(e for e in events if e["type"] == "hand_scored")["points"]
        state = start.replace(totals=(22 - points[0], 22 - points[1]))
        state, _ = _play_hand(state, rng)
        assert state.totals == (22, 22) and TRESETTE.outcome(state) is None
        tie_breaks = []
        while TRESETTE.outcome(state) is None:
            state, events = _play_hand(state, rng)
            scored = next(e for e in events if e["type"] == "hand_scored")
            assert scored["tie_break"] is True
            tie_breaks.append((scored["points"], scored["last_trick_side"]))
        outcome = TRESETTE.outcome(state)
        assert outcome is not None and state.totals == (22, 22) and len(tie_breaks) <= 3
        (first, second), last = tie_breaks[-1]
        if first != second:
            winner = 0 if first > second else 1
        else:
            assert len(tie_breaks) == 3
            winner = 1 - last
        assert [outcome.places[s] for s in range(players)] == [
            1 if s % 2 == winner else 1 + players // 2 for s in range(players)
        ]
        assert outcome.scores == (22,) * players


# -- RULES decisions the engines follow: Poker 14.7 and 14.9, Cirulla 11.9, Uno 2.7 -------


def _poker_table() -> Any:
    from tests.unit.cardgames.test_poker_rules import table

    return table(
        {3: "JS JH 7D 8C AS", 2: "10S 10H 7S 8D 9C", 1: "QS KH 9D 7C 8H", 0: "AH AD 9S KD QD"}
    )


def test_poker_7_before_any_opening_a_single_player_left_does_not_take_the_pot() -> None:
    """POKER-7: everyone else passes before an opening; the last player may still open
    (and so take the pot) or check, and a check means nobody opened (POKER-8)."""
    from tavolo.cardgames.games.betting.poker import Poker
    from tavolo.cardgames.games.betting.poker_legal import CHECK, FOLD

    game = Poker()
    state = _poker_table()
    for seat in (3, 2, 1):
        state, events = game.apply(state, seat, FOLD)
        assert not [e for e in events if e["type"] == "pot_won"]
    legal = game.legal_actions(state, 0)
    assert CHECK in legal and any(a.kind is A.BET for a in legal)
    _, events = game.apply(state, 0, CHECK)
    assert [e["type"] for e in events].count("no_opening") == 1
    assert not [e for e in events if e["type"] == "pot_won"]


def test_poker_7_a_carried_pot_is_dead_money_any_seat_still_in_may_win() -> None:
    """POKER-7: chips carried from unopened deals go to the main pot, which every seat
    still in is eligible for, whatever it put in itself."""
    from tavolo.cardgames.games.betting.poker_betting import side_pots

    pots = side_pots([2, 10, 10], [False, False, False], dead=8)
    assert pots[0].chips == 2 * 3 + 8 and set(pots[0].eligible) == {0, 1, 2}
    assert sum(p.chips for p in pots) == 22 + 8


def test_poker_9_the_change_refills_from_earlier_discards_folded_hands_included() -> None:
    """POKER-9: a stock too short for a change takes back the earlier discards, the
    hands folded in the first round among them."""
    from dataclasses import replace

    from tavolo.cardgames.games.betting.poker import Poker
    from tavolo.cardgames.games.betting.poker_legal import CALL, FOLD, bet

    game = Poker()
    state = _poker_table()
    for seat, action in ((3, bet(2)), (2, FOLD), (1, CALL), (0, CALL)):
        state, _ = game.apply(state, seat, action)
    folded = {"10S", "10H", "7S", "8D", "9C"}
    assert folded <= set(state.discards)
    state = replace(state, stock=())
    state, _ = game.apply(state, 3, Action(A.DISCARD, cards=("JH", "7D", "8C", "AS")))
    drawn = set(state.hands[3]) - {"JS"}
    assert len(drawn) == 4 and drawn <= folded


def test_cirulla_9_a_cappotto_in_a_tie_break_hand_keeps_the_earlier_tie_break_order() -> None:
    """CIRULLA-9 with RULES §0.13: a cappotto in the second tie-break hand wins; the
    other sides keep the order the first tie-break hand gave them."""
    from tavolo.cardgames.games.fishing.cirulla import Cirulla
    from tests.unit.cardgames.fishing_table import play, table

    game = Cirulla()
    state = table(
        game,
        3,
        {0: "3C", 1: "2H", 2: "KD 2S"},
        "KS",
        piles={2: "AD 2D 3D 4D 5D 6D 7D JD QD"},
        turn=2,
        totals=(51, 51, 51),
        tied=(0, 1, 2),
        tiebreaks=((2, 4, 2),),
    )
    after, _ = game.apply(state, 2, play("KD", "KS"))
    outcome = game.outcome(after)
    assert outcome is not None and outcome.detail["reason"] == "cappotto"
    assert outcome.places == (3, 2, 1)


def test_uno_7_a_final_wild_plus4_is_never_challenged() -> None:
    """UNO-7 (with UNO-5): a final wild +4 is always legal, so no challenge is offered:
    the next player draws 4 and the hand ends."""
    from tavolo.cardgames.games.shedding.uno import CHALLENGE, Uno
    from tests.unit.cardgames.test_uno_rules import play as uno_play
    from tests.unit.cardgames.test_uno_rules import uno_table

    game = Uno()
    state = uno_table({0: ["W+4"]}, top="R5", options={"match_length": "hands:2"})
    before = len(state.hands[2])
    after, events = game.apply(state, 0, uno_play("W+4", colour="blue"))
    end = next(e for e in events if e["type"] == "hand_end")
    assert len(end["hands"][2]) == before + 4
    assert not any(CHALLENGE in game.legal_actions(after, s) for s in range(3))
