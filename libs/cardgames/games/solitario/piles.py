"""One Klondike layout and the moves between its piles (RULES §16.1-16.4, SOLITARIO-1…4).

Pure data and pure functions, shared by the engine and the bots: the bots rebuild a
:class:`Position` from their view (face-down cards are only counted there), the engine
keeps the cards themselves in a :class:`Layout`.

Piles are named as actions name them: ``waste``, columns ``t1`` … ``t7`` and the
foundations ``fS``, ``fH``, ``fD``, ``fC`` (one per suit). Cards are the French codes of
:mod:`~tavolo.cardgames.games.french_deck`; here the ace ranks 1, below the 2.

Move generation builds the moves from the piles' tops (RULES habit: generate, never
filter subsets): a run moves only onto the one card it fits under, so each column is
looked at once per target.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass
from typing import TypeVar

from tavolo.cardgames.games.french_deck import RANKS, SUITS, full_deck

COLUMNS = 7
WASTE = "waste"
COLUMN_NAMES: tuple[str, ...] = tuple(f"t{k}" for k in range(1, COLUMNS + 1))
FOUNDATION_NAMES: tuple[str, ...] = tuple(f"f{s}" for s in SUITS)
KING = 13

RANK: dict[str, int] = {f"{r}{s}": 1 + (i + 1) % 13 for s in SUITS for i, r in enumerate(RANKS)}
"""Klondike rank: A=1, 2…10, J=11, Q=12, K=13."""
SUIT_INDEX: dict[str, int] = {f"{r}{s}": SUITS.index(s) for s in SUITS for r in RANKS}
RED: dict[str, bool] = {c: c[-1] in "HD" for c in RANK}
_CARD_OF: dict[tuple[int, int], str] = {(SUIT_INDEX[c], RANK[c]): c for c in RANK}


FITS_UNDER: dict[str, tuple[str, ...]] = {
    under: tuple(c for c in RANK if RANK[c] == RANK[under] - 1 and RED[c] != RED[under])
    for under in RANK
}
"""The cards that go on a column whose top is the key: one rank lower, the other colour."""


def card_of(suit: int, rank: int) -> str:
    """The code of the card of suit index ``suit`` (S, H, D, C) and Klondike rank."""
    return _CARD_OF[(suit, rank)]


def fits_on_column(card: str, under: str | None) -> bool:
    """May ``card`` (heading a run) go on a column whose top is ``under`` (None: empty)?"""
    if under is None:
        return RANK[card] == KING
    return RANK[under] == RANK[card] + 1 and RED[under] != RED[card]


@dataclass(frozen=True, slots=True)
class Position:
    """What a seat can see of its layout: enough to list its moves."""

    up: tuple[tuple[str, ...], ...]  # face-up cards per column, bottom first
    down: tuple[int, ...]  # face-down cards per column
    stock: int  # cards in the stock
    waste: tuple[str, ...]  # bottom first: the last is the playable top
    foundations: tuple[int, ...]  # top rank per suit (S, H, D, C); 0 when empty


Move = tuple[str, str, int]
"""(source, target, count)."""


PILE_NAMES: tuple[str, ...] = (WASTE, *COLUMN_NAMES, *FOUNDATION_NAMES)
"""Every pile, indexed as :func:`move_table` indexes them: waste 0, columns 1-7,
foundations 8-11."""
PILE_INDEX: dict[str, int] = {name: i for i, name in enumerate(PILE_NAMES)}
_FOUNDATION_PILE = 1 + COLUMNS
MAX_COUNT = KING
"""The longest run a column can hold face up: king down to ace."""

T = TypeVar("T")
MoveTable = tuple[tuple[tuple[T, ...], ...], ...]
"""Something for each move, indexed ``[source pile][target pile][count]``."""


def move_table(make: Callable[[str, str, int], T]) -> MoveTable[T]:
    """``make(source, target, count)`` for every pair of piles and count up to a king's
    run, built once: move generation picks from it rather than building each move."""
    return tuple(
        tuple(tuple(make(src, dst, n) for n in range(MAX_COUNT + 1)) for dst in PILE_NAMES)
        for src in PILE_NAMES
    )


MOVES: MoveTable[Move] = move_table(lambda src, dst, n: (src, dst, n))

_FITTING: dict[str, tuple[tuple[str, int, int], ...]] = {
    under: tuple((c, SUIT_INDEX[c], RANK[c]) for c in FITS_UNDER[under]) for under in RANK
}
""":data:`FITS_UNDER` with each card's suit index and rank, in the same order."""


def list_moves(pos: Position) -> list[Move]:
    """Every move between piles, in a stable order: to foundations, then onto each column
    (from the waste, from other columns by column order, from the foundations)."""
    return generate_moves(pos.up, pos.down, pos.waste, pos.foundations, MOVES)


def generate_moves(
    up: tuple[tuple[str, ...], ...],
    down: tuple[object, ...],
    waste: tuple[str, ...],
    found: tuple[int, ...],
    table: MoveTable[T],
) -> list[T]:
    """:func:`list_moves` on a layout's parts, each move taken from ``table`` (``down``
    counts or holds each column's face-down cards: only whether there are any matters).

    Built from the piles' tops: a run moves only onto the one card it fits under, so each
    column is looked at once per target."""
    moves: list[T] = []
    waste_top = waste[-1] if waste else None
    if waste_top is not None:
        s = SUIT_INDEX[waste_top]
        if found[s] + 1 == RANK[waste_top]:
            moves.append(table[0][_FOUNDATION_PILE + s][1])
    # Where each face-up card lies: 16 * column + depth from the top of the column's run
    # (so that comparing two places orders them by column, then depth).
    where: dict[str, int] = {}
    for k in range(COLUMNS):
        col = up[k]
        if col:
            top = col[-1]
            s = SUIT_INDEX[top]
            if found[s] + 1 == RANK[top]:
                moves.append(table[1 + k][_FOUNDATION_PILE + s][1])
            place = 16 * k + len(col)
            for c in col:
                where[c] = place
                place -= 1
    for t in range(COLUMNS):
        target_col = up[t]
        onto = 1 + t
        if not target_col:
            if down[t]:
                continue  # not a real layout: a face-down card is turned up at once
            if waste_top is not None and RANK[waste_top] == KING:
                moves.append(table[0][onto][1])
            for k in range(COLUMNS):
                col = up[k]
                if k != t and col and RANK[col[0]] == KING:
                    moves.append(table[1 + k][onto][len(col)])
            # A foundation's top card may go back to a column (RULES 16.3): a king here.
            for s in range(4):
                if found[s] == KING:
                    moves.append(table[_FOUNDATION_PILE + s][onto][1])
            continue
        fitting = _FITTING[target_col[-1]]
        if not fitting:
            continue  # an ace: nothing goes under it
        (c1, s1, rank), (c2, s2, _) = fitting
        if waste_top in (c1, c2):
            moves.append(table[0][onto][1])
        a = where.get(c1)
        b = where.get(c2)
        if a is not None and b is not None and b < a:
            a, b = b, a
        if a is not None:
            moves.append(table[1 + (a >> 4)][onto][a & 15])
        if b is not None:
            moves.append(table[1 + (b >> 4)][onto][b & 15])
        if found[s1] == rank:
            moves.append(table[_FOUNDATION_PILE + s1][onto][1])
        if found[s2] == rank:
            moves.append(table[_FOUNDATION_PILE + s2][onto][1])
    return moves


def is_move(pos: Position, source: str, target: str, count: int) -> bool:
    """Whether ``(source, target, count)`` is one of :func:`list_moves`, checked directly."""
    return check_move(pos.up, pos.waste, pos.foundations, source, target, count)


def check_move(
    up: tuple[tuple[str, ...], ...],
    waste: tuple[str, ...],
    found: tuple[int, ...],
    source: str,
    target: str,
    count: int,
) -> bool:
    """:func:`is_move` on a layout's parts."""
    if source == WASTE:
        if count != 1 or not waste:
            return False
        card = waste[-1]
    elif source in FOUNDATION_NAMES:
        s = FOUNDATION_NAMES.index(source)
        if count != 1 or not found[s] or target not in COLUMN_NAMES:
            return False
        card = card_of(s, found[s])
    elif source in COLUMN_NAMES:
        col = up[COLUMN_NAMES.index(source)]
        if not 1 <= count <= len(col):
            return False
        card = col[-count]
    else:
        return False
    if target in FOUNDATION_NAMES:
        s = FOUNDATION_NAMES.index(target)
        return count == 1 and SUIT_INDEX[card] == s and found[s] + 1 == RANK[card]
    if target not in COLUMN_NAMES or target == source:
        return False
    under = up[COLUMN_NAMES.index(target)]
    return fits_on_column(card, under[-1] if under else None)


# Not slotted: pickling (state snapshots, copies between processes) is faster through an
# instance dict, as for the other games' states.
@dataclass(frozen=True)
class Layout:
    """A seat's cards, face-down ones included: what the engine keeps."""

    down: tuple[tuple[str, ...], ...]
    up: tuple[tuple[str, ...], ...]
    stock: tuple[str, ...]  # the last card is the top
    waste: tuple[str, ...]
    foundations: tuple[int, ...]

    def position(self) -> Position:
        return Position(
            up=self.up,
            down=tuple(len(d) for d in self.down),
            stock=len(self.stock),
            waste=self.waste,
            foundations=self.foundations,
        )

    def cards(self) -> list[str]:
        """Every card of the layout, wherever it lies."""
        out = [c for col in self.down for c in col] + [c for col in self.up for c in col]
        out += [*self.stock, *self.waste]
        out += [card_of(s, r) for s, top in enumerate(self.foundations) for r in range(1, top + 1)]
        return out

    def face_up(self) -> list[str]:
        """The cards the seat sees: face-up columns, the waste and the foundations."""
        out = [c for col in self.up for c in col] + list(self.waste)
        out += [card_of(s, r) for s, top in enumerate(self.foundations) for r in range(1, top + 1)]
        return out

    def face_down(self) -> list[str]:
        return [c for col in self.down for c in col] + list(self.stock)

    def won(self) -> bool:
        return sum(self.foundations) == 4 * KING

    def all_face_up(self) -> bool:
        """Nothing left face down, in the stock or the waste: auto-finish may run."""
        return not self.stock and not self.waste and not any(self.down)


def deal(deck: list[str]) -> Layout:
    """Deal row by row (RULES 16.1): one card to each of columns 1-7, then to 2-7, and so on;
    the last card a column gets is its face-up one. ``deck[0]`` is the top."""
    columns: list[list[str]] = [[] for _ in range(COLUMNS)]
    at = 0
    for row in range(COLUMNS):
        for k in range(row, COLUMNS):
            columns[k].append(deck[at])
            at += 1
    stock = tuple(reversed(deck[at:]))  # the next card of the deck is the stock's top
    return Layout(
        down=tuple(tuple(col[:-1]) for col in columns),
        up=tuple((col[-1],) for col in columns),
        stock=stock,
        waste=(),
        foundations=(0, 0, 0, 0),
    )


def has_scoring_move(layout: Layout) -> bool:
    """RULES 16.2: a face-up ace, or a face-up card of columns 2-7 that fits on another
    column's face-up card."""
    tops = [col[-1] for col in layout.up]
    if any(RANK[c] == 1 for c in tops):
        return True
    return any(
        fits_on_column(card, under)
        for k, card in enumerate(tops)
        if k > 0
        for t, under in enumerate(tops)
        if t != k
    )


def new_deck() -> list[str]:
    return full_deck()


def _with(
    layout: Layout,
    *,
    up: tuple[tuple[str, ...], ...] | None = None,
    waste: tuple[str, ...] | None = None,
    foundations: tuple[int, ...] | None = None,
) -> Layout:
    """``layout`` with some piles changed, through the constructor: ``dataclasses.replace``
    goes through its generic keyword path on every move."""
    return Layout(
        layout.down,
        layout.up if up is None else up,
        layout.stock,
        layout.waste if waste is None else waste,
        layout.foundations if foundations is None else foundations,
    )


def take(layout: Layout, source: str, count: int) -> tuple[Layout, tuple[str, ...]]:
    """Lift ``count`` cards off ``source`` (a column's face-up run, the waste's top or a
    foundation's top)."""
    if source == WASTE:
        return _with(layout, waste=layout.waste[:-1]), layout.waste[-1:]
    if source in FOUNDATION_NAMES:
        s = FOUNDATION_NAMES.index(source)
        found = list(layout.foundations)
        lifted = card_of(s, found[s])
        found[s] -= 1
        return _with(layout, foundations=tuple(found)), (lifted,)
    k = COLUMN_NAMES.index(source)
    up = list(layout.up)
    lifted_run = up[k][-count:]
    up[k] = up[k][:-count]
    return _with(layout, up=tuple(up)), lifted_run


def put(layout: Layout, target: str, cards: tuple[str, ...]) -> Layout:
    if target in FOUNDATION_NAMES:
        s = FOUNDATION_NAMES.index(target)
        found = list(layout.foundations)
        found[s] += 1
        return _with(layout, foundations=tuple(found))
    k = COLUMN_NAMES.index(target)
    up = list(layout.up)
    up[k] = up[k] + cards
    return _with(layout, up=tuple(up))


def turn_up(layout: Layout) -> tuple[Layout, list[tuple[int, str]]]:
    """Turn up the top face-down card of every column left with no face-up card."""
    turned: list[tuple[int, str]] = []
    down, up = list(layout.down), list(layout.up)
    for k in range(COLUMNS):
        if not up[k] and down[k]:
            turned.append((k, down[k][-1]))
            up[k] = (down[k][-1],)
            down[k] = down[k][:-1]
    if not turned:
        return layout, turned
    return Layout(tuple(down), tuple(up), layout.stock, layout.waste, layout.foundations), turned


def draw(layout: Layout, how_many: int) -> tuple[Layout, tuple[str, ...]]:
    """Turn up to ``how_many`` stock cards onto the waste, one at a time."""
    n = min(how_many, len(layout.stock))
    drawn = tuple(reversed(layout.stock[-n:]))
    stock, waste = layout.stock[:-n], layout.waste + drawn
    return Layout(layout.down, layout.up, stock, waste, layout.foundations), drawn


def recycle(layout: Layout) -> Layout:
    """Turn the waste over to make a new stock: its first card becomes the top again."""
    return Layout(layout.down, layout.up, tuple(reversed(layout.waste)), (), layout.foundations)


def move_cards(
    layout: Layout, source: str, target: str, count: int
) -> tuple[Layout, tuple[str, ...], list[tuple[int, str]]]:
    """:func:`take`, :func:`put` and :func:`turn_up` in one step, building one layout:
    the new layout, the cards moved and the face-down cards turned up (column, card)."""
    down, up, waste, found = layout.down, layout.up, layout.waste, layout.foundations
    src = PILE_INDEX[source]
    dst = PILE_INDEX[target]
    turned: list[tuple[int, str]] = []
    if src == 0:
        cards = waste[-1:]
        waste = waste[:-1]
    elif src >= _FOUNDATION_PILE:
        s = src - _FOUNDATION_PILE
        cards = (card_of(s, found[s]),)
        changed = list(found)
        changed[s] -= 1
        found = tuple(changed)
    else:
        k = src - 1
        columns = list(up)
        run = columns[k]
        cards = run[-count:]
        columns[k] = run[:-count]
        up = tuple(columns)
    if dst >= _FOUNDATION_PILE:
        changed = list(found)
        changed[dst - _FOUNDATION_PILE] += 1
        found = tuple(changed)
    else:
        t = dst - 1
        up = (*up[:t], up[t] + cards, *up[t + 1 :])
    for k in range(COLUMNS):  # as turn_up: any column left with no face-up card
        if not up[k] and down[k]:
            hidden = down[k]
            turned.append((k, hidden[-1]))
            up = (*up[:k], (hidden[-1],), *up[k + 1 :])
            down = (*down[:k], hidden[:-1], *down[k + 1 :])
    return Layout(down, up, layout.stock, waste, found), cards, turned
