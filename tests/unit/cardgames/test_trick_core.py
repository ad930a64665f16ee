"""The trick core every trick game shares: following suit, trick winners under no trump,
a fixed trump and a turned one, sides, the KO tie-break ranking (RULES §0 rule 14), and the
step of play with its events (BRISCOLA-2, TRESETTE-7: drawing from the winner on)."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st

from tavolo.cardgames.games.french_deck import full_deck
from tavolo.cardgames.games.tricks.briscola_state import ORDER as BRISCOLA
from tavolo.cardgames.games.tricks.core import (
    add_to_pile,
    card_points,
    close_trick,
    draw_in_turn,
    following_cards,
    may_follow,
    per_side,
    play_card,
    sides_of,
    tiebreak_ranking,
    trick_winner,
    winning_play,
)
from tavolo.cardgames.games.tricks.spades_tricks import ORDER as FRENCH
from tavolo.cardgames.games.tricks.spades_tricks import legal_cards, may_play
from tavolo.cardgames.games.tricks.tresette_cards import ORDER as TRESETTE


def test_following_suit_is_the_suit_led_if_held_else_anything() -> None:
    hand = ["AC", "4C", "3D"]
    assert following_cards(hand, [], TRESETTE) == hand
    assert following_cards(hand, [(1, "7C")], TRESETTE) == ["AC", "4C"]
    assert following_cards(hand, [(1, "7S")], TRESETTE) == hand


def test_the_rank_order_is_the_games_own() -> None:
    trick = [(0, "AC"), (1, "3C")]
    assert trick_winner(trick, BRISCOLA, None) == 0  # A 3 R ...
    assert trick_winner(trick, TRESETTE, None) == 1  # 3 2 A ...


def test_no_trump_a_fixed_trump_and_a_turned_one() -> None:
    assert trick_winner([(0, "2H"), (1, "AS"), (2, "3H")], FRENCH, None) == 2
    assert trick_winner([(0, "2H"), (1, "2S"), (2, "AH")], FRENCH, "S") == 1
    assert trick_winner([(0, "RC"), (1, "4B"), (2, "AB")], BRISCOLA, "B") == 2
    assert winning_play([(0, "RC"), (1, "3C")], BRISCOLA, "B") == (1, "3C")


def test_points_and_sides() -> None:
    assert card_points(["AC", "3C", "4C"], {"AC": 11, "3C": 10}) == 21
    assert sides_of(4, True) == ((0, 2), (1, 3))
    assert sides_of(3, False) == ((0,), (1,), (2,))
    assert per_side([3, 1, 4, 1], ((0, 2), (1, 3))) == [7, 2]


def test_tie_break_hands_rank_by_points_and_the_third_by_the_last_trick() -> None:
    assert tiebreak_ranking((0, 1), [70, 50], 1, 0, (0, 0)) == ((2, 1), ())
    assert tiebreak_ranking((0, 1), [60, 60], 2, 0, (0, 0)) == ((0, 0), (0, 1))
    # side 1 took it: loses
    assert tiebreak_ranking((0, 1), [60, 60], 3, 1, (0, 0)) == ((2, 1), ())
    # not tied: shared
    assert tiebreak_ranking((0, 1), [5, 5, 1], 3, 2, (0, 0, 0)) == ((2, 2, 0), ())


def test_an_order_is_built_from_a_rank_list_strongest_first() -> None:
    assert TRESETTE.strength["3C"] > TRESETTE.strength["2C"] > TRESETTE.strength["AC"]
    assert BRISCOLA.strength["AC"] > BRISCOLA.strength["3C"] > BRISCOLA.strength["RC"]
    assert TRESETTE.suit["RB"] == "B"


def test_a_card_played_leaves_its_hand_for_the_trick() -> None:
    hands = (("AC", "4C"), ("3D",), ("7S", "5S"))
    after, trick, event = play_card(hands, ((1, "3D"),), 2, "5S")
    assert after == (("AC", "4C"), ("3D",), ("7S",)) and hands[2] == ("7S", "5S")
    assert trick == ((1, "3D"), (2, "5S"))
    assert event == {"type": "card_played", "seat": 2, "card": "5S"}


def test_a_full_trick_goes_to_its_winner_and_onto_its_pile() -> None:
    trick = ((2, "RC"), (0, "4B"), (1, "AC"))
    winner, event = close_trick(trick, BRISCOLA, "B", 7)
    assert winner == 0
    assert event == {
        "type": "trick_won",
        "seat": 0,
        "number": 7,
        "cards": [[2, "RC"], [0, "4B"], [1, "AC"]],
    }
    assert add_to_pile((("3S",), (), ()), 0, trick) == (("3S", "RC", "4B", "AC"), (), ())


def test_each_seat_draws_from_the_winner_on_while_the_stock_lasts() -> None:
    hands = (("5C",), ("6C",), ("7C",))
    after, stock, drawn, events = draw_in_turn(hands, ("AD", "2D"), 1, lambda c: tuple(sorted(c)))
    assert drawn == ((1, "AD"), (2, "2D")) and stock == ()
    assert after == (("5C",), ("6C", "AD"), ("2D", "7C"))
    assert [e["seat"] for e in events] == [1, 2] and events[0]["type"] == "card_drawn"
    assert draw_in_turn(after, (), 0, tuple) == (after, (), (), [])


@settings(max_examples=300, deadline=None)
@given(
    cards=st.lists(st.sampled_from(full_deck()), min_size=2, max_size=14, unique=True),
    led=st.booleans(),
    first_trick=st.booleans(),
    spades_broken=st.booleans(),
)
def test_a_card_is_playable_exactly_when_it_is_listed(
    cards: list[str], led: bool, first_trick: bool, spades_broken: bool
) -> None:
    # SPADES-5: the check of one card agrees with the list of legal cards it stands for.
    hand, other = cards[:-1], cards[-1]
    trick = ((3, other),) if led else ()
    listed = legal_cards(hand, trick, first_trick=first_trick, spades_broken=spades_broken)
    for card in full_deck():
        assert may_play(
            hand, trick, card, first_trick=first_trick, spades_broken=spades_broken
        ) == (card in listed)
        assert may_follow(hand, trick, card, FRENCH) == (
            card in following_cards(hand, trick, FRENCH)
        )
