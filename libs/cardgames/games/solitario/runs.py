"""The engine's move generation on layouts the rules dealt and played (SOLITARIO-3).

Such a layout keeps each column's run as an int (:mod:`.ends`): every card is there
once, and each column's face-up cards are a run, one rank down and the other colour at
each step (only such runs are ever moved or built). The card of rank ``r`` and a colour
lies in the column whose run's bits hold it, at depth ``r - top rank`` from the top, so
the moves onto a column come from integer tests, with no dictionary of every face-up
card's place (:func:`~tavolo.cardgames.games.solitario.piles.generate_moves`, which any
layout may be given, builds one). Same moves, same order.
"""

from __future__ import annotations

from typing import TypeVar

from tavolo.cardgames.games.solitario.ends import CODE, KINGS
from tavolo.cardgames.games.solitario.piles import (
    COLUMNS,
    FOUNDATION_PILE,
    KING,
    Layout,
    MoveTable,
    generate_moves,
)

T = TypeVar("T")


def layout_moves(layout: Layout, table: MoveTable[T]) -> list[T]:
    """:func:`generate_moves` on ``layout``: from its runs when it keeps them, as any
    layout otherwise."""
    runs = layout.runs
    if runs is None:
        return generate_moves(layout.up, layout.down, layout.waste, layout.foundations, table)
    found = layout.foundations
    moves: list[T] = []
    waste_code = 0
    if layout.waste:
        waste_code = CODE[layout.waste[-1]]
        s = waste_code >> 5
        if found[s] == (waste_code & 15) - 1:
            moves.append(table[0][FOUNDATION_PILE + s][1])
    every = 0  # the bits of every run's cards
    for k in range(1, COLUMNS + 1):
        run = runs[k - 1]
        if run:
            s = run >> 5 & 3
            if found[s] == (run & 15) - 1:
                moves.append(table[k][FOUNDATION_PILE + s][1])
            every |= run
    for onto in range(1, COLUMNS + 1):
        under = runs[onto - 1]
        if under == 0:
            if layout.down[onto - 1]:
                continue  # not a real layout: a face-down card is turned up at once
            if waste_code & 15 == KING:
                moves.append(table[0][onto][1])
            if every & KINGS:
                for k in range(1, COLUMNS + 1):
                    if runs[k - 1] & KINGS:  # a run from a king: the whole column
                        moves.append(table[k][onto][len(layout.up[k - 1])])
            # A foundation's top card may go back to a column (RULES 16.3): a king here.
            for s in range(4):
                if found[s] == KING:
                    moves.append(table[FOUNDATION_PILE + s][onto][1])
            continue
        rank = (under & 15) - 1
        if rank == 0:
            continue  # an ace: nothing goes under it
        red = (under & 16) ^ 16  # the colour that goes under it, as bit 4 of a code
        if waste_code & 31 == rank | red:
            moves.append(table[0][onto][1])
        bit = 1 << (2 * rank + (red >> 4) + 7)
        if every & bit:  # some run holds a card that fits: which, by column
            for k in range(1, COLUMNS + 1):
                run = runs[k - 1]
                if run & bit:
                    moves.append(table[k][onto][rank - (run & 15) + 1])
        # The foundations of the other colour, in suit order (as FITS_UNDER lists them).
        if red:
            if found[1] == rank:
                moves.append(table[FOUNDATION_PILE + 1][onto][1])
            if found[2] == rank:
                moves.append(table[FOUNDATION_PILE + 2][onto][1])
        else:
            if found[0] == rank:
                moves.append(table[FOUNDATION_PILE][onto][1])
            if found[3] == rank:
                moves.append(table[FOUNDATION_PILE + 3][onto][1])
    return moves
