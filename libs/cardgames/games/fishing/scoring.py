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

SETTEBELLO_VALUE: Final = 7
RE_VALUE: Final = 10
NAPOLA_MIN: Final = 3
PICCOLA_MAX: Final = 6
GRANDE_POINTS: Final = 5
GRANDE_VALUES: Final = (8, 9, 10)


@dataclass(frozen=True)
class Line:
    """One line of a side's count: what it had (``held``) and the points it earned."""

    name: str
    held: int
    points: int


@dataclass(frozen=True)
class SideCount:
    """A side's whole count for one hand, line by line."""

    lines: tuple[Line, ...]

    @property
    def points(self) -> int:
        return sum(line.points for line in self.lines)

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
    cards = [len(p) for p in piles]
    denari = [sum(1 for c in p if deck.suit[c] == DENARI) for p in piles]
    settebello = deck.card(SETTEBELLO_VALUE, DENARI)
    prim = [primiera(deck, p) for p in piles]
    winners = {"carte": most(cards), "denari": most(denari), "primiera": most(prim)}
    counts = []
    for side, pile in enumerate(piles):
        has_sette = settebello in pile
        lines = [
            Line("carte", cards[side], int(winners["carte"] == side)),
            Line("denari", denari[side], int(winners["denari"] == side)),
            Line("settebello", int(has_sette), int(has_sette)),
            Line("primiera", primiera_total(deck, pile), int(winners["primiera"] == side)),
            Line("scope", scope[side], scope[side]),
        ]
        if extras.napola:
            run = napola(deck, pile)
            lines.append(Line("napola", run, run))
        if extras.re_bello:
            re_bello = int(deck.card(RE_VALUE, DENARI) in pile)
            lines.append(Line("re bello", re_bello, re_bello))
        if extras.grande_piccola:
            big, small = grande(deck, pile), piccola(deck, pile)
            lines.append(Line("grande", int(big > 0), big))
            lines.append(Line("piccola", small, small))
        if accusi is not None:
            lines.append(Line("accusi", accusi[side], accusi[side]))
        counts.append(SideCount(tuple(lines)))
    return tuple(counts)
