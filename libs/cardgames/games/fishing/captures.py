"""Which table cards a played card may take (SCOPA-3/4, ASSO-3, CIRULLA-3/4).

Captures come as tuples of table positions (or of whatever labels the caller gives each
position, such as the table's cards), ascending, in a stable order. They are *generated*,
never filtered out of a larger list: one depth-first walk per card value extends a
partial set only while it can still reach one of the value's target sums (GAMES.md 7),
and it meets the sets in ascending order, so nothing is sorted afterwards. The work
follows the number of answers, never the 2^n subsets of the table.
"""

from __future__ import annotations

from typing import Final, TypeVar

SCOPA: Final = "scopa"
ASSO: Final = "asso"
CIRULLA: Final = "cirulla"
STYLES: Final = (SCOPA, ASSO, CIRULLA)
CIRULLA_SUM: Final = 15
"""Cirulla's second way to capture: cards summing to 15 minus the played card."""

Capture = tuple[int, ...]
T = TypeVar("T")

POSITIONS: Final = tuple(tuple(range(n)) for n in range(41))
"""The labels of a table's positions when the caller wants positions back."""


def capture_sets(
    style: str, values: tuple[int, ...], labels: tuple[T, ...], value: int, fewest: bool
) -> list[tuple[T, ...]]:
    """The captures open to a card of ``value`` on a table of ``values``, each as the
    ``labels`` of its positions: SCOPA-3/4 (one equal card if any, the player's pick;
    else two or more summing to the value, only the fewest with ``fewest``), ASSO-3 and
    CIRULLA-4 (an ace), CIRULLA-3 (also one or more summing to 15 minus the value)."""
    found: list[tuple[T, ...]] = []
    n = len(values)
    if not n:
        return found
    if value == 1 and style != SCOPA:
        _ace_sets(values, labels, found)
        return found
    equal = value in values
    if equal and style != CIRULLA:
        for i in range(n):
            if values[i] == value:
                found.append((labels[i],))
        return found
    second = CIRULLA_SUM - value if style == CIRULLA else 0
    low, high = (value, second) if value < second else (second or value, value)
    rest = 0
    for i in range(n):
        rest += values[i]
    if rest < low:  # the whole table cannot reach a target
        return found
    _walk(values, labels, 0, 0, rest, [], value, second, equal, low, high, found)
    if fewest and style != CIRULLA and found:
        least = n
        for taken in found:
            if len(taken) < least:
                least = len(taken)
        found = [taken for taken in found if len(taken) == least]
    return found


def _walk(
    values: tuple[int, ...],
    labels: tuple[T, ...],
    start: int,
    total: int,
    rest: int,
    chosen: list[int],
    first: int,
    second: int,
    singles_only: bool,
    low: int,
    high: int,
    found: list[tuple[T, ...]],
) -> None:
    """Extend ``chosen`` (summing to ``total``; ``rest``: the values from ``start`` on,
    added) by each later position in turn, recording the sets that reach ``first`` (one
    card only when ``singles_only``: a card equals the value) or ``second`` (0: none),
    in ascending order of their positions."""
    need = low if total < low else high  # the nearest target still ahead
    for i in range(start, len(values)):
        if total + rest < need:  # the rest of the table cannot reach it
            return
        card = values[i]
        rest -= card
        reached = total + card
        if reached > high:
            continue
        chosen.append(i)
        if reached == first:
            if not singles_only or len(chosen) == 1:
                found.append(tuple([labels[j] for j in chosen]))
        elif reached == second:
            found.append(tuple([labels[j] for j in chosen]))
        if reached < high:
            _walk(
                values,
                labels,
                i + 1,
                reached,
                rest,
                chosen,
                first,
                second,
                singles_only,
                low,
                high,
                found,
            )
        chosen.pop()


SUMS_KEPT: Final = (1 << (CIRULLA_SUM + 1)) - 1
"""The sums :func:`sums_reached` keeps track of: 0 to 15."""


def sums_reached(values: tuple[int, ...]) -> tuple[int, int]:
    """The sums the table's cards reach, as bitmasks (bit s: the sum s, up to 15): by one
    card, and by two or more together."""
    one = more = 0
    for value in values:
        more = (more | more << value | one << value) & SUMS_KEPT
        one |= 1 << value
    return one & SUMS_KEPT, more


def may_capture(style: str, one: int, more: int, value: int) -> bool:
    """Has a card of ``value`` any capture on a table reaching the sums ``one`` and
    ``more`` (:func:`sums_reached`)? When not, :func:`capture_sets` finds none, and the
    walk need not look."""
    if value == 1 and style != SCOPA:
        return one != 0  # an ace takes an ace, or else the whole table
    if (one | more) >> value & 1:
        return True
    return style == CIRULLA and (one | more) >> (CIRULLA_SUM - value) & 1 != 0


def _ace_sets(values: tuple[int, ...], labels: tuple[T, ...], found: list[tuple[T, ...]]) -> None:
    """ASSO-3 and CIRULLA-4: with an ace on the table the ace takes one ace; otherwise it
    takes the whole table; on an empty table it takes nothing."""
    for i in range(len(values)):
        if values[i] == 1:
            found.append((labels[i],))
    if not found and values:  # a new tuple, never the table's own (a slice may be it)
        found.append(tuple([labels[i] for i in range(len(values))]))


def captures(style: str, values: tuple[int, ...], value: int, fewest: bool) -> tuple[Capture, ...]:
    """The captures open to a card of ``value`` on a table of ``values`` in a game's
    style, as tuples of table positions."""
    return tuple(capture_sets(style, values, POSITIONS[len(values)], value, fewest))


def is_ace_sweep(style: str, values: tuple[int, ...], value: int) -> bool:
    """Does this ace take the whole table as an ace (not as one ace taking another)?"""
    return style != SCOPA and value == 1 and bool(values) and 1 not in values
