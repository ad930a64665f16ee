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
from typing import Final, TypeVar

from tavolo.cardgames.games.french_deck import RANKS, SUITS, full_deck
from tavolo.cardgames.games.solitario.ends import CODE, run_of, runs_of
from tavolo.cardgames.slotted import SlottedState

COLUMNS: Final = 7
WASTE: Final = "waste"
COLUMN_NAMES: tuple[str, ...] = tuple(f"t{k}" for k in range(1, COLUMNS + 1))
FOUNDATION_NAMES: tuple[str, ...] = tuple(f"f{s}" for s in SUITS)
KING: Final = 13

_DECK = full_deck()
"""The deck's own strings, suit by suit, 2 to ace: the tables below are keyed by them, so
that a dealt card is found in them by identity, its characters never compared."""
RANK: dict[str, int] = {c: 1 + (RANKS.index(c[:-1]) + 1) % 13 for c in _DECK}
"""Klondike rank: A=1, 2…10, J=11, Q=12, K=13."""
SUIT_INDEX: dict[str, int] = {c: SUITS.index(c[-1]) for c in _DECK}
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
FOUNDATION_PILE: Final = 8  # 1 + COLUMNS: the first foundation's index
MAX_COUNT: Final = 13  # KING
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


def _fit(under: str) -> tuple[str, str, int, int, int] | None:
    fitting = FITS_UNDER[under]
    if not fitting:
        return None
    a, b = fitting
    return a, b, SUIT_INDEX[a], SUIT_INDEX[b], RANK[under] - 1


_FIT: dict[str, tuple[str, str, int, int, int] | None] = {under: _fit(under) for under in RANK}
"""The two cards of :data:`FITS_UNDER` (in its order), their suit indexes and their rank;
``None`` under an ace."""
_BELOW: dict[str, tuple[int, int]] = {c: (SUIT_INDEX[c], RANK[c] - 1) for c in RANK}
"""Each card's suit index and the foundation top it goes on."""


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
        s, below = _BELOW[waste_top]
        if found[s] == below:
            moves.append(table[0][FOUNDATION_PILE + s][1])
    # Where each face-up card lies: 16 * pile + depth from the top of the column's run
    # (so that comparing two places orders them by column, then depth).
    where: dict[str, int] = {}
    for k in range(1, COLUMNS + 1):  # compiled, a range loop is cheaper than enumerate
        col = up[k - 1]
        if col:
            s, below = _BELOW[col[-1]]
            if found[s] == below:
                moves.append(table[k][FOUNDATION_PILE + s][1])
            place = 16 * k + len(col)
            for c in col:
                where[c] = place
                place -= 1
    for onto in range(1, COLUMNS + 1):
        target_col = up[onto - 1]
        if not target_col:
            if down[onto - 1]:
                continue  # not a real layout: a face-down card is turned up at once
            if waste_top is not None and RANK[waste_top] == KING:
                moves.append(table[0][onto][1])
            for k in range(1, COLUMNS + 1):
                col = up[k - 1]
                if k != onto and col and RANK[col[0]] == KING:
                    moves.append(table[k][onto][len(col)])
            # A foundation's top card may go back to a column (RULES 16.3): a king here.
            for s in range(4):
                if found[s] == KING:
                    moves.append(table[FOUNDATION_PILE + s][onto][1])
            continue
        fit = _FIT[target_col[-1]]
        if fit is None:
            continue  # an ace: nothing goes under it
        c1, c2, s1, s2, rank = fit
        if waste_top == c1 or waste_top == c2:  # noqa: SIM109 (no tuple built)
            moves.append(table[0][onto][1])
        a = where.get(c1)
        b = where.get(c2)
        if a is not None:
            if b is not None and b < a:
                moves.append(table[b >> 4][onto][b & 15])
                b = None
            moves.append(table[a >> 4][onto][a & 15])
        if b is not None:
            moves.append(table[b >> 4][onto][b & 15])
        if found[s1] == rank:
            moves.append(table[FOUNDATION_PILE + s1][onto][1])
        if found[s2] == rank:
            moves.append(table[FOUNDATION_PILE + s2][onto][1])
    return moves


def is_move(pos: Position, source: str, target: str, count: int) -> bool:
    """Whether ``(source, target, count)`` is one of :func:`list_moves`, checked directly."""
    src, dst = PILE_INDEX.get(source), PILE_INDEX.get(target)
    if src is None or dst is None:
        return False
    return check_move(pos.up, pos.waste, pos.foundations, src, dst, count)


def check_move(
    up: tuple[tuple[str, ...], ...],
    waste: tuple[str, ...],
    found: tuple[int, ...],
    src: int,
    dst: int,
    count: int,
) -> bool:
    """:func:`is_move` on a layout's parts, the piles given by their :data:`PILE_INDEX`."""
    if src == 0:
        if count != 1 or not waste:
            return False
        card = waste[-1]
    elif src >= FOUNDATION_PILE:
        s = src - FOUNDATION_PILE
        if count != 1 or not found[s] or not 1 <= dst <= COLUMNS:
            return False
        card = card_of(s, found[s])
    else:
        col = up[src - 1]
        if not 1 <= count <= len(col):
            return False
        card = col[-count]
    code = CODE[card]  # one lookup for rank, colour and suit
    if dst >= FOUNDATION_PILE:
        s = dst - FOUNDATION_PILE
        return count == 1 and code >> 5 == s and found[s] + 1 == code & 15
    if dst == 0 or dst == src:
        return False
    under = up[dst - 1]
    if not under:
        return code & 15 == KING
    below = CODE[under[-1]]  # one rank higher, the other colour
    return below & 15 == (code & 15) + 1 and (below ^ code) & 16 != 0


_LAYOUT_FIELDS = ("down", "up", "stock", "waste", "foundations")


class Layout(SlottedState):
    """A seat's cards, face-down ones included: what the engine keeps. Treat it as
    immutable; a slotted class built by its constructor, as every move builds one
    (compiled, a frozen dataclass is built through its generated Python ``__init__``).

    ``runs``, not a field: each column's run as an int (:func:`.ends.run_of`), kept when
    the layout was dealt from a whole deck and changed by the rules' moves only, so that
    every card is here once and each column's face-up cards are a run, which
    :mod:`~tavolo.cardgames.games.solitario.runs` relies on. A layout built any other
    way, or restored, has ``None`` and its moves generated as any layout's."""

    __slots__ = (*_LAYOUT_FIELDS, "runs")
    FIELDS = _LAYOUT_FIELDS

    def __init__(
        self,
        down: tuple[tuple[str, ...], ...],
        up: tuple[tuple[str, ...], ...],
        stock: tuple[str, ...],  # the last card is the top
        waste: tuple[str, ...],
        foundations: tuple[int, ...],
        runs: tuple[int, ...] | None = None,
    ) -> None:
        self.down = down
        self.up = up
        self.stock = stock
        self.waste = waste
        self.foundations = foundations
        self.runs = runs

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
        found = self.foundations  # four heights: cheaper added than through sum()
        return found[0] + found[1] + found[2] + found[3] == 4 * KING

    def all_face_up(self) -> bool:
        """Nothing left face down, in the stock or the waste: auto-finish may run."""
        return not self.stock and not self.waste and not any(self.down)


def _dealt_positions() -> tuple[tuple[int, ...], ...]:
    """Which positions of the deck each column gets, dealing row by row."""
    columns: list[list[int]] = [[] for _ in range(COLUMNS)]
    at = 0
    for row in range(COLUMNS):
        for k in range(row, COLUMNS):
            columns[k].append(at)
            at += 1
    return tuple(tuple(col) for col in columns)


_DEALT = _dealt_positions()
_DEALT_DOWN = tuple(col[:-1] for col in _DEALT)
_DEALT_UP = tuple(col[-1] for col in _DEALT)
_DEALT_COUNT = sum(len(col) for col in _DEALT)
_ALL_CARDS = frozenset(RANK)


def deal(deck: list[str]) -> Layout:
    """Deal row by row (RULES 16.1): one card to each of columns 1-7, then to 2-7, and so on;
    the last card a column gets is its face-up one. ``deck[0]`` is the top. (The deck's
    positions each column gets are worked out once, :data:`_DEALT`.)"""
    down = tuple([tuple([deck[i] for i in col]) for col in _DEALT_DOWN])
    up = tuple([(deck[i],) for i in _DEALT_UP])
    stock = tuple(reversed(deck[_DEALT_COUNT:]))  # the next card of the deck is the stock's top
    whole = len(deck) == len(RANK) and set(deck) == _ALL_CARDS
    return Layout(down, up, stock, (), (0, 0, 0, 0), runs_of(up) if whole else None)


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
    return Layout(layout.down, layout.up, stock, waste, layout.foundations, layout.runs), drawn


def recycle(layout: Layout) -> Layout:
    """Turn the waste over to make a new stock: its first card becomes the top again."""
    return Layout(
        layout.down, layout.up, tuple(reversed(layout.waste)), (), layout.foundations, layout.runs
    )


def move_cards(
    layout: Layout, source: str, target: str, count: int
) -> tuple[Layout, tuple[str, ...], list[tuple[int, str]]]:
    """:func:`take`, :func:`put` and :func:`turn_up` in one step, building one layout:
    the new layout, the cards moved and the face-down cards turned up (column, card).
    The move is one of :func:`list_moves`: a layout's ``runs`` are kept, the columns
    changed worked out again."""
    down, up, waste, found = layout.down, layout.up, layout.waste, layout.foundations
    src = PILE_INDEX[source]
    dst = PILE_INDEX[target]
    turned: list[tuple[int, str]] = []
    columns = list(up)
    if src == 0:
        cards = waste[-1:]
        waste = waste[:-1]
    elif src >= FOUNDATION_PILE:
        s = src - FOUNDATION_PILE
        cards = (card_of(s, found[s]),)
        changed = list(found)
        changed[s] -= 1
        found = tuple(changed)
    else:
        run = columns[src - 1]
        cards = run[-count:]
        columns[src - 1] = run[:-count]
    if dst >= FOUNDATION_PILE:
        changed = list(found)
        changed[dst - FOUNDATION_PILE] += 1
        found = tuple(changed)
    else:
        columns[dst - 1] = columns[dst - 1] + cards
    for k in range(COLUMNS):  # as turn_up: any column left with no face-up card
        if not columns[k] and down[k]:
            hidden = down[k]
            turned.append((k, hidden[-1]))
            columns[k] = (hidden[-1],)
            down = (*down[:k], hidden[:-1], *down[k + 1 :])
    runs = layout.runs
    if runs is not None:
        changed_runs = list(runs)
        if 0 < src <= COLUMNS:  # the waste and the foundations have no run
            changed_runs[src - 1] = run_of(columns[src - 1])  # a card turned up too
        if 0 < dst <= COLUMNS:
            changed_runs[dst - 1] = run_of(columns[dst - 1])
        runs = tuple(changed_runs)
    return Layout(down, tuple(columns), layout.stock, waste, found, runs), cards, turned
