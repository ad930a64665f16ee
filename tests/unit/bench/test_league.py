"""The bot league's machinery (GAMES 8): duplicate deals make equal levels come out
exactly even in every game, its figures mean what its docstring says, and the markdown
table holds one row a pairing."""

from __future__ import annotations

import pytest
from league.play import Pairing, figure, margin, measure, won
from league.report import Row, markdown
from league.tables import rotations, tables

from tavolo.cardgames.contract import Outcome
from tavolo.cardgames.registry import all_games

ALL = tables(sorted(all_games()))


def test_every_game_is_a_table_and_solitario_is_two() -> None:
    """GAMES 8: all 17 games, each at its default seat count and at 2 where offered;
    Klondike at draw 1 and draw 3."""
    assert {t.name for t in ALL} == set(all_games())
    assert [t.options["draw"] for t in ALL if t.name == "solitario"] == [1, 3]


@pytest.mark.parametrize("table", ALL, ids=lambda t: f"{t.label}-{t.seats}")
def test_equal_levels_are_exactly_even(table) -> None:
    """GAMES 8: every deal is played once per rotation of the levels, so two players
    alike (random seeded by seat) come out exactly even: the luck of the deal cancels."""
    even = 0.0 if table.seats == 1 or table.name in ("bestia", "poker", "settemezzo") else 0.5
    tally = measure(Pairing(table, "random", "random"), 1, 1)
    assert tally.figures == [pytest.approx(even)]


@pytest.mark.parametrize("seating", ["one", "half"])
def test_rotations_cover_every_seat_once(seating) -> None:
    """Each seat holds the stronger level in exactly as many rotations as any other."""
    for table in ALL:
        sides = rotations(table, seating)
        counts = [sum(s in side for side in sides) for s in range(table.seats)]
        assert len(set(counts)) == 1, (table, sides)


def test_figures_of_every_finish_at_four_seats() -> None:
    """Places: the share of weaker seats beaten (a tie ½); first places; a margin turned
    where the lowest score wins. Every finishing order of four seats, every side."""
    from itertools import product

    for places in product(range(1, 5), repeat=4):
        outcome = Outcome(places=places, scores=tuple(-p for p in places))
        for strong in [(0,), (1,), (0, 2), (1, 3)]:
            weak = [s for s in range(4) if s not in strong]
            pairs = [(s, w) for s in strong for w in weak]
            expected = sum(
                1.0 if places[s] < places[w] else 0.5 if places[s] == places[w] else 0.0
                for s, w in pairs
            ) / len(pairs)
            assert figure("hearts", outcome, strong) == pytest.approx(expected)
            firsts = {s for s in range(4) if places[s] == 1}
            assert won(outcome, strong) == (
                0.0 if not firsts & set(strong) else 1.0 if firsts <= set(strong) else 0.5
            )
            # scores fall as places rise: the margin reads higher-is-better either way
            flipped = Outcome(places=places, scores=tuple(p for p in places))
            assert margin(outcome, strong) == pytest.approx(margin(flipped, strong))


def test_markdown_holds_a_row_a_pairing() -> None:
    rows = []
    for table in [t for t in ALL if t.name in ("briscola", "poker", "solitario")]:
        pairing = Pairing(table, "random", "easy")
        rows.append(Row(pairing, measure(pairing, 2, 1), 0.0))
    text = markdown(rows, 2).splitlines()
    body = [line for line in text if line.startswith("| ") and "---" not in line]
    assert len(body) == len(rows) + 1  # and the header
    assert all(line.count("|") == body[0].count("|") for line in body)


def test_an_open_uno_window_answers_before_the_turn() -> None:
    """UNO-9's call window, as at a table: a seat whose rule timer runs outside the turn
    moves first whenever it has a move, so the league measures the bots' calls too."""
    import random

    from league.play import next_move

    from tavolo.cardgames.registry import get_game

    game, seen = get_game("uno"), 0
    for seed in range(30):
        state = game.new_game({"match_length": "single"}, 4, f"w{seed}".encode())
        rng = random.Random(seed)
        while game.outcome(state) is None:
            seat, legal = next_move(game, state)
            waiting = game.to_act(state)
            early = [
                t.seat
                for t in game.timers(state)
                if t.kind != "turn" and t.seat not in waiting and game.legal_actions(state, t.seat)
            ]
            if early:
                seen += 1
                assert seat == min(early)
            else:
                assert seat == min(waiting)
            state, _ = game.apply(state, seat, rng.choice(legal))
    assert seen
