"""Uno rule by rule (RULES.md §2, UNO-1..9) and RULES fixture 20.

Seats play clockwise: the turn passes from seat s to s-1, so with three players the order
is 0, 2, 1.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping, Sequence
from typing import Any

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import InvalidOptions, RuleError
from tavolo.cardgames.games.shedding.deck import COLOUR_LETTERS, DECK
from tavolo.cardgames.games.shedding.pika_state import parse_match_length
from tavolo.cardgames.games.shedding.uno import ACCEPT, CALL_UNO, CHALLENGE, DRAW, KEEP, NAME, Uno
from tavolo.cardgames.games.shedding.uno_state import (
    ANSWER_PLUS4,
    CLOCKWISE,
    NAME_COLOUR,
    UnoRules,
    UnoState,
)
from tavolo.cardgames.rng import SeededRandom

GAME = Uno()
FILLER = {0: ["R7", "R8", "R9"], 1: ["G7", "G8", "G9"], 2: ["B7", "B8", "B9"]}


def uno_table(
    hands: Mapping[int, Sequence[str]],
    top: str,
    *,
    seats: int = 3,
    turn: int = 0,
    colour: str | None = None,
    options: Mapping[str, Any] | None = None,
) -> UnoState:
    """An Uno position: the given hands (others get FILLER), ``top`` face up, the rest of
    the deck in the stock in deck order."""
    opts = GAME.options({**(options or {}), "players": seats})
    hands_limit, points_target = parse_match_length(opts["match_length"])
    rules = UnoRules(
        window_ms=round(opts["uno_window"] * 1000),
        challenge=opts["challenge"] == "on",
        match=opts["match_length"],
        hands_limit=hands_limit,
        points_target=points_target,
    )
    laid = {s: tuple(hands.get(s, FILLER[s])) for s in range(seats)}
    laid_out = Counter([c for h in laid.values() for c in h] + [top])
    stock = []
    for card in DECK:
        if laid_out[card]:
            laid_out[card] -= 1
        else:
            stock.append(card)
    return UnoState(
        rules=rules,
        seats=seats,
        hands=tuple(laid[s] for s in range(seats)),
        stock=tuple(stock),
        discard=(top,),
        colour=COLOUR_LETTERS[colour] if colour else top[0],
        turn=turn,
        direction=CLOCKWISE,
        pending="",
        drawn=None,
        plus4_by=-1,
        plus4_bluff=False,
        shown=None,
        windows=(),
        idle=0,
        step=0,
        turn_started=0,
        dealer=1,
        round=1,
        totals=(0,) * seats,
        recent=(),
        rng=SeededRandom(b"uno table"),
    )


def play(card: str, colour: str | None = None, call: str | None = None) -> Action:
    return Action(ActionKind.PLAY, cards=(card,), colour=colour, call=call)


def act(state: UnoState, seat: int, action: Action) -> UnoState:
    return GAME.apply(state, seat, action)[0]


def plays(state: UnoState, seat: int) -> set[str]:
    return {a.cards[0] for a in GAME.legal_actions(state, seat) if a.kind is ActionKind.PLAY}


def expire(state: UnoState, seat: int, kind: str = "turn") -> tuple[UnoState, list[Any]]:
    (timer,) = [t for t in GAME.timers(state) if t.kind == kind and t.seat == seat]
    return GAME.apply(state, seat, Action(ActionKind.EXPIRE, timer=timer.key))


def dealt_with_top(predicate: Any, seats: int = 3) -> UnoState:
    """The first seeded deal whose turned card satisfies ``predicate``."""
    for n in range(5000):
        state = GAME.new_game({}, seats, f"deal {n}".encode())
        if predicate(state.discard[0]):
            return state
    raise AssertionError("no such deal in 5000 seeds")


# -- UNO-1: the deal ----------------------------------------------------------------------


def test_uno_1_seven_each_and_a_turned_card_never_a_wild_plus4() -> None:
    for n in range(200):
        state = GAME.new_game({}, 4, f"deal {n}".encode())
        assert state.discard[0] != "W+4"
        assert sum(len(h) for h in state.hands) >= 28
        assert sorted(GAME.cards_in_play(state)) == sorted(DECK)


def test_uno_1_the_player_on_the_dealers_left_starts() -> None:
    state = dealt_with_top(lambda c: c[1:].isdigit())
    assert state.turn == (state.dealer - 1) % 3
    assert all(len(h) == 7 for h in state.hands)


def test_uno_1_a_turned_wild_lets_the_first_player_name_the_colour() -> None:
    state = dealt_with_top(lambda c: c == "W")
    first = (state.dealer - 1) % 3
    assert state.turn == first and state.pending == NAME_COLOUR
    assert GAME.legal_actions(state, first) == list(NAME)
    after = act(state, first, NAME[2])
    assert after.colour == "G" and after.turn == first and after.pending == ""


def test_uno_1_a_turned_plus2_makes_the_first_player_draw_2_and_skips_them() -> None:
    state = dealt_with_top(lambda c: c.endswith("+2") and c[0] != "W")
    first = (state.dealer - 1) % 3
    assert len(state.hands[first]) == 9
    assert state.turn == (first - 1) % 3


def test_uno_1_a_turned_reverse_lets_the_dealer_play_first_the_other_way() -> None:
    state = dealt_with_top(lambda c: c.endswith("rev"))
    assert state.turn == state.dealer and state.direction == -CLOCKWISE


def test_uno_1_a_turned_skip_skips_the_first_player() -> None:
    state = dealt_with_top(lambda c: c.endswith("skip"))
    assert state.turn == (state.dealer - 2) % 3


# -- UNO-2: matching, and the wild +4 ------------------------------------------------------


def test_uno_2_match_colour_number_or_symbol_or_any_wild() -> None:
    state = uno_table({0: ["R9", "G5", "Bskip", "W", "Y1"]}, top="R5")
    assert plays(state, 0) == {"R9", "G5", "W"}
    with pytest.raises(RuleError, match="yellow 1 does not match: play red"):
        GAME.apply(state, 0, play("Y1"))


def test_uno_2_fixture_20_a_wild_plus4_only_without_the_colour_in_play() -> None:
    """Fixture 20: green in play, green 3 + wild +4 may not play the +4 (refused with the
    challenge off, a bluff with it on), but blue 3 + wild +4 may."""
    holding_green = uno_table({0: ["G3", "W+4"]}, top="G7", options={"challenge": "off"})
    assert plays(holding_green, 0) == {"G3"}
    with pytest.raises(RuleError, match="legal only when you hold no green card"):
        GAME.apply(holding_green, 0, play("W+4", "red"))
    bluffing = uno_table({0: ["G3", "W+4"]}, top="G7", options={"challenge": "on"})
    assert "W+4" in plays(bluffing, 0)
    honest = uno_table({0: ["B3", "W+4"]}, top="G7", options={"challenge": "off"})
    assert plays(honest, 0) == {"W+4"}


# -- UNO-3: drawing -------------------------------------------------------------------------


def test_uno_3_you_may_always_draw_then_play_only_that_card_or_keep_it() -> None:
    state = uno_table({0: ["R9", "G5"]}, top="R5")
    assert DRAW in GAME.legal_actions(state, 0)
    drawn = act(state, 0, DRAW)
    card = drawn.hands[0][-1]
    assert card == state.stock[0]
    if drawn.drawn is not None:
        legal = GAME.legal_actions(drawn, 0)
        assert {a.cards[0] for a in legal if a.cards} == {card} and KEEP in legal
        with pytest.raises(RuleError, match="only play the card drawn"):
            GAME.apply(drawn, 0, play("R9"))
        kept = act(drawn, 0, KEEP)
        assert kept.turn == 2 and card in kept.hands[0]
    else:
        assert drawn.turn == 2  # the drawn card did not fit: the turn passed


def test_uno_3_a_drawn_card_that_fits_may_be_played_at_once() -> None:
    state = uno_table({0: ["Y1", "Y2"]}, top="R5")
    state.stock = ("R2", *[c for c in state.stock if c != "R2"])
    drawn = act(state, 0, DRAW)
    assert drawn.drawn == "R2"
    after = act(drawn, 0, play("R2"))
    assert after.discard[-1] == "R2" and after.turn == 2


def test_uno_3_an_empty_stock_is_rebuilt_from_the_discards_but_the_top() -> None:
    state = uno_table({0: ["Y1", "Y2"]}, top="R5")
    hidden = state.stock
    state.stock = ()
    state.discard = (*hidden, "R5")
    drawn, events = GAME.apply(state, 0, DRAW)
    assert any(e["type"] == "reshuffle" for e in events)
    assert drawn.discard == ("R5",)
    assert sorted(GAME.cards_in_play(drawn)) == sorted(GAME.cards_in_play(state))


# -- UNO-4: effects -------------------------------------------------------------------------


def test_uno_4_skip_skips_the_next_player() -> None:
    after = act(uno_table({0: ["Rskip", "R1"]}, top="R5"), 0, play("Rskip"))
    assert after.turn == 1


def test_uno_4_reverse_changes_direction_and_is_a_skip_with_two() -> None:
    three = act(uno_table({0: ["Rrev", "R1"]}, top="R5"), 0, play("Rrev"))
    assert three.turn == 1 and three.direction == -CLOCKWISE
    two = act(uno_table({0: ["Rrev", "R1"]}, top="R5", seats=2), 0, play("Rrev"))
    assert two.turn == 0


def test_uno_4_plus2_draws_2_and_loses_the_turn_with_no_stacking() -> None:
    state = uno_table({0: ["R+2", "R1"], 2: ["G+2", "B1", "B2"]}, top="R5")
    after = act(state, 0, play("R+2"))
    assert len(after.hands[2]) == 5 and after.turn == 1
    assert "G+2" in after.hands[2]  # never had a chance to chain it


def test_uno_4_wild_plus4_with_the_challenge_off_draws_4_and_skips() -> None:
    state = uno_table({0: ["W+4", "B1"]}, top="R5", options={"challenge": "off"})
    after = act(state, 0, play("W+4", "blue"))
    assert after.colour == "B" and len(after.hands[2]) == 7 and after.turn == 1


# -- UNO-5: the challenge -------------------------------------------------------------------


def test_uno_5_the_hit_player_accepts_or_challenges() -> None:
    state = uno_table({0: ["W+4", "B1"]}, top="R5")
    hit = act(state, 0, play("W+4", "blue"))
    assert hit.turn == 2 and hit.pending == ANSWER_PLUS4
    assert GAME.legal_actions(hit, 2) == [ACCEPT, CHALLENGE]
    accepted = act(hit, 2, ACCEPT)
    assert len(accepted.hands[2]) == 7 and accepted.turn == 1


def test_uno_5_fixture_20_a_successful_challenge_makes_the_bluffer_draw_4() -> None:
    state = uno_table({0: ["W+4", "R1", "B1"]}, top="R5")
    hit = act(state, 0, play("W+4", "blue"))
    challenged, events = GAME.apply(hit, 2, CHALLENGE)
    assert len(challenged.hands[0]) == 6 and len(challenged.hands[2]) == 3
    assert challenged.turn == 2 and challenged.pending == ""  # the challenger plays on
    assert GAME.view(challenged, 2).private["shown"] == {"seat": 0, "hand": ["R1", "B1"]}
    assert "shown" not in GAME.view(challenged, 1).private
    assert events[0] == {"type": "challenge", "seat": 2, "of": 0, "bluff": True}


def test_uno_5_fixture_20_a_failed_challenge_makes_the_challenger_draw_6() -> None:
    state = uno_table({0: ["W+4", "B1", "G2"]}, top="R5")
    hit = act(state, 0, play("W+4", "blue"))
    challenged = act(hit, 2, CHALLENGE)
    assert len(challenged.hands[2]) == 9 and len(challenged.hands[0]) == 2
    assert challenged.turn == 1


# -- UNO-6: calling UNO ---------------------------------------------------------------------


def test_uno_6_a_play_leaving_one_card_opens_the_window_missing_it_costs_2() -> None:
    state = uno_table({0: ["R1", "R2"]}, top="R5")
    after = act(state, 0, play("R1"))
    assert GAME.legal_actions(after, 0) == [CALL_UNO]
    penalised, _ = expire(after, 0, "call")
    assert len(penalised.hands[0]) == 3
    called = act(after, 0, CALL_UNO)
    assert called.windows == () and len(called.hands[0]) == 1


def test_uno_6_calling_with_the_play_opens_no_window() -> None:
    after = act(uno_table({0: ["R1", "R2"]}, top="R5"), 0, play("R1", call="uno"))
    assert after.windows == ()


# -- UNO-7: going out and the stall ----------------------------------------------------------


def test_uno_7_going_out_ends_the_hand() -> None:
    state = uno_table({0: ["R1"]}, top="R5", options={"match_length": "single"})
    over, events = GAME.apply(state, 0, play("R1"))
    outcome = GAME.outcome(over)
    assert outcome is not None and outcome.places[0] == 1
    assert [e["type"] for e in events][-2:] == ["hand_end", "game_over"]


def test_uno_7_a_final_plus2_still_makes_the_next_player_draw() -> None:
    state = uno_table({0: ["R+2"]}, top="R5", options={"match_length": "single"})
    over, events = GAME.apply(state, 0, play("R+2"))
    end = next(e for e in events if e["type"] == "hand_end")
    assert len(end["hands"][2]) == 5
    assert GAME.outcome(over) is not None


def test_uno_7_a_stall_goes_to_the_lowest_hand_and_a_tie_scores_nobody() -> None:
    def stalled(hands: tuple[tuple[str, ...], ...]) -> UnoState:
        state = uno_table({}, top="R5", options={"match_length": "single"})
        state.stock, state.hands = (), hands  # nothing left to draw: the pile is dry
        for _ in range(3):  # a whole table round of turns with nothing played
            state, _ = expire(state, state.turn)
        return state

    outcome = GAME.outcome(stalled((("Y1",), ("Y9", "B9"), ("Y5",))))
    assert outcome is not None and outcome.places == (1, 3, 2)
    assert outcome.scores == (23, 0, 0)
    tied = GAME.outcome(stalled((("Y5",), ("Y9", "B9"), ("G5",))))
    assert tied is not None and tied.scores == (0, 0, 0) and tied.places == (1, 3, 1)


# -- UNO-8 / fixture 20: scoring -------------------------------------------------------------


def test_uno_8_fixture_20_the_winner_scores_156() -> None:
    """Opponents' hands [7, skip, wild] = 77 and [0, 9, +2, wild +4] = 79: 156."""
    state = uno_table(
        {0: ["B1"], 1: ["G7", "Gskip", "W"], 2: ["R0", "Y9", "B+2", "W+4"]},
        top="B5",
        options={"match_length": "single"},
    )
    over = act(state, 0, play("B1"))
    outcome = GAME.outcome(over)
    assert outcome is not None and outcome.scores == (156, 0, 0)
    assert outcome.places == (1, 2, 3)  # single: the others by points held, lowest first


# -- UNO-9: the match -----------------------------------------------------------------------


def test_uno_9_a_match_to_500_deals_again_until_someone_reaches_it() -> None:
    state = uno_table({0: ["B1"]}, top="B5")
    after, events = GAME.apply(state, 0, play("B1"))
    assert GAME.outcome(after) is None and after.round == 2 and after.totals[0] == 48
    assert after.dealer == 0  # the deal passes clockwise (RULES §0.4)
    assert any(e["type"] == "deal" for e in events)


def test_uno_9_options_are_checked_by_name() -> None:
    with pytest.raises(InvalidOptions, match="option 'challenge' must be one of 'on', 'off'"):
        GAME.new_game({"challenge": "maybe"}, 4, b"s")
    with pytest.raises(InvalidOptions, match="match_length"):
        GAME.new_game({"match_length": "forever"}, 4, b"s")
    with pytest.raises(InvalidOptions, match="2 to 10 players"):
        GAME.new_game({}, 11, b"s")


# -- timers --------------------------------------------------------------------------------


def test_a_turn_timeout_accepts_a_plus4_rather_than_risking_6() -> None:
    hit = act(uno_table({0: ["W+4", "B1"]}, top="R5"), 0, play("W+4", "blue"))
    after, _ = expire(hit, 2)
    assert len(after.hands[2]) == 7 and after.turn == 1


def test_a_turn_timeout_names_the_colour_held_most() -> None:
    state = dealt_with_top(lambda c: c == "W")
    first = state.turn
    after, _ = expire(state, first)
    counts = Counter(c[0] for c in state.hands[first] if c[0] != "W")
    assert counts[after.colour] == max(counts.values())


def test_a_turn_timeout_draws_one_card_and_passes() -> None:
    state = uno_table({0: ["R1", "R2"]}, top="R5")
    after, _ = expire(state, 0)
    assert len(after.hands[0]) == 3 and after.turn == 2
