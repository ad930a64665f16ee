"""Solitario's move generation and moving, rewritten for speed, against the plain forms
they replaced (SOLITARIO-3, RULES 16.3-16.4).

Layouts are drawn at random, reachable or not (any cards in any column, face-up runs
that do not alternate, foundations at any height), so that the generated moves, the
legality check and a move's result are compared with the straightforward versions on
far more than play reaches.
"""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st

from tavolo.cardgames.actions import ActionKind
from tavolo.cardgames.games.french_deck import full_deck
from tavolo.cardgames.games.solitario.ends import CODE, runs_of
from tavolo.cardgames.games.solitario.piles import (
    COLUMN_NAMES,
    FITS_UNDER,
    FOUNDATION_NAMES,
    KING,
    PILE_NAMES,
    RANK,
    RED,
    SUIT_INDEX,
    WASTE,
    Layout,
    Move,
    Position,
    deal,
    fits_on_column,
    generate_moves,
    is_move,
    list_moves,
    move_cards,
    put,
    take,
    turn_up,
)
from tavolo.cardgames.games.solitario.runs import layout_moves
from tavolo.cardgames.games.solitario.solitario import _MOVES
from tavolo.cardgames.registry import get_game


def plain_moves(pos: Position) -> list[Move]:
    """The moves as they were listed before the rewrite: every face-up card's place in a
    dictionary, the runs onto each column sorted."""
    found = pos.foundations
    moves: list[Move] = []
    waste_top = pos.waste[-1] if pos.waste else None
    where: dict[str, tuple[int, int]] = {}
    for k, col in enumerate(pos.up):
        for i, c in enumerate(col):
            where[c] = (k, len(col) - i)
    if waste_top is not None and found[SUIT_INDEX[waste_top]] + 1 == RANK[waste_top]:
        moves.append((WASTE, FOUNDATION_NAMES[SUIT_INDEX[waste_top]], 1))
    for k, col in enumerate(pos.up):
        if col and found[SUIT_INDEX[col[-1]]] + 1 == RANK[col[-1]]:
            moves.append((COLUMN_NAMES[k], FOUNDATION_NAMES[SUIT_INDEX[col[-1]]], 1))
    for t, target_col in enumerate(pos.up):
        target = COLUMN_NAMES[t]
        if not target_col:
            if pos.down[t]:
                continue
            if waste_top is not None and RANK[waste_top] == KING:
                moves.append((WASTE, target, 1))
            for k, col in enumerate(pos.up):
                if k != t and col and RANK[col[0]] == KING:
                    moves.append((COLUMN_NAMES[k], target, len(col)))
            moves.extend((FOUNDATION_NAMES[s], target, 1) for s in range(4) if found[s] == KING)
            continue
        fitting = FITS_UNDER[target_col[-1]]
        if waste_top is not None and waste_top in fitting:
            moves.append((WASTE, target, 1))
        runs = sorted(where[c] for c in fitting if c in where)
        moves.extend((COLUMN_NAMES[k], target, depth) for k, depth in runs)
        for c in fitting:
            if found[SUIT_INDEX[c]] == RANK[c]:
                moves.append((FOUNDATION_NAMES[SUIT_INDEX[c]], target, 1))
    return moves


def plain_is_move(pos: Position, source: str, target: str, count: int) -> bool:
    """The legality check as it was: by pile names."""
    if source == WASTE:
        if count != 1 or not pos.waste:
            return False
        card = pos.waste[-1]
    elif source in FOUNDATION_NAMES:
        s = FOUNDATION_NAMES.index(source)
        if count != 1 or not pos.foundations[s] or target not in COLUMN_NAMES:
            return False
        card = next(c for c in RANK if SUIT_INDEX[c] == s and RANK[c] == pos.foundations[s])
    elif source in COLUMN_NAMES:
        col = pos.up[COLUMN_NAMES.index(source)]
        if not 1 <= count <= len(col):
            return False
        card = col[-count]
    else:
        return False
    if target in FOUNDATION_NAMES:
        s = FOUNDATION_NAMES.index(target)
        return count == 1 and SUIT_INDEX[card] == s and pos.foundations[s] + 1 == RANK[card]
    if target not in COLUMN_NAMES or target == source:
        return False
    under = pos.up[COLUMN_NAMES.index(target)]
    return fits_on_column(card, under[-1] if under else None)


@st.composite
def layouts(draw: st.DrawFn) -> Layout:
    """Any cards anywhere: columns of up to 13 face-up and 6 face-down cards, a waste, a
    stock and foundations at any height (a card may even show twice)."""
    deck = draw(st.permutations(full_deck()))
    cards = st.sampled_from(deck)
    up = tuple(
        tuple(draw(st.lists(cards, max_size=13, unique=True))) for _ in range(len(COLUMN_NAMES))
    )
    down = tuple(
        tuple(draw(st.lists(cards, max_size=6, unique=True))) for _ in range(len(COLUMN_NAMES))
    )
    waste = tuple(draw(st.lists(cards, max_size=4, unique=True)))
    stock = tuple(draw(st.lists(cards, max_size=4, unique=True)))
    foundations = tuple(draw(st.lists(st.integers(0, KING), min_size=4, max_size=4)))
    return Layout(down, up, stock, waste, foundations)


@settings(max_examples=400, deadline=None)
@given(layouts())
def test_generated_moves_are_the_plain_ones_in_the_same_order(layout: Layout) -> None:
    """SOLITARIO-3: the same moves, in the same order, on any layout."""
    pos = layout.position()
    assert list_moves(pos) == plain_moves(pos)


@settings(max_examples=150, deadline=None)
@given(layouts())
def test_every_pile_pair_and_count_is_checked_as_before(layout: Layout) -> None:
    """SOLITARIO-3: the legality check by pile indexes agrees with the check by names
    for every pair of piles (unknown ones too) and every count."""
    pos = layout.position()
    piles = (*PILE_NAMES, "t8", "stock")
    for source in piles:
        for target in piles:
            for count in range(-1, 16):
                assert is_move(pos, source, target, count) == plain_is_move(
                    pos, source, target, count
                )


@settings(max_examples=300, deadline=None)
@given(layouts())
def test_a_move_lays_out_the_cards_as_take_put_and_turn_up(layout: Layout) -> None:
    """SOLITARIO-3/4: one layout built per move holds what the three steps gave, the
    cards moved and the cards turned up included."""
    for source, target, count in list_moves(layout.position()):
        lifted, cards = take(layout, source, count)
        expected, turned = turn_up(put(lifted, target, cards))
        assert move_cards(layout, source, target, count) == (expected, cards, turned)


def test_dealing_puts_each_card_where_dealing_row_by_row_does() -> None:
    """RULES 16.1: row by row, one card to columns 1-7, then 2-7, ...; the last card a
    column gets is face up and the rest of the deck is the stock, its next card on top."""
    for seed in range(50):
        deck = full_deck()
        random.Random(seed).shuffle(deck)
        layout = deal(list(deck))
        columns: list[list[str]] = [[] for _ in range(7)]
        at = 0
        for row in range(7):
            for k in range(row, 7):
                columns[k].append(deck[at])
                at += 1
        assert layout.up == tuple((col[-1],) for col in columns)
        assert layout.down == tuple(tuple(col[:-1]) for col in columns)
        assert layout.stock == tuple(reversed(deck[at:]))
        assert (layout.waste, layout.foundations) == ((), (0, 0, 0, 0))


def test_moves_by_the_runs_ends_are_those_of_any_layout_on_played_layouts() -> None:
    """SOLITARIO-3: on the layouts the rules deal and play, which keep their runs as
    ints, the moves found from the runs are the moves found from every face-up card, in
    the same order; a layout built by hand or from a short deck keeps no runs."""
    game = get_game("solitario")
    chooser = random.Random(3)
    seen = 0
    for n in range(60):
        options = {"draw": 1 + 2 * (n % 2)}
        state = game.new_game(options, 1, n.to_bytes(4, "big"))
        for _ in range(300):
            layout = state.seats[0].layout
            assert layout.runs == runs_of(layout.up)
            by_cards = generate_moves(
                layout.up, layout.down, layout.waste, layout.foundations, _MOVES
            )
            assert layout_moves(layout, _MOVES) == by_cards
            seen += len(by_cards)
            legal = game.legal_actions(state, 0)[:-1]  # never stop
            if not legal:
                break
            # Mostly moves, so that columns grow long runs and kings reach empty columns.
            moves = [a for a in legal if a.kind is ActionKind.MOVE]
            pick = moves if moves and chooser.random() < 0.8 else legal
            state, _ = game.apply(state, 0, chooser.choice(pick))
    assert seen > 5_000
    assert Layout(*deal(full_deck()).values()).runs is None
    assert deal(full_deck()[:-1]).runs is None


def test_a_cards_code_holds_its_rank_colour_and_suit() -> None:
    """The engine's card codes agree with the rank, colour and suit tables."""
    for card, code in CODE.items():
        assert (code & 15, bool(code & 16), code >> 5) == (RANK[card], RED[card], SUIT_INDEX[card])
    assert sorted(CODE) == sorted(RANK)
