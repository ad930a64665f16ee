"""Briscola scenarios, one or more per rule (BRISCOLA-1…7, RULES §5), and RULES fixture 10.

Tables past the deal are built with :func:`table`: hands, stock and trick are written
out card by card, and the cards nowhere else count as taken by the side the test says,
so the deck stays accounted for.
"""

from __future__ import annotations

from typing import Any

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import InvalidOptions, NotYourTurn, RuleError
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.tricks.briscola import Briscola
from tavolo.cardgames.games.tricks.briscola_match import hand_winner
from tavolo.cardgames.games.tricks.briscola_state import ORDER, POINTS, BriscolaState
from tavolo.cardgames.games.tricks.core import card_points, tiebreak_ranking, trick_winner

GAME = Briscola()


def table(
    seats: int,
    hands: dict[int, str],
    *,
    stock: str = "",
    turned: str = "7B",
    turn: int = 0,
    trick: tuple[tuple[int, str], ...] = (),
    taken_by: int = 0,
    options: dict[str, Any] | None = None,
) -> BriscolaState:
    """A hand in progress; every card not held, in the stock or the trick is in
    ``taken_by``'s pile."""
    base = GAME.new_game(options, seats, b"hand-built table")
    held = {s: tuple(hands.get(s, "").split()) for s in range(seats)}
    in_use = {c for h in held.values() for c in h} | set(stock.split()) | {c for _, c in trick}
    deck = italian_cards.deck(("2B",) if seats == 3 else ())
    taken = [()] * seats
    taken[taken_by] = tuple(c for c in deck if c not in in_use)
    return base.replace(
        hands=tuple(held[s] for s in range(seats)),
        stock=tuple(stock.split()),
        turned=turned,
        turn=turn,
        trick=trick,
        taken=tuple(taken),
    )


def play(state: BriscolaState, seat: int, card: str) -> tuple[BriscolaState, list[Any]]:
    return GAME.apply(state, seat, Action(ActionKind.PLAY, cards=(card,)))


def test_briscola_1_deal_three_each_and_turn_the_trump_under_the_stock() -> None:
    """BRISCOLA-1: 3 cards each, the next turned up, lying under the stock."""
    for seats in (2, 3, 4):
        state = GAME.new_game(None, seats, b"deal")
        assert [len(h) for h in state.hands] == [3] * seats
        assert state.stock[-1] == state.turned
        assert state.trumps == state.turned[-1]
        deck = 39 if seats == 3 else 40
        assert len(state.stock) == deck - 3 * seats
        view = GAME.view(state, 0)
        assert view.public["turned"] == state.turned
        assert view.public["stock_size"] == len(state.stock)


def test_briscola_1_three_players_play_without_the_two_of_bastoni() -> None:
    state = GAME.new_game(None, 3, b"three")
    assert "2B" not in GAME.cards_in_play(state)
    assert len(GAME.cards_in_play(state)) == 39


def test_briscola_2_the_player_on_the_dealers_right_leads() -> None:
    """BRISCOLA-2: anticlockwise, so the dealer's right is the next seat."""
    for seed in (b"a", b"b", b"c", b"d"):
        state = GAME.new_game(None, 4, seed)
        assert GAME.to_act(state) == {(state.dealer + 1) % 4}


def test_briscola_2_nobody_must_follow_suit_or_trump() -> None:
    """BRISCOLA-2: any card of the hand may be played on any lead."""
    state = table(2, {0: "AC", 1: "3C 5B 7D"}, stock="", turn=1, trick=((0, "AC"),))
    legal = {a.cards[0] for a in GAME.legal_actions(state, 1)}
    assert legal == {"3C", "5B", "7D"}


def test_briscola_3_highest_trump_wins_else_highest_of_suit_led() -> None:
    """BRISCOLA-3, in the order A 3 R C F 7 6 5 4 2."""
    assert trick_winner(((0, "3C"), (1, "AC")), ORDER, "B") == 1
    assert trick_winner(((0, "AC"), (1, "2B")), ORDER, "B") == 1
    assert trick_winner(((0, "RC"), (1, "AD")), ORDER, "B") == 0  # off-suit never wins
    assert trick_winner(((0, "4B"), (1, "3B"), (2, "AB"), (3, "RB")), ORDER, "B") == 2
    assert trick_winner(((0, "2C"), (1, "7C"), (2, "FC")), ORDER, "B") == 2


def test_briscola_4_winner_draws_first_then_the_others_in_turn_order() -> None:
    """BRISCOLA-4: the winner draws the top card, the next seat the following one."""
    state = table(
        3, {0: "AC 4D", 1: "3C 5D", 2: "6S 7S"}, stock="FD CD 7B", turn=1, trick=((0, "4C"),)
    )
    state = state.replace(hands=(("AC", "4D"), ("3C", "5D"), ("6S", "7S")))
    state, _ = play(state, 1, "3C")
    state, events = play(state, 2, "6S")
    drawn = [(e["seat"], e["card"]) for e in events if e["type"] == "card_drawn"]
    assert drawn == [(1, "FD"), (2, "CD"), (0, "7B")]  # the turned card comes last
    assert GAME.to_act(state) == {1}


def test_briscola_4_the_last_tricks_are_played_without_drawing() -> None:
    state = table(2, {0: "AC 4D", 1: "3C 5D"}, stock="", turn=0)
    state, events = play(state, 0, "AC")
    state, events = play(state, 1, "3C")
    assert not [e for e in events if e["type"] == "card_drawn"]
    assert [len(h) for h in state.hands] == [1, 1]


def test_briscola_5_sixty_one_wins_and_sixty_all_is_a_draw() -> None:
    """BRISCOLA-5."""
    assert hand_winner([61, 59]) == 0
    assert hand_winner([40, 80]) == 1
    assert hand_winner([60, 60]) is None
    assert hand_winner([50, 40, 29]) == 0  # three players: the most points
    assert hand_winner([45, 45, 29]) is None


def test_briscola_5_three_players_sharing_the_most_points_share_first_place() -> None:
    # Seats 0 and 1 hold 41 points each; seat 2 the other 38 and the last trick.
    state = table(3, {0: "4C", 1: "5C", 2: "6C"}, turn=0)
    piles = (
        ("AC", "3C", "RC", "CC", "FC", "AD", "2D"),
        ("AB", "3B", "RB", "CB", "FB", "AS", "4D"),
        (),
    )
    rest = set(italian_cards.deck(("2B",))) - {c for p in piles for c in p} - {"4C", "5C", "6C"}
    state = state.replace(taken=(piles[0], piles[1], tuple(sorted(rest))))
    points = [card_points(p, POINTS) for p in state.taken]
    assert points == [41, 41, 38]
    for seat, card in ((0, "4C"), (1, "5C"), (2, "6C")):
        state, _ = play(state, seat, card)
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.places == (1, 1, 3)


def test_briscola_6_single_hand_by_default_and_a_draw_shares_first_place() -> None:
    """BRISCOLA-6: match_length = single; 60-60 is a drawn match."""
    assert GAME.options()["match_length"] == "single"
    half = ("AC", "3C", "RC", "CC", "FC", "AD", "3D", "RD", "CD", "FD", "2C")
    assert card_points(half, POINTS) == 60
    state = table(2, {0: "4C", 1: "5C"}, turn=0)
    rest = set(italian_cards.DECK) - set(half) - {"4C", "5C"}
    state = state.replace(taken=(half, tuple(sorted(rest))))
    state, _ = play(state, 0, "4C")
    state, _ = play(state, 1, "5C")  # seat 1 wins the last trick, worth nothing
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.places == (1, 1)
    assert outcome.detail["reason"] == "drawn"


def test_briscola_6_hands_n_stops_once_the_leader_cannot_be_caught() -> None:
    state = table(2, {0: "AC", 1: "4C"}, turn=0, taken_by=0, options={"match_length": "hands:3"})
    state = state.replace(hands_won=(1, 0), hand_no=2)
    state, _ = play(state, 0, "AC")
    state, _ = play(state, 1, "4C")
    outcome = GAME.outcome(state)
    assert outcome is not None
    assert outcome.places == (1, 2)
    assert outcome.detail["hands_won"] == [2, 0]
    assert outcome.detail["hands"] == 2  # the third hand is not played


def test_briscola_6_a_hand_that_can_still_be_caught_deals_again() -> None:
    state = table(2, {0: "AC", 1: "4C"}, turn=0, taken_by=0, options={"match_length": "hands:3"})
    state, _ = play(state, 0, "AC")
    state, events = play(state, 1, "4C")
    assert GAME.outcome(state) is None
    assert events[-1]["type"] == "hand_dealt"
    assert state.hand_no == 2 and state.hands_won == (1, 0)
    assert GAME.to_act(state) == {(state.dealer + 1) % 2}


def test_briscola_6_ko_tie_break_hands_and_the_last_trick_rule() -> None:
    """BRISCOLA-6 with RULES §0 rules 13-14: more points in a tie-break wins; after a
    third drawn one the side that took the last trick loses."""
    assert tiebreak_ranking((0, 1), [70, 50], 1, 0, (0, 0)) == ((2, 1), ())
    assert tiebreak_ranking((0, 1), [60, 60], 1, 0, (0, 0)) == ((0, 0), (0, 1))
    assert tiebreak_ranking((0, 1), [60, 60], 3, 0, (0, 0)) == ((1, 2), ())
    assert tiebreak_ranking((0, 1), [40, 40, 40], 3, 2, (0, 0, 0)) == ((2, 2, 0), ())
    assert tiebreak_ranking((0, 1, 2), [50, 50, 20], 1, 2, (0, 0, 0)) == ((2, 2, 1), (0, 1))


def test_briscola_6_ko_plays_a_tie_break_hand_after_a_drawn_match() -> None:
    half = ("AC", "3C", "RC", "CC", "FC", "AD", "3D", "RD", "CD", "FD", "2C")
    state = table(2, {0: "4C", 1: "5C"}, turn=0, options={"ko": True})
    rest = set(italian_cards.DECK) - set(half) - {"4C", "5C"}
    state = state.replace(taken=(half, tuple(sorted(rest))))
    state, _ = play(state, 0, "4C")
    state, events = play(state, 1, "5C")
    assert GAME.outcome(state) is None
    assert {"type": "tie_break_started", "sides": [0, 1]} in events
    assert GAME.view(state, 0).public["tie_break"] == 1
    assert state.hands_won == (0, 0)


def test_briscola_7_the_two_of_trumps_takes_the_turned_card_when_on() -> None:
    """BRISCOLA-7: before playing, while the turned card lies under a face-down card."""
    opts = {"exchange_two": True}
    state = table(2, {0: "2B 4C 5D", 1: "3C 5C 6D"}, stock="AS 7B", turned="7B", options=opts)
    swap = Action(ActionKind.TAKE, cards=("2B",))
    assert swap in GAME.legal_actions(state, 0)
    state, events = GAME.apply(state, 0, swap)
    assert events == [{"type": "two_swapped", "seat": 0, "gave": "2B", "took": "7B"}]
    assert "7B" in state.hands[0] and state.stock == ("AS", "2B")
    assert GAME.view(state, 1).public["turned"] == "2B"
    assert GAME.to_act(state) == {0}
    assert swap not in GAME.legal_actions(state, 0)


def test_briscola_7_no_swap_when_off_or_once_only_the_turned_card_is_left() -> None:
    swap = Action(ActionKind.TAKE, cards=("2B",))
    off = table(2, {0: "2B 4C 5D", 1: "3C 5C 6D"}, stock="AS 7B")
    with pytest.raises(RuleError, match="off at this table"):
        GAME.apply(off, 0, swap)
    late = table(2, {0: "2B 4C 5D", 1: "3C 5C 6D"}, stock="7B", options={"exchange_two": True})
    assert swap not in GAME.legal_actions(late, 0)
    with pytest.raises(RuleError, match="holder of the 2 of trumps"):
        GAME.apply(late, 0, swap)


def test_briscola_fixture_10_card_points_and_two_tricks() -> None:
    """Fixture 10: 120 in the deck; bastoni trumps: A coppe wins a 3 coppe lead (21
    points); a 2 of bastoni wins an A spade lead (11 points)."""
    assert card_points(italian_cards.DECK, POINTS) == 120
    state = table(2, {0: "3C AS 4D", 1: "AC 2B 5D"}, stock="6D 7B", turn=0)
    state, _ = play(state, 0, "3C")
    state, events = play(state, 1, "AC")
    won = next(e for e in events if e["type"] == "trick_won")
    assert (won["seat"], won["points"]) == (1, 21)
    state = table(2, {0: "3C AS 4D", 1: "AC 2B 5D"}, stock="6D 7B", turn=0)
    state, _ = play(state, 0, "AS")
    state, events = play(state, 1, "2B")
    won = next(e for e in events if e["type"] == "trick_won")
    assert (won["seat"], won["points"]) == (1, 11)


def test_refusals_name_the_rule_and_change_nothing() -> None:
    state = table(2, {0: "3C AS 4D", 1: "AC 2B 5D"}, stock="6D 7B")
    with pytest.raises(NotYourTurn):
        play(state, 1, "AC")
    with pytest.raises(RuleError, match="do not hold"):
        play(state, 0, "AC")
    with pytest.raises(RuleError, match="not a card"):
        play(state, 0, "ZZ")
    with pytest.raises(RuleError, match="one card"):
        GAME.apply(state, 0, Action(ActionKind.BID, amount=1))


def test_options_refuse_a_bad_value_naming_the_allowed_ones() -> None:
    with pytest.raises(InvalidOptions, match=r"match_length.*'single'.*'hands:3'"):
        GAME.new_game({"match_length": "points:61"}, 2, b"x")
    with pytest.raises(InvalidOptions, match="for 2 to 4 players"):
        GAME.new_game(None, 5, b"x")


def test_a_turn_timeout_plays_the_least_harmful_card() -> None:
    """[decision] docs/decisions.md: fewest points, a non-trump first, then the weakest."""
    state = table(2, {0: "AC 2B 4D", 1: "3C 5C 6D"}, stock="6S 7B")
    (timer,) = GAME.timers(state)
    state, events = GAME.apply(state, 0, Action(ActionKind.EXPIRE, timer=timer.key))
    assert events[0]["type"] == "timer_expired"
    assert events[1] == {"type": "card_played", "seat": 0, "card": "4D"}
    only_trumps = table(2, {0: "AB 2B", 1: "3C 5C"}, stock="6S 7B")
    (timer,) = GAME.timers(only_trumps)
    _, events = GAME.apply(only_trumps, 0, Action(ActionKind.EXPIRE, timer=timer.key))
    assert events[1]["card"] == "2B"


def test_the_turned_card_is_on_view_until_drawn_and_the_stock_stays_hidden() -> None:
    state = table(2, {0: "AC", 1: "4C"}, stock="6S 7B")
    assert set(GAME.hidden_cards(state, 0)) == {"4C", "6S"}
    state, _ = play(state, 0, "AC")
    state, _ = play(state, 1, "4C")
    assert GAME.view(state, 1).public["turned"] is None
    assert GAME.view(state, 1).public["trumps"] == "B"


def _three_way_tie_break(piles: tuple[str, str], **fields: Any) -> BriscolaState:
    """A KO tie-break hand among three players level on 40, at its last trick (4C 5C 6C:
    no points, seat 2 takes it); seats 0 and 1 hold ``piles``, seat 2 the rest."""
    state = table(3, {0: "4C", 1: "5C", 2: "6C"}, turn=0, options={"ko": True})
    taken = (tuple(piles[0].split()), tuple(piles[1].split()))
    held = {c for p in taken for c in p} | {"4C", "5C", "6C"}
    rest = tuple(sorted(set(italian_cards.deck(("2B",))) - held))
    return state.replace(taken=(*taken, rest), points=(40, 40, 40), **fields)


def test_briscola_6_a_three_way_tie_break_plays_on_while_two_share_the_top() -> None:
    """BRISCOLA-6 with RULES §0.13 (PCG-7): three players level; the first tie-break hand
    gives 50, 50 and 20, so seat 2 is third and seats 0 and 1 play another hand, which
    seat 0 wins: places 1, 2, 3, and the tie-break points stay out of the totals."""
    first = _three_way_tie_break(
        ("AC 3C RC CC FC AD RD CD FD", "AB 3B RB CB FB AS RS CS FS"),
        tied=(0, 1, 2),
    )
    assert [card_points(p, POINTS) for p in first.taken] == [50, 50, 20]
    for seat, card in ((0, "4C"), (1, "5C"), (2, "6C")):
        first, _ = play(first, seat, card)
    assert GAME.outcome(first) is None, "two sides still share the top"
    assert first.tied == (0, 1) and first.tiebreaks == 1 and first.points == (40, 40, 40)
    second = _three_way_tie_break(
        ("AC 3C RC CC FC AD 3D RD CD FD", "AB 3B RB CB FB AS RS CS FS"),
        tied=first.tied,
        tiebreaks=first.tiebreaks,
        ranking=first.ranking,
    )
    assert [card_points(p, POINTS) for p in second.taken] == [60, 50, 10]
    for seat, card in ((0, "4C"), (1, "5C"), (2, "6C")):
        second, _ = play(second, seat, card)
    outcome = GAME.outcome(second)
    assert outcome is not None and outcome.places == (1, 2, 3)
    assert outcome.detail["points"] == [40, 40, 40] and outcome.detail["tie_breaks"] == 2
