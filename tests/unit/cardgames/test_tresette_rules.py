"""Tresette a vincere and Ciapanò scenarios, one or more per rule (TRESETTE-1…11, RULES
§6), and RULES fixtures 11 and 12.

Tables past the deal are built with :func:`table`: hands and trick are written out card
by card, and the cards nowhere else are in the piles the test says.
"""

from __future__ import annotations

from typing import Any

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import InvalidOptions, RuleError
from tavolo.cardgames.games import italian_cards
from tavolo.cardgames.games.tricks.ciapano import Ciapano, penalty_points
from tavolo.cardgames.games.tricks.core import trick_winner
from tavolo.cardgames.games.tricks.tresette import Tresette, declarations_in
from tavolo.cardgames.games.tricks.tresette_cards import ORDER, aces_and_thirds, pile_points
from tavolo.cardgames.games.tricks.tresette_table import TresetteState, TresetteTable

TRESETTE, CIAPANO = Tresette(), Ciapano()


def table(
    game: TresetteTable,
    seats: int,
    hands: dict[int, str],
    *,
    piles: dict[int, str] | None = None,
    turn: int = 0,
    trick: tuple[tuple[int, str], ...] = (),
    options: dict[str, Any] | None = None,
) -> TresetteState:
    """A hand in progress. ``piles`` names some won cards; the rest go to seat 0's pile."""
    base = game.new_game(options, seats, b"hand-built table")
    held = {s: tuple(hands.get(s, "").split()) for s in range(seats)}
    named = {s: tuple(p.split()) for s, p in (piles or {}).items()}
    in_use = (
        {c for h in held.values() for c in h}
        | {c for _, c in trick}
        | {c for p in named.values() for c in p}
    )
    taken = [named.get(s, ()) for s in range(seats)]
    rest = tuple(c for c in italian_cards.deck(game.removed(seats)) if c not in in_use)
    taken[0] = (*taken[0], *rest)
    return base.replace(
        hands=tuple(held[s] for s in range(seats)),
        stock=(),
        turn=turn,
        trick=trick,
        taken=tuple(taken),
        has_played=(True,) * seats,
    )


def play(game: TresetteTable, state: TresetteState, seat: int, card: str) -> Any:
    return game.apply(state, seat, Action(ActionKind.PLAY, cards=(card,)))


def test_tresette_1_deal_ten_each_one_at_a_time_from_the_dealers_right() -> None:
    """TRESETTE-1, and TRESETTE-2: the player on the dealer's right leads."""
    state = TRESETTE.new_game(None, 4, b"deal")
    assert [len(h) for h in state.hands] == [10] * 4 and state.stock == ()
    assert TRESETTE.to_act(state) == {(state.dealer + 1) % 4}


def test_tresette_2_follow_suit_and_the_order_3_2_a_r_c_f_7_6_5_4() -> None:
    state = table(TRESETTE, 4, {1: "AC 4C 3D", 2: "2S"}, turn=1, trick=((0, "5C"),))
    assert {a.cards[0] for a in TRESETTE.legal_actions(state, 1)} == {"AC", "4C"}
    with pytest.raises(RuleError, match="follow suit"):
        play(TRESETTE, state, 1, "3D")
    void = table(TRESETTE, 4, {2: "2S 4D"}, turn=2, trick=((0, "5C"), (1, "AC")))
    assert {a.cards[0] for a in TRESETTE.legal_actions(void, 2)} == {"2S", "4D"}
    assert trick_winner(((0, "AC"), (1, "2C"), (2, "3C"), (3, "RC")), ORDER, None) == 2
    assert trick_winner(((0, "4C"), (1, "3D"), (2, "5C"), (3, "2S")), ORDER, None) == 2


def test_tresette_3_an_ace_is_a_point_figures_a_third_and_the_last_trick_one() -> None:
    assert pile_points(["AC"]) == 1
    assert pile_points(["3C", "2D", "RB"]) == 1
    assert pile_points(["3C", "2D", "7B", "6B", "5B", "4B"]) == 0
    assert aces_and_thirds(["AC", "AD", "3C", "FS"]) == (2, 2)
    assert pile_points(italian_cards.DECK) == 10  # + 1 for the last trick: 11


def test_tresette_4_side_score_and_fixture_11() -> None:
    """Fixture 11: 3 aces, 14 thirds and the last trick score 8; 1 ace and 6 thirds 3."""
    side_a = ["AC", "AD", "AB", *(r + s for r in ("3", "2", "R") for s in "CDBS"), "CC", "CD"]
    assert aces_and_thirds(side_a) == (3, 14)
    assert pile_points(side_a) + 1 == 8
    side_b = [c for c in italian_cards.DECK if c not in side_a]
    assert aces_and_thirds(side_b) == (1, 6)
    assert pile_points(side_b) == 3
    # Played out: side 0 (seats 0+2) holds side A's pile and takes the last trick.
    state = table(
        TRESETTE,
        4,
        {0: "4C", 1: "5C", 2: "7C", 3: "6C"},
        piles={0: " ".join(side_a), 1: " ".join(c for c in side_b if c[0] not in "4567")},
        turn=1,
    )
    for seat, card in ((1, "5C"), (2, "7C"), (3, "6C"), (0, "4C")):
        state, events = play(TRESETTE, state, seat, card)
    scored = next(e for e in events if e["type"] == "hand_scored")
    assert scored["points"] == [8, 3] and scored["aces_and_thirds"] == [[3, 14], [1, 6]]


def test_tresette_5_accusi_on_the_first_turn_add_up_and_are_public() -> None:
    assert declarations_in(("AC", "2C", "3C", "AD", "AB", "4S")) == [
        ("napoletana", ("AC", "2C", "3C")),
        ("three", ("AC", "AD", "AB")),
    ]
    assert declarations_in(("3C", "3D", "3B", "3S")) == [("four", ("3C", "3D", "3B", "3S"))]
    state = TRESETTE.new_game({"accusi": True}, 4, b"accusi")
    seat = state.turn
    state = state.replace(
        hands=tuple(
            ("AC", "2C", "3C", "AD", "AB", "4S", "5S", "6S", "7S", "FS") if s == seat else h
            for s, h in enumerate(state.hands)
        ),
    )
    calls = [a for a in TRESETTE.legal_actions(state, seat) if a.kind is ActionKind.CALL]
    assert [a.call for a in calls] == ["napoletana", "three"]
    for call in calls:
        state, events = TRESETTE.apply(state, seat, call)
        assert events[0]["type"] == "declared"
    public = TRESETTE.view(state, (seat + 1) % 4).public
    assert [d["points"] for d in public["declarations"][seat]] == [3, 3]
    assert "AC" in public["shown"][seat]
    state, _ = play(TRESETTE, state, seat, "4S")
    state = state.replace(turn=seat)  # its turn again, later in the hand
    with pytest.raises(RuleError, match="first turn"):
        TRESETTE.apply(state, seat, calls[0])


def test_tresette_5_accusi_off_refuses_a_declaration() -> None:
    state = TRESETTE.new_game(None, 4, b"off")
    call = Action(ActionKind.CALL, call="napoletana", cards=("AC", "2C", "3C"))
    with pytest.raises(RuleError, match="accusi is off"):
        TRESETTE.apply(state, state.turn, call)


def test_tresette_6_match_to_21_or_31_with_accusi_and_equal_totals_play_on() -> None:
    assert TRESETTE.new_game(None, 4, b"x").options["match_length"] == "points:21"
    assert TRESETTE.new_game({"accusi": True}, 4, b"x").options["match_length"] == "points:31"
    state = table(TRESETTE, 4, {0: "4C", 1: "5C", 2: "6C", 3: "7C"}, turn=1)
    state = state.replace(totals=(20, 10))
    for seat, card in ((1, "5C"), (2, "6C"), (3, "7C"), (0, "4C")):
        state, _ = play(TRESETTE, state, seat, card)
    outcome = TRESETTE.outcome(state)
    assert outcome is not None and outcome.places == (1, 3, 1, 3)
    tied = table(TRESETTE, 4, {0: "4C", 1: "5C", 2: "6C", 3: "7C"}, turn=1)
    tied = tied.replace(totals=(11, 20))  # 10 and the last trick: 21-21 plays on
    for seat, card in ((1, "5C"), (2, "6C"), (3, "7C"), (0, "4C")):
        tied, _ = play(TRESETTE, tied, seat, card)
    assert TRESETTE.outcome(tied) is None and tied.totals == (21, 21)


def test_tresette_7_two_players_draw_after_each_trick_shown_to_both() -> None:
    state = TRESETTE.new_game({"players": 2}, 2, b"two")
    assert [len(h) for h in state.hands] == [10, 10] and len(state.stock) == 20
    leader = state.turn
    lead = state.hands[leader][0]
    state, _ = play(TRESETTE, state, leader, lead)
    other = 1 - leader
    state, events = play(TRESETTE, state, other, TRESETTE.legal_actions(state, other)[0].cards[0])
    drawn = [(e["seat"], e["card"]) for e in events if e["type"] == "card_drawn"]
    winner = events[1]["seat"]
    assert [s for s, _ in drawn] == [winner, 1 - winner]
    public = TRESETTE.view(state, 0).public
    assert [(d["seat"], d["card"]) for d in public["last_drawn"]] == drawn
    for seat, card in drawn:
        assert card in public["shown"][seat]
        assert card not in TRESETTE.hidden_cards(state, 1 - seat)


def test_tresette_7_players_must_be_two_or_four() -> None:
    with pytest.raises(InvalidOptions, match="2 or 4 players"):
        TRESETTE.new_game(None, 3, b"x")
    with pytest.raises(InvalidOptions, match="'players' is 2 but 4 seats"):
        TRESETTE.new_game({"players": 2}, 4, b"x")


def test_tresette_8_ciapano_three_players_without_the_4_of_bastoni() -> None:
    state = CIAPANO.new_game(None, 3, b"three")
    assert [len(h) for h in state.hands] == [13] * 3
    assert "4B" not in CIAPANO.cards_in_play(state)
    four = CIAPANO.new_game(None, 4, b"four")
    assert [len(h) for h in four.hands] == [10] * 4 and four.sides == ((0,), (1,), (2,), (3,))


def test_tresette_9_and_fixture_12_penalty_points_total_11() -> None:
    """Fixture 12: aces 2/1/1/0, thirds 7/5/4/4, P4 takes the last trick: 4, 2, 2, 3."""
    piles = [
        ("AC", "AD", "3C", "3D", "3B", "3S", "2C", "2D", "2B"),
        ("AB", "2S", "RC", "RD", "RB", "RS"),
        ("AS", "CC", "CD", "CB", "CS"),
        ("FC", "FD", "FB", "FS"),
    ]
    assert [aces_and_thirds(p) for p in piles] == [(2, 7), (1, 5), (1, 4), (0, 4)]
    assert [pile_points(p) for p in piles] == [4, 2, 2, 1]
    assert penalty_points(piles, 3) == ([4, 2, 2, 3], False)


def test_tresette_10_cappotto_and_fixture_12() -> None:
    """Fixture 12: a cappotto scores 0 for the taker and 11 for each other player."""
    assert penalty_points([tuple(italian_cards.DECK), (), (), ()], 0) == ([0, 11, 11, 11], True)
    # Seat 0 holds every point; its 7 takes the last trick too: cappotto.
    state = table(CIAPANO, 4, {0: "7C", 1: "5C", 2: "6C", 3: "4C"}, turn=1)
    for seat, card in ((1, "5C"), (2, "6C"), (3, "4C"), (0, "7C")):
        state, events = play(CIAPANO, state, seat, card)
    scored = next(e for e in events if e["type"] == "hand_scored")
    assert scored["cappotto"] is True and scored["points"] == [0, 11, 11, 11]
    # Seat 3's 7 takes the last trick instead: 10 for seat 0, 1 for seat 3.
    state = table(CIAPANO, 4, {0: "4C", 1: "5C", 2: "6C", 3: "7C"}, turn=1)
    for seat, card in ((1, "5C"), (2, "6C"), (3, "7C"), (0, "4C")):
        state, events = play(CIAPANO, state, seat, card)
    scored = next(e for e in events if e["type"] == "hand_scored")
    assert scored["cappotto"] is False and scored["points"] == [10, 0, 0, 1]


def test_tresette_11_the_limit_ends_the_match_and_lowest_ranks_first() -> None:
    state = table(CIAPANO, 4, {0: "4C", 1: "5C", 2: "6C", 3: "7C"}, turn=1)
    state = state.replace(totals=(5, 3, 3, 0))
    for seat, card in ((1, "5C"), (2, "6C"), (3, "7C"), (0, "4C")):
        state, _ = play(CIAPANO, state, seat, card)
    assert state.totals == (15, 3, 3, 1) and CIAPANO.outcome(state) is None  # under 21
    over = table(CIAPANO, 4, {0: "4C", 1: "5C", 2: "6C", 3: "7C"}, turn=1)
    over = over.replace(totals=(12, 3, 3, 0))
    for seat, card in ((1, "5C"), (2, "6C"), (3, "7C"), (0, "4C")):
        over, _ = play(CIAPANO, over, seat, card)
    result = CIAPANO.outcome(over)
    assert result is not None and result.places == (4, 2, 2, 1)


def test_tresette_11_hands_n_and_the_limit_option() -> None:
    with pytest.raises(InvalidOptions, match="'limit' must be one of 21, 31"):
        CIAPANO.new_game({"limit": 25}, 4, b"x")
    state = table(
        CIAPANO,
        4,
        {0: "4C", 1: "5C", 2: "6C", 3: "7C"},
        turn=1,
        options={"match_length": "hands:3"},
    )
    for seat, card in ((1, "5C"), (2, "6C"), (3, "7C"), (0, "4C")):
        state, events = play(CIAPANO, state, seat, card)
    assert CIAPANO.outcome(state) is None and events[-1]["type"] == "hand_dealt"


def test_a_turn_timeout_plays_the_least_harmful_card_and_declares_nothing() -> None:
    """[decision] docs/decisions.md."""
    state = TRESETTE.new_game({"accusi": True}, 4, b"timeout")
    seat = state.turn
    (timer,) = TRESETTE.timers(state)
    after, events = TRESETTE.apply(state, seat, Action(ActionKind.EXPIRE, timer=timer.key))
    assert events[0]["type"] == "timer_expired" and events[1]["type"] == "card_played"
    assert after.declarations[seat] == ()
    played = events[1]["card"]
    assert played[:-1] in "4567" or all(c[:-1] not in "4567" for c in state.hands[seat])
