"""Which table cards a played card may take (SCOPA-3/4, ASSO-3, CIRULLA-3/4).

Every function works on the table's capture values and returns the captures as tuples of
table positions, ascending, in a stable order. Sets that sum to a value are *generated*
by a depth-first walk that only ever extends a partial set while it can still reach the
sum (GAMES.md 7): the work follows the number of answers, never the 2^n subsets of the
table.
"""

from __future__ import annotations

from typing import Final

SCOPA: Final = "scopa"
ASSO: Final = "asso"
CIRULLA: Final = "cirulla"
STYLES: Final = (SCOPA, ASSO, CIRULLA)
CIRULLA_SUM: Final = 15
"""Cirulla's second way to capture: cards summing to 15 minus the played card."""

Capture = tuple[int, ...]


def summing_sets(values: tuple[int, ...], target: int, min_cards: int) -> list[Capture]:
    """Every set of ``min_cards`` or more positions whose values add up to ``target``."""
    found: list[Capture] = []
    if target <= 0:
        return found
    suffix = [0] * (len(values) + 1)
    for i in range(len(values) - 1, -1, -1):
        suffix[i] = suffix[i + 1] + values[i]
    _walk(values, suffix, 0, target, [], min_cards, found)
    return found


def _walk(
    values: tuple[int, ...],
    suffix: list[int],
    start: int,
    remaining: int,
    chosen: list[int],
    min_cards: int,
    found: list[Capture],
) -> None:
    for i in range(start, len(values)):
        if suffix[i] < remaining:  # the rest of the table cannot reach the sum
            return
        value = values[i]
        if value > remaining:
            continue
        chosen.append(i)
        if value == remaining:
            if len(chosen) >= min_cards:
                found.append(tuple(chosen))
        else:
            _walk(values, suffix, i + 1, remaining - value, chosen, min_cards, found)
        chosen.pop()


def equal_cards(values: tuple[int, ...], value: int) -> list[Capture]:
    return [(i,) for i, v in enumerate(values) if v == value]


def scopa_captures(values: tuple[int, ...], value: int, fewest: bool) -> list[Capture]:
    """SCOPA-3/4: one equal card if any (exactly one, the player's pick), else any set of
    two or more summing to the value; with ``fewest``, only the smallest such sets."""
    equal = equal_cards(values, value)
    if equal:
        return equal
    sums = summing_sets(values, value, 2)
    if fewest and sums:
        least = min(len(s) for s in sums)
        sums = [s for s in sums if len(s) == least]
    return sums


def ace_captures(values: tuple[int, ...]) -> list[Capture]:
    """ASSO-3 and CIRULLA-4: with an ace on the table the ace takes one ace; otherwise it
    takes the whole table; on an empty table it takes nothing."""
    aces = equal_cards(values, 1)
    if aces:
        return aces
    return [tuple(range(len(values)))] if values else []


def cirulla_captures(values: tuple[int, ...], value: int) -> list[Capture]:
    """CIRULLA-3: (a) one card of the value; (b) two or more summing to it, only when no
    card equals it; (c) one or more summing to 15 minus it."""
    if value == 1:
        return ace_captures(values)
    found = equal_cards(values, value)
    if not found:
        found = summing_sets(values, value, 2)
    found.extend(summing_sets(values, CIRULLA_SUM - value, 1))
    found.sort()
    return found


_KNOWN: dict[tuple[str, tuple[int, ...], int, bool], tuple[Capture, ...]] = {}
KNOWN_LIMIT: Final = 100_000
"""Tables recur (every legality check of a turn asks again), so answers are kept, up to
this many before the cache starts afresh."""


def captures(style: str, values: tuple[int, ...], value: int, fewest: bool) -> tuple[Capture, ...]:
    """The captures open to a card of ``value`` on a table of ``values`` in a game's style."""
    key = (style, values, value, fewest)
    known = _KNOWN.get(key)
    if known is not None:
        return known
    if style == CIRULLA:
        found = cirulla_captures(values, value)
    elif style == ASSO and value == 1:
        found = ace_captures(values)
    else:
        found = scopa_captures(values, value, fewest)
    if len(_KNOWN) >= KNOWN_LIMIT:
        _KNOWN.clear()
    answer = tuple(found)
    _KNOWN[key] = answer
    return answer


def is_ace_sweep(style: str, values: tuple[int, ...], value: int) -> bool:
    """Does this ace take the whole table as an ace (not as one ace taking another)?"""
    return style != SCOPA and value == 1 and bool(values) and 1 not in values
