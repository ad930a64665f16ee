"""The engine's move generation on layouts the rules dealt and played (SOLITARIO-3).

Such a layout is *sound*: every card once, and each column's face-up cards a run, one
rank down and the other colour at each step (only such runs are ever moved or built).
A run is then known from its two ends: the card of rank ``r`` lies in a column whose
run spans ``r``, at depth ``r - top rank`` from the top, and it has the colour the
bottom's colour and the parity of the ranks between give. So the moves onto a column
come from integer comparisons over the columns' ends, with no dictionary of every
face-up card's place (:func:`~tavolo.cardgames.games.solitario.piles.generate_moves`,
which any layout may be given, builds one). Same moves, same order.
"""

from __future__ import annotations

from typing import Final, TypeVar

from tavolo.cardgames.games.solitario.piles import (
    COLUMNS,
    FOUNDATION_PILE,
    KING,
    RANK,
    SUIT_INDEX,
    Layout,
    MoveTable,
    generate_moves,
)

T = TypeVar("T")

CODE: Final[dict[str, int]] = {c: RANK[c] | (c[-1] in "HD") << 4 | SUIT_INDEX[c] << 5 for c in RANK}
"""Each card as one int: its rank (bits 0-3), 1 if red (bit 4) and its suit index."""


def _span(bottom: int, top: int) -> int:
    """The cards of a run from ``bottom`` (rank and colour, bits 0-4 of a code) up to the
    rank ``top``, as bits ``2 * rank + red``: the colour changes at every rank."""
    rank, red = bottom & 15, bottom >> 4
    return sum(1 << (2 * r + (red ^ (rank - r) & 1)) for r in range(top, rank + 1))


_KINGS: Final = 3 << 33  # a king's bits (2 * 13 and 2 * 13 + 1) above a top's code
_SPANS: Final[tuple[int, ...]] = tuple(_span(i >> 4, i & 15) for i in range(512))
""":func:`_span` for every bottom and top rank, at ``(bottom & 31) << 4 | top rank``."""


def layout_moves(layout: Layout, table: MoveTable[T]) -> list[T]:
    """:func:`generate_moves` on ``layout``: by the runs' ends when the layout is sound,
    as any layout otherwise."""
    if not layout.sound:
        return generate_moves(layout.up, layout.down, layout.waste, layout.foundations, table)
    up, down, waste, found = layout.up, layout.down, layout.waste, layout.foundations
    codes = CODE
    moves: list[T] = []
    waste_code = 0
    if waste:
        waste_code = codes[waste[-1]]
        s = waste_code >> 5
        if found[s] == (waste_code & 15) - 1:
            moves.append(table[0][FOUNDATION_PILE + s][1])
    # Each column's run: its cards' bits above its top card's code (0: no run); every run's.
    runs = [0, 0, 0, 0, 0, 0, 0, 0]
    every = 0
    for k in range(1, COLUMNS + 1):
        col = up[k - 1]
        if col:
            code = codes[col[-1]]
            s = code >> 5
            if found[s] == (code & 15) - 1:
                moves.append(table[k][FOUNDATION_PILE + s][1])
            span = _SPANS[(codes[col[0]] & 31) << 4 | code & 15]
            runs[k] = span << 7 | code
            every |= span
    for onto in range(1, COLUMNS + 1):
        under = runs[onto]
        if under == 0:
            if down[onto - 1]:
                continue  # not a real layout: a face-down card is turned up at once
            if waste_code & 15 == KING:
                moves.append(table[0][onto][1])
            for k in range(1, COLUMNS + 1):
                if runs[k] & _KINGS:  # a run from a king: the whole column
                    moves.append(table[k][onto][len(up[k - 1])])
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
        bit = 1 << (2 * rank + (red >> 4))
        if every & bit:  # some run holds a card that fits: which, by column
            for k in range(1, COLUMNS + 1):
                run = runs[k]
                if run >> 7 & bit:
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
