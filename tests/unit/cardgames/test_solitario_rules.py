"""Solitario (Klondike) scenarios, one or more per rule (SOLITARIO-1…6, RULES §16), and the
RULES fixtures 28 and 29 worked by hand.

Layouts are built with :func:`layout`: columns written as ``"down | up"`` card codes, the
waste and stock as codes, foundations as the top rank per suit (S, H, D, C).
"""

from __future__ import annotations

from typing import Any

import pytest

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import GameOver, InvalidOptions, RuleError
from tavolo.cardgames.games.french_deck import full_deck
from tavolo.cardgames.games.solitario.piles import (
    Layout,
    deal,
    has_scoring_move,
    list_moves,
)
from tavolo.cardgames.games.solitario.solitario import (
    OUT_OF_TIME,
    STOPPED,
    TIMED_OUT,
    WON,
    SeatGame,
    Solitario,
    SolitarioState,
)
from tavolo.cardgames.rng import SeededRandom

GAME = Solitario()
DRAW = Action(ActionKind.DRAW)
STOP = Action(ActionKind.STOP)


def layout(
    columns: list[str],
    *,
    waste: str = "",
    stock: str = "",
    foundations: tuple[int, int, int, int] = (0, 0, 0, 0),
) -> Layout:
    """Columns as ``"down cards | up cards"`` (bottom first); ``stock``'s last is its top."""
    down, up = [], []
    for text in [*columns, *[""] * (7 - len(columns))]:
        below, _, above = text.rpartition("|") if "|" in text else ("", "", text)
        down.append(tuple(below.split()))
        up.append(tuple(above.split()))
    return Layout(
        down=tuple(down),
        up=tuple(up),
        stock=tuple(stock.split()),
        waste=tuple(waste.split()),
        foundations=foundations,
    )


def table(
    lay: Layout, *, score: int = 0, options: dict[str, Any] | None = None, seats: int = 1
) -> SolitarioState:
    base = GAME.new_game(options, seats, b"hand-built layout")
    game = SeatGame(lay, score, 0, 0, 0, None)
    return base.replace(seats=(game,) * seats)


def move(state: SolitarioState, source: str, target: str, count: int = 1, seat: int = 0) -> Any:
    action = Action(ActionKind.MOVE, source=source, target=target, count=count)
    return GAME.apply(state, seat, action)


def score(state: SolitarioState, seat: int = 0) -> int:
    return state.seats[seat].score


def moves_of(state: SolitarioState) -> set[tuple[str | None, str | None, int | None]]:
    return {
        (a.source, a.target, a.count)
        for a in GAME.legal_actions(state, 0)
        if a.kind is ActionKind.MOVE
    }


# -- SOLITARIO-1: the layout -----------------------------------------------------------


def test_solitario_1_deal_is_row_by_row_with_the_last_card_face_up() -> None:
    """SOLITARIO-1: column k holds k-1 face-down cards under one face-up card; the deal
    goes row by row, and the 24 cards left are the stock."""
    deck = full_deck()
    lay = deal(deck)
    assert [len(d) for d in lay.down] == [0, 1, 2, 3, 4, 5, 6]
    assert all(len(u) == 1 for u in lay.up)
    assert lay.up[0] == (deck[0],)  # the first row: one card to each column
    assert lay.down[1] == (deck[1],) and lay.up[1] == (deck[7],)  # the second row starts at 2
    assert lay.up[6] == (deck[27],)  # column 7's last card, the 28th dealt
    assert len(lay.stock) == 24 and lay.stock[-1] == deck[28]  # the next card is on top
    assert sorted(lay.cards()) == sorted(deck)


def test_solitario_1_every_seat_gets_the_same_deal() -> None:
    """SOLITARIO-1, 6: one deal for the table; every seat plays it."""
    state = GAME.new_game({}, 3, b"same deal")
    assert state.seats[0] == state.seats[1] == state.seats[2]
    assert GAME.view(state, 0).private == GAME.view(state, 2).private


# -- SOLITARIO-2: a playable deal --------------------------------------------------------


def test_solitario_2_a_deal_without_a_scoring_move_is_dealt_again() -> None:
    """SOLITARIO-2: a deal with no face-up ace and no face-up card of columns 2-7 that fits
    on another is reshuffled; the table gets the first deal that has one."""
    seed = next(s for s in (f"redeal {i}".encode() for i in range(500)) if _first_unplayable(s))
    state = GAME.new_game({}, 1, seed)
    assert state.redeals >= 1
    assert has_scoring_move(state.seats[0].layout)
    assert moves_of(state), "the deal offers a move at once"


def _first_unplayable(seed: bytes) -> bool:
    deck = full_deck()
    SeededRandom(seed).shuffle(deck)
    return not has_scoring_move(deal(deck))


def test_solitario_2_the_check_reads_aces_and_columns_2_to_7() -> None:
    """SOLITARIO-2: a face-up ace is enough; so is a card of columns 2-7 fitting on another;
    column 1's card fitting elsewhere is not."""
    assert has_scoring_move(layout(["5S", "AD", "9C", "2H", "JS", "4D", "6C"]))
    assert has_scoring_move(layout(["5S", "9D", "8C", "2H", "JS", "4D", "6C"]))  # 8C on 9D
    assert not has_scoring_move(layout(["8C", "9D", "KS", "2H", "JS", "4D", "6C"]))
    assert not has_scoring_move(layout(["9H", "KC", "QS", "2H", "JS", "4D", "6C"]))


# -- SOLITARIO-3: building -----------------------------------------------------------------


def test_solitario_3_foundations_build_up_by_suit_from_the_ace() -> None:
    """SOLITARIO-3: an ace starts its suit's foundation; the 2 of that suit follows, not
    another suit's 2 and not a 3."""
    state = table(layout(["KD | AS", "2S", "2H", "3S"], stock="5C"))
    assert ("t1", "fS", 1) in moves_of(state)
    assert not any(t.startswith("f") for s, t, _ in moves_of(state) if s != "t1")
    state, _ = move(state, "t1", "fS")
    assert ("t2", "fS", 1) in moves_of(state)
    assert ("t3", "fH", 1) not in moves_of(state)
    with pytest.raises(RuleError, match="cannot go to fS"):
        move(state, "t4", "fS")


def test_solitario_3_columns_build_down_in_alternating_colours() -> None:
    """SOLITARIO-3: a red 9 goes on a black 10, never on a red 10 or a black 9."""
    state = table(layout(["10S", "10H", "9D", "9C"], stock="5C"))
    assert ("t3", "t1", 1) in moves_of(state)
    assert ("t3", "t2", 1) not in moves_of(state)
    assert ("t4", "t2", 1) in moves_of(state)
    assert ("t4", "t1", 1) not in moves_of(state)
    with pytest.raises(RuleError):
        move(state, "t3", "t2")


def test_solitario_3_a_run_moves_as_a_unit_and_the_card_under_turns_up() -> None:
    """SOLITARIO-3: a face-up run moves whole or from any card of it; a face-down card left
    on top of a column is turned up at once."""
    state = table(layout(["QH", "4C | JS 10H 9C", "JC"], stock="5C"))
    assert ("t2", "t1", 3) in moves_of(state)  # J♠ 10♥ 9♣ onto Q♥
    assert ("t2", "t3", 2) in moves_of(state)  # or only its 10♥ 9♣ onto the J♣
    after, events = move(state, "t2", "t1", 3)
    lay = after.seats[0].layout
    assert lay.up[0] == ("QH", "JS", "10H", "9C")
    assert lay.up[1] == ("4C",) and lay.down[1] == ()
    assert events[0]["turned_up"] == ["4C"]


def test_solitario_3_only_a_king_fills_an_empty_column() -> None:
    """SOLITARIO-3: an empty column takes a king or a run headed by one, nothing else."""
    state = table(layout(["", "3D | KS QH", "QC", "AH"], waste="KD", stock="5C"))
    found = moves_of(state)
    assert ("t2", "t1", 2) in found and ("waste", "t1", 1) in found
    assert ("t3", "t1", 1) not in found
    with pytest.raises(RuleError, match="only a king fills an empty column"):
        move(state, "t3", "t1")


def test_solitario_3_a_foundation_top_may_go_back_to_a_column() -> None:
    """SOLITARIO-3: the top card of a foundation may come back onto a column it fits."""
    state = table(layout(["3H", "9C"], stock="5C", foundations=(2, 0, 0, 0)))
    assert ("fS", "t1", 1) in moves_of(state)
    after, _ = move(state, "fS", "t1")
    assert after.seats[0].layout.up[0] == ("3H", "2S")
    assert after.seats[0].layout.foundations == (1, 0, 0, 0)


# -- SOLITARIO-4: the stock ---------------------------------------------------------------


def test_solitario_4_draw_one_or_three_and_only_the_waste_top_plays() -> None:
    """SOLITARIO-4: draw turns 1 card (or 3) onto the waste; only its top card plays."""
    lay = layout(["10S", "KD | 2H"], stock="9D 8H AC 9H")  # AC 9H: 9H on top
    one = table(lay)
    one, events = GAME.apply(one, 0, DRAW)
    assert events[0]["cards"] == ["9H"] and one.seats[0].layout.waste == ("9H",)
    three = table(lay, options={"draw": 3})
    three, events = GAME.apply(three, 0, DRAW)
    assert events[0]["cards"] == ["9H", "AC", "8H"]
    found = moves_of(three)
    assert ("waste", "t1", 1) not in found  # the 9♥ is under the 8♥ now
    assert ("waste", "fC", 1) not in found


def test_solitario_4_the_waste_turns_over_into_the_stock() -> None:
    """SOLITARIO-4: with the stock empty, draw recycles the waste in its first order."""
    state = table(layout(["KD | 2H"], waste="9D 8H 7C"))
    state, events = GAME.apply(state, 0, DRAW)
    assert events[0]["type"] == "recycled"
    assert state.seats[0].layout.stock == ("7C", "8H", "9D")
    state, events = GAME.apply(state, 0, DRAW)
    assert events[0]["cards"] == ["9D"]


@pytest.mark.parametrize(("draw", "recycles"), [(1, 0), (3, 2)])
def test_solitario_4_vegas_allows_one_pass_with_draw_1_and_three_with_draw_3(
    draw: int, recycles: int
) -> None:
    """SOLITARIO-4, 5: Vegas scoring gives draw-1 one pass and draw-3 three."""
    state = table(layout(["KD | 2H"], waste="9D"), options={"scoring": "vegas", "draw": draw})
    for _ in range(recycles):
        state, _ = GAME.apply(state, 0, DRAW)  # recycle
        state, _ = GAME.apply(state, 0, DRAW)  # the 9♦ again
    assert DRAW not in GAME.legal_actions(state, 0)
    with pytest.raises(RuleError, match="may not be turned over again"):
        GAME.apply(state, 0, DRAW)


# -- SOLITARIO-5: scoring --------------------------------------------------------------------


def test_solitario_5_fixture_28_standard_draw_1() -> None:
    """SOLITARIO-5, fixture 28: A♠ column→foundation with a turn-up 15; 2♠ waste→foundation
    25; 9♥ waste→column 30; 2♠ back to a column 15; a recycle floors at 0."""
    state = table(layout(["KD | AS", "10S", "3H", "QC | JD"], waste="5C 9H 2S"))
    state, _ = move(state, "t1", "fS")
    assert score(state) == 15
    state, _ = move(state, "waste", "fS")
    assert score(state) == 25
    state, _ = move(state, "waste", "t2")
    assert score(state) == 30
    state, _ = move(state, "fS", "t3")
    assert score(state) == 15
    state, events = GAME.apply(state, 0, DRAW)
    assert events[0]["points"] == -100
    assert score(state) == 0


def test_solitario_5_fixture_29_vegas() -> None:
    """SOLITARIO-5, fixture 29: Vegas starts at -52; two cards up make -42; one back -47."""
    state = GAME.new_game({"scoring": "vegas"}, 1, b"vegas")
    assert score(state) == -52
    state = table(
        layout(["KD | AS", "QC | 2S", "3H"], stock="5C"), score=-52, options={"scoring": "vegas"}
    )
    state, _ = move(state, "t1", "fS")
    state, _ = move(state, "t2", "fS")
    assert score(state) == -42
    state, _ = move(state, "fS", "t3")
    assert score(state) == -47


def test_solitario_5_draw_3_recycles_are_free_twice_then_cost_20() -> None:
    """SOLITARIO-5: with draw-3, the first two recycles cost nothing, then 20 each."""
    state = table(layout(["KD | 2H"], waste="9D"), score=100, options={"draw": 3})
    costs = []
    for _ in range(4):
        state, events = GAME.apply(state, 0, DRAW)
        costs.append(events[0]["points"])
        state, _ = GAME.apply(state, 0, DRAW)
    assert costs == [0, 0, -20, -20]
    assert score(state) == 60


def test_solitario_5_timed_play_costs_2_every_10_seconds_and_pays_a_bonus() -> None:
    """SOLITARIO-5: timed standard play loses 2 points at each 10-second tick; a win after
    more than 30 seconds adds ⌊700000 ÷ seconds⌋."""
    lay = layout(["KS", "KH", "QH"], foundations=(12, 11, 13, 13))  # one move from the end
    state = table(lay, score=500, options={"timed": True})
    for _ in range(4):
        clock = next(t for t in GAME.timers(state) if t.kind == "clock")
        assert clock.millis == 10_000
        state, _ = GAME.apply(state, 0, Action(ActionKind.EXPIRE, timer=clock.key))
    assert score(state) == 492 and state.seats[0].seconds == 40
    state, _ = move(state, "t3", "fH")  # the kings go home by auto-finish
    assert state.seats[0].finished == WON
    assert score(state) == 492 + 3 * 10 + 700_000 // 40


def test_solitario_5_timed_is_for_standard_scoring_only() -> None:
    """SOLITARIO-5: ``timed`` with Vegas scoring is refused, naming the option."""
    with pytest.raises(InvalidOptions, match="'timed'"):
        GAME.new_game({"timed": True, "scoring": "vegas"}, 1, b"x")
    with pytest.raises(InvalidOptions, match="'draw' must be one of 1, 3"):
        GAME.new_game({"draw": 2}, 1, b"x")


# -- SOLITARIO-6: the end and several seats ----------------------------------------------------


def test_solitario_6_everything_face_up_finishes_by_itself() -> None:
    """SOLITARIO-6 (auto-finish): once nothing is face down and the stock and waste are
    empty, the cards go home by themselves and the seat has won."""
    lay = layout(["QH | KS", "KH"], foundations=(12, 11, 13, 13))
    state = table(lay, options={"scoring": "vegas"}, score=0)
    state, events = move(state, "t1", "t3")  # the Q♥ turns up: nothing is face down
    assert [e["type"] for e in events] == ["moved", "auto_finished", "finished", "game_over"]
    assert state.seats[0].finished == WON
    assert state.seats[0].layout.won()
    assert events[1]["cards"] == ["QH", "KH", "KS"]  # lowest first, then by column
    assert score(state) == 15  # three cards home at 5 each
    assert GAME.outcome(state) is not None


def test_solitario_6_stop_ends_a_seat_and_nothing_more_is_accepted() -> None:
    """SOLITARIO-6: a seat may stop; its score stands and no action is accepted after."""
    state, events = GAME.apply(GAME.new_game({}, 1, b"stop"), 0, STOP)
    assert events[0]["result"] == STOPPED
    assert GAME.outcome(state) is not None
    with pytest.raises(GameOver):
        GAME.apply(state, 0, DRAW)


def test_solitario_6_a_turn_timeout_stops_the_seat_with_its_score() -> None:
    """SOLITARIO-6 (timers [decision]): an inactivity timeout ends the seat's game; it
    never draws or recycles for the player."""
    state = table(layout(["KD | 2H"], waste="9D"), score=35)
    turn = next(t for t in GAME.timers(state) if t.kind == "turn")
    state, events = GAME.apply(state, 0, Action(ActionKind.EXPIRE, timer=turn.key))
    assert events[0]["type"] == "timer_expired"
    assert state.seats[0].finished == TIMED_OUT and score(state) == 35


def test_solitario_6_several_seats_play_apart_and_rank_by_score() -> None:
    """SOLITARIO-6: seats play at once, each sees only its own layout and everyone's
    score, each has a time limit; equal scores share a place."""
    state = table(layout(["KD | AS", "QC | 2S"], stock="5C"), seats=3)
    assert GAME.to_act(state) == frozenset({0, 1, 2})
    limits = [t for t in GAME.timers(state) if t.kind == "time_limit"]
    assert [t.seat for t in limits] == [0, 1, 2] and limits[0].millis == 600_000
    state, _ = move(state, "t1", "fS", seat=0)
    assert GAME.view(state, 1).private["columns"][0] == ["AS"]  # seat 1's layout unchanged
    assert GAME.view(state, 1).public["scores"] == [15, 0, 0]
    assert GAME.view(state, 1).hand == ("AS", "2S")
    assert sorted(GAME.view(state, 0).hand) == ["2S", "AS", "KD"]
    assert GAME.hidden_cards(state, 1).count("KD") == 3  # seats 0 and 2, and its own
    state, _ = GAME.apply(state, 0, STOP)
    state, _ = GAME.apply(state, 1, Action(ActionKind.EXPIRE, timer=limits[1].key))
    assert state.seats[1].finished == OUT_OF_TIME
    assert GAME.outcome(state) is None
    state, _ = GAME.apply(state, 2, STOP)
    outcome = GAME.outcome(state)
    assert outcome is not None and outcome.places == (1, 2, 2)


def test_solitario_6_one_seat_has_no_time_limit() -> None:
    """SOLITARIO-6: a single seat plays without a time limit."""
    state = GAME.new_game({}, 1, b"alone")
    assert [t.kind for t in GAME.timers(state)] == ["turn"]


def test_solitario_moves_are_generated_as_the_rules_list_them() -> None:
    """GAMES 7: the generated moves are exactly the moves the direct check accepts."""
    from tavolo.cardgames.games.solitario.piles import COLUMN_NAMES, FOUNDATION_NAMES, is_move

    piles = ["waste", *COLUMN_NAMES, *FOUNDATION_NAMES]
    for i in range(40):
        state = GAME.new_game({}, 1, f"gen {i}".encode())
        for _ in range(30):
            pos = state.seats[0].layout.position()
            listed = set(list_moves(pos))
            direct = {
                (s, t, n)
                for s in piles
                for t in piles
                for n in range(1, 14)
                if is_move(pos, s, t, n)
            }
            assert listed == direct
            legal = [a for a in GAME.legal_actions(state, 0) if a.kind is not ActionKind.STOP]
            if not legal:
                break
            state, _ = GAME.apply(state, 0, legal[(i * 7) % len(legal)])
