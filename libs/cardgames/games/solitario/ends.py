"""Cards and face-up runs as ints, for the engine's hot paths (SOLITARIO-3).

On a layout the rules dealt and played, each column's face-up cards are a run (one rank
down and the other colour at each step), so a run is known from its two ends. Its int,
:func:`run_of`, holds its top card's code in bits 0-6 and, above them, one bit
``2 * rank + red`` for each of its cards: whether a run holds a card is one test.
"""

from __future__ import annotations

from typing import Final

from tavolo.cardgames.games.french_deck import SUITS, full_deck

CODE: Final[dict[str, int]] = {
    c: (1 + (i % 13 + 1) % 13) | (c[-1] in "HD") << 4 | SUITS.index(c[-1]) << 5
    for i, c in enumerate(full_deck())
}
"""Each card (the deck's own strings, found by identity) as one int: its Klondike rank
(bits 0-3, the ace 1), 1 if red (bit 4) and its suit index (bits 5-6)."""
KINGS: Final = 3 << 33
"""A run's bits for a king (``2 * 13`` and ``2 * 13 + 1``, above the top's code): a run
holds a king only from the column's bottom."""


def _span(bottom: int, top: int) -> int:
    """The cards of a run from ``bottom`` (rank and colour, bits 0-4 of a code) up to the
    rank ``top``, as bits ``2 * rank + red``: the colour changes at every rank."""
    rank, red = bottom & 15, bottom >> 4
    return sum(1 << (2 * r + (red ^ (rank - r) & 1)) for r in range(top, rank + 1))


_SPANS: Final[tuple[int, ...]] = tuple(_span(i >> 4, i & 15) << 7 for i in range(512))
""":func:`_span`, shifted above a top's code, at ``(bottom & 31) << 4 | top rank``."""


def run_of(column: tuple[str, ...]) -> int:
    """A column's face-up run as one int (0: none)."""
    if not column:
        return 0
    codes = CODE
    top = codes[column[-1]]
    return _SPANS[(codes[column[0]] & 31) << 4 | top & 15] | top


def runs_of(up: tuple[tuple[str, ...], ...]) -> tuple[int, ...]:
    """:func:`run_of` for each column."""
    return tuple([run_of(col) for col in up])
