"""End-of-hand points of the fishing games (SCOPA-7, CIRULLA-8) as pure functions.

Kept apart from the engines so every fixture of RULES can be checked by hand and an
auditor can recount a hand from the captured piles alone. Each side's count is a list of
lines (``carte``, ``denari``, ``settebello``, ``primiera``, ``scope`` and the optional
ones), each with what the side had and the points it earned, in the order a player reads
them out at the table.

"Most" means more than every other side; a tie gives the point to nobody (SCOPA-7).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any, Final

from tavolo.cardgames.games.fishing.deck import DENARI, PRIMIERA, Deck
from tavolo.cardgames.slotted import SlottedState

SETTEBELLO_VALUE: Final = 7
RE_VALUE: Final = 10
NAPOLA_MIN: Final = 3
PICCOLA_MAX: Final = 6
GRANDE_POINTS: Final = 5
GRANDE_VALUES: Final = (8, 9, 10)
GRANDE_MASK: Final = 1 << 8 | 1 << 9 | 1 << 10


_LINE_FIELDS: Final = ("name", "held", "points")


class Line(SlottedState):
    """One line of a side's count: what it had (``held``) and the points it earned.

    A slotted class built by its constructor, as every hand's count builds a dozen
    (compiled, a frozen dataclass is built through its generated Python ``__init__``).
    Treat it as immutable."""

    __slots__ = _LINE_FIELDS
    FIELDS = _LINE_FIELDS

    def __init__(self, name: str, held: int, points: int) -> None:
        self.name = name
        self.held = held
        self.points = points

    def __hash__(self) -> int:
        return hash(self.values())


class SideCount(SlottedState):
    """A side's whole count for one hand, line by line. Treat it as immutable."""

    __slots__ = ("lines",)
    FIELDS = ("lines",)

    def __init__(self, lines: tuple[Line, ...]) -> None:
        self.lines = lines

    def __hash__(self) -> int:
        return hash(self.values())

    @property
    def points(self) -> int:
        return sum([line.points for line in self.lines])

    def to_dict(self) -> dict[str, Any]:
        """``{"lines": [[name, held, points], ...], "points": total}``: compact, since
        every view carries the last hand's count."""
        return {"lines": [[x.name, x.held, x.points] for x in self.lines], "points": self.points}


@dataclass(frozen=True)
class Extras:
    """Which optional lines count at this table."""

    napola: bool = False
    re_bello: bool = False
    grande_piccola: bool = False

    def __reduce__(self) -> tuple[type[Extras], tuple[bool, bool, bool]]:
        return Extras, (self.napola, self.re_bello, self.grande_piccola)


def primiera(deck: Deck, cards: Sequence[str]) -> int | None:
    """The best card of each suit by primiera value, added; ``None`` when a suit is
    missing (that side cannot win the primiera, SCOPA-7)."""
    best = [0, 0, 0, 0]
    for card in cards:
        points = PRIMIERA[deck.value[card]]
        suit = deck.suit[card]
        if points > best[suit]:
            best[suit] = points
    return sum(best) if all(best) else None


def primiera_total(deck: Deck, cards: Sequence[str]) -> int:
    """The primiera as a player adds it up, missing suits counting 0 (for display)."""
    best = [0, 0, 0, 0]
    for card in cards:
        suit = deck.suit[card]
        best[suit] = max(best[suit], PRIMIERA[deck.value[card]])
    return sum(best)


def most(measures: Sequence[int | None]) -> int | None:
    """The index of the one measure larger than every other, else ``None``."""
    present = [m for m in measures if m is not None]
    if not present:
        return None
    top = max(present)
    leaders = [i for i, m in enumerate(measures) if m == top]
    return leaders[0] if len(leaders) == 1 else None


def denari_run(deck: Deck, cards: Sequence[str]) -> int:
    """How many denari the side holds in an unbroken run from the ace (A, 2, 3, ...)."""
    held = {deck.value[c] for c in cards if deck.suit[c] == DENARI}
    run = 0
    while run + 1 in held:
        run += 1
    return run


def napola(deck: Deck, cards: Sequence[str]) -> int:
    """A-2-3 of denari score 3, +1 for each further denaro in the run, at most 10."""
    run = denari_run(deck, cards)
    return run if run >= NAPOLA_MIN else 0


def piccola(deck: Deck, cards: Sequence[str]) -> int:
    """CIRULLA-8: A-2-3 of denari 3, +1 each for the 4, 5 and 6 in an unbroken run."""
    run = denari_run(deck, cards)
    return min(run, PICCOLA_MAX) if run >= NAPOLA_MIN else 0


def grande(deck: Deck, cards: Sequence[str]) -> int:
    """CIRULLA-8: the three figures of denari together score 5."""
    held = {deck.value[c] for c in cards if deck.suit[c] == DENARI}
    return GRANDE_POINTS if all(v in held for v in GRANDE_VALUES) else 0


def count_hand(
    deck: Deck,
    piles: Sequence[Sequence[str]],
    scope: Sequence[int],
    extras: Extras,
    accusi: Sequence[int] | None = None,
) -> tuple[SideCount, ...]:
    """Every side's count from its captured pile and its scope (and Cirulla's accusi)."""
    count_key = deck.count_key
    cards: list[int] = []
    denari: list[int] = []
    prim: list[int | None] = []
    shown: list[int] = []
    runs: list[int] = []  # by side: the denari held, bit v for the denaro of value v
    for pile in piles:  # one pass a pile: the denari and each suit's best primiera card
        held = 0
        values = 0
        best = [0, 0, 0, 0]
        for card in pile:
            key = count_key[card]
            card_suit = key & 3
            if card_suit == DENARI:
                held += 1
                values |= 1 << (key >> 7)
            points = key >> 2 & 31
            if points > best[card_suit]:
                best[card_suit] = points
        total = best[0] + best[1] + best[2] + best[3]
        cards.append(len(pile))
        denari.append(held)
        prim.append(total if best[0] and best[1] and best[2] and best[3] else None)
        shown.append(total)
        runs.append(values)
    won_cards, won_denari, won_primiera = most(cards), most(denari), most(prim)
    counts = []
    for side in range(len(piles)):
        held = runs[side]
        has_sette = held >> SETTEBELLO_VALUE & 1
        lines = [
            Line("carte", cards[side], int(won_cards == side)),
            Line("denari", denari[side], int(won_denari == side)),
            Line("settebello", has_sette, has_sette),
            Line("primiera", shown[side], int(won_primiera == side)),
            Line("scope", scope[side], scope[side]),
        ]
        run = 0  # denari in an unbroken run from the ace (denari_run)
        while held >> (run + 1) & 1:
            run += 1
        if extras.napola:
            points = run if run >= NAPOLA_MIN else 0
            lines.append(Line("napola", points, points))
        if extras.re_bello:
            re_bello = held >> RE_VALUE & 1
            lines.append(Line("re bello", re_bello, re_bello))
        if extras.grande_piccola:
            big = GRANDE_POINTS if held & GRANDE_MASK == GRANDE_MASK else 0
            small = min(run, PICCOLA_MAX) if run >= NAPOLA_MIN else 0
            lines.append(Line("grande", int(big > 0), big))
            lines.append(Line("piccola", small, small))
        if accusi is not None:
            lines.append(Line("accusi", accusi[side], accusi[side]))
        counts.append(SideCount(tuple(lines)))
    return tuple(counts)
