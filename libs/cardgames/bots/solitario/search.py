"""Klondike reasoning for the bots: a position rebuilt from the view, moves played on it
without knowing the face-down cards, an evaluation, and a bounded look-ahead.

A move that turns up a face-down card ends a line of search: what comes up is unknown,
and the bot values the discovery rather than guessing the card (it sees only its view).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tavolo.cardgames.games.solitario.piles import (
    COLUMN_NAMES,
    FOUNDATION_NAMES,
    KING,
    RANK,
    RED,
    SUIT_INDEX,
    WASTE,
    Move,
    Position,
    fits_on_column,
    list_moves,
)

REVEAL = 60.0
FOUNDATION = 40.0
FACE_DOWN = -8.0
EMPTY_COLUMN = 12.0
WASTE_CARD = -1.0
DEEP_COLUMN = 2.5
"""Each column's face-down cards cost this much again times their count, so a card turned
up in the column hiding most is worth most: that column holds back the most cards."""
BUDGET = 200
DEPTH = 3


def position_of(private: Mapping[str, Any]) -> Position:
    """The seat's layout as its view shows it."""
    return Position(
        up=tuple(tuple(col) for col in private["columns"]),
        down=tuple(private["face_down"]),
        stock=int(private["stock"]),
        waste=tuple(private["waste"]),
        foundations=tuple(private["foundations"]),
    )


def play(pos: Position, move: Move) -> tuple[Position, int]:
    """``move`` played on what is seen; returns the position and the cards turned up
    (whose faces are unknown, so their columns are left empty of face-up cards)."""
    source, target, count = move
    up, found, waste = list(pos.up), list(pos.foundations), pos.waste
    if source == WASTE:
        cards: tuple[str, ...] = waste[-1:]
        waste = waste[:-1]
    elif source in FOUNDATION_NAMES:
        s = FOUNDATION_NAMES.index(source)
        cards = (_card(s, found[s]),)
        found[s] -= 1
    else:
        k = COLUMN_NAMES.index(source)
        cards = up[k][-count:]
        up[k] = up[k][:-count]
    if target in FOUNDATION_NAMES:
        found[SUIT_INDEX[cards[0]]] += 1
    else:
        t = COLUMN_NAMES.index(target)
        up[t] = up[t] + cards
    down = list(pos.down)
    turned = 0
    for k in range(len(up)):
        if not up[k] and down[k]:
            turned += 1
            down[k] -= 1
    after = replace(pos, up=tuple(up), down=tuple(down), waste=waste, foundations=tuple(found))
    return after, turned


_CARDS = {(SUIT_INDEX[c], RANK[c]): c for c in RANK}


def _card(suit: int, rank: int) -> str:
    return _CARDS[(suit, rank)]


def evaluate(pos: Position, foundation: float = FOUNDATION) -> float:
    """How promising a position is: cards home, cards still face down (the more in one
    column, the dearer each), empty columns that a king can use, and few cards left in the
    stock and waste."""
    value = foundation * sum(pos.foundations) + FACE_DOWN * sum(pos.down)
    value -= DEEP_COLUMN * sum(d * d for d in pos.down)
    kings_waiting = any(
        col and RANK[col[0]] == KING and d for col, d in zip(pos.up, pos.down, strict=True)
    )
    empties = sum(1 for col, d in zip(pos.up, pos.down, strict=True) if not col and not d)
    value += EMPTY_COLUMN * empties * (1.0 if kings_waiting or pos.waste else 0.5)
    value += WASTE_CARD * (len(pos.waste) + pos.stock)
    # Cards that block their own colour's lower cards on the foundations hurt later.
    value -= 0.5 * _foundation_spread(pos.foundations)
    return value


def _foundation_spread(found: tuple[int, ...]) -> int:
    red = min(found[1], found[2])
    black = min(found[0], found[3])
    return sum(max(0, f - (black if i in (1, 2) else red) - 2) for i, f in enumerate(found))


def is_safe_to_foundation(pos: Position, card: str) -> bool:
    """A card no column will ever need as a base: both opposite-colour cards one rank
    lower are already home (aces and twos always are)."""
    rank = RANK[card]
    if rank <= 2:
        return True
    opposite = (0, 3) if RED[card] else (1, 2)
    return all(pos.foundations[s] >= rank - 1 for s in opposite)


def useful(pos: Position, move: Move, coming: frozenset[str] = frozenset()) -> bool:
    """Leave out moves that only shuffle cards around: a king's run moved whole from a
    column with nothing under it, or part of a run when the card it uncovers can go
    neither home nor under the waste's top or a card ``coming`` from the stock."""
    source, target, count = move
    if source not in COLUMN_NAMES or target not in COLUMN_NAMES:
        return True
    k = COLUMN_NAMES.index(source)
    col = pos.up[k]
    if count == len(col):
        return pos.down[k] > 0 or RANK[col[0]] != KING
    exposed = col[-count - 1]
    if pos.foundations[SUIT_INDEX[exposed]] + 1 == RANK[exposed]:
        return True
    if pos.waste and fits_on_column(pos.waste[-1], exposed):
        return True
    return any(fits_on_column(card, exposed) for card in coming)


def key_of(pos: Position) -> tuple[Any, ...]:
    return (pos.up, pos.down, pos.waste, pos.stock, pos.foundations)


Cards = tuple[str, ...]
Step = tuple[int, Move]
"""A step of play: how many times to turn the stock first (0: not at all), then the move."""


def turn_stock(stock: Cards, waste: Cards, draw: int) -> tuple[Cards, Cards]:
    """One ``DRAW`` on a stock whose order the player remembers (its top last): ``draw``
    cards onto the waste, or the waste turned over when the stock is empty."""
    if not stock:
        return tuple(reversed(waste)), ()
    n = min(draw, len(stock))
    return stock[:-n], waste + tuple(reversed(stock[-n:]))


def reachable(stock: Cards, waste: Cards, draw: int) -> list[tuple[int, Cards, Cards]]:
    """Each card that the stock brings to the waste's top within one turn of the cycle, as
    (draws needed, stock, waste) at the first time it is there. With draw 3 only every third
    card of a pass comes up, and a card played from the waste shifts the ones after it."""
    out: list[tuple[int, Cards, Cards]] = []
    tops = set(waste[-1:])
    s, w = stock, waste
    cycle = (len(s) + draw - 1) // draw + 1 + (len(s) + len(w) + draw - 1) // draw
    for draws in range(1, cycle + 1):
        s, w = turn_stock(s, w, draw)
        if s == stock and w == waste:
            break
        if w and w[-1] not in tops:
            tops.add(w[-1])
            out.append((draws, s, w))
    return out


def _waste_moves(pos: Position) -> list[Move]:
    """The moves of the waste's top card: home, or onto a column it fits."""
    card = pos.waste[-1]
    moves: list[Move] = []
    s = SUIT_INDEX[card]
    if pos.foundations[s] + 1 == RANK[card]:
        moves.append((WASTE, FOUNDATION_NAMES[s], 1))
    for t, col in enumerate(pos.up):
        if col:
            if fits_on_column(card, col[-1]):
                moves.append((WASTE, COLUMN_NAMES[t], 1))
        elif not pos.down[t] and RANK[card] == KING:
            moves.append((WASTE, COLUMN_NAMES[t], 1))
    return moves


def steps(
    pos: Position, stock: Cards | None, draw: int
) -> list[tuple[Step, Position, Cards | None]]:
    """Every useful step from ``pos`` with where it leads: the visible moves, and, when the
    stock's order is remembered, each card the stock can bring up played where it fits."""
    out: list[tuple[Step, Position, Cards | None]] = []
    reach = [] if stock is None else reachable(stock, pos.waste, draw)
    coming = frozenset(w[-1] for _, _, w in reach)
    for move in list_moves(pos):
        if useful(pos, move, coming):
            out.append(((0, move), pos, stock))
    for draws, s, w in reach:
        turned = replace(pos, stock=len(s), waste=w)
        for move in _waste_moves(turned):
            out.append(((draws, move), turned, s))
    return out


def best_line(
    pos: Position,
    seen: set[tuple[Any, ...]],
    cache: dict[tuple[Any, ...], tuple[float, Step | None]] | None = None,
    budget: int = BUDGET,
    depth: int = DEPTH,
    stock: Cards | None = None,
    draw: int = 1,
    foundation: float = FOUNDATION,
) -> tuple[float, Step | None]:
    """The first step of the best line of up to ``depth`` steps and how much it gains; a
    line stops where a card turns up. With ``stock`` (the order the player has seen, top
    last) a step may turn the stock to bring a card up first. The first step never leads
    back to a position in ``seen``. Results are kept in ``cache`` by what the search reads."""
    key = (pos.up, pos.down, pos.foundations, pos.waste, stock if stock is not None else pos.stock)
    if cache is not None and key in cache:
        gain, first = cache[key]
        if first is None or key_of(after_step(pos, stock, draw, first)) not in seen:
            return gain, first
    nodes = [0]

    def search(p: Position, st: Cards | None, d: int, visited: set[tuple[Any, ...]]) -> float:
        value = evaluate(p, foundation)
        if d == 0 or nodes[0] >= budget:
            return value
        for (_, move), before, st_after in steps(p, st, draw):
            nodes[0] += 1
            after, turned = play(before, move)
            after_key = key_of(after)
            if after_key in visited:
                continue
            visited.add(after_key)
            if turned:
                value = max(value, evaluate(after, foundation) + REVEAL * turned)
            else:
                value = max(value, search(after, st_after, d - 1, visited))
        return value

    here = evaluate(pos, foundation)
    best: tuple[float, Step | None] = (0.0, None)
    for step, before, st_after in steps(pos, stock, draw):
        after, turned = play(before, step[1])
        after_key = key_of(after)
        if after_key in seen:
            continue
        value = (
            evaluate(after, foundation) + REVEAL * turned
            if turned
            else search(after, st_after, depth - 1, {after_key})
        )
        if value - here > best[0] + 1e-9:
            best = (value - here, step)
    if cache is not None:
        cache[key] = best
    return best


def after_step(pos: Position, stock: Cards | None, draw: int, step: Step) -> Position:
    """The position a step leads to (the stock turned as it says, then the move)."""
    draws, move = step
    if draws and stock is not None:
        s, w = stock, pos.waste
        for _ in range(draws):
            s, w = turn_stock(s, w, draw)
        pos = replace(pos, stock=len(s), waste=w)
    return play(pos, move)[0]


LINE_BUDGET = 500
"""Positions a line search may look at: at draw 3 each costs about 14 us, and 1,000 put a
planning decision at 14 ms at p99; 500 keeps it under 8 ms and won as many deals (300
seeded deals at draw 3: 16.3% against 17.3%, medium 12.0%)."""
LINE_DEPTH = 6
LINE_FOUNDATION = 20.0
"""With draw 3 a card sent home early is often the one a card of the stock needed to land
on, so the line search values cards home at half the usual weight."""
LINE_STEP = 0.01
"""A longer line to the same value is worth a little less."""


class _LineSearch:
    """Iterative deepening over the steps the player can see, the stock's cards included,
    with a table of positions already searched at least as deep; a line ends where a card
    turns up. Keeps the best line found."""

    def __init__(self, stock_draw: int, seen: set[tuple[Any, ...]], budget: int) -> None:
        self.draw = stock_draw
        self.seen = seen
        self.budget = budget
        self.nodes = 0
        self.best = 0.0
        self.line: list[Step] = []
        self.path: list[Step] = []
        self.depth_left: dict[tuple[Any, ...], int] = {}

    def run(self, pos: Position, stock: Cards | None, max_depth: int) -> None:
        here = evaluate(pos, LINE_FOUNDATION)
        for depth in range(1, max_depth + 1):
            self.depth_left = {key_of(pos): depth}
            before = self.nodes
            self.expand(pos, stock, depth, here)
            if self.nodes >= self.budget or self.nodes == before:
                break

    def expand(self, pos: Position, stock: Cards | None, depth: int, here: float) -> None:
        for step, before, stock_after in steps(pos, stock, self.draw):
            if self.nodes >= self.budget:
                return
            self.nodes += 1
            after, turned = play(before, step[1])
            key = key_of(after)
            if key in self.seen or self.depth_left.get(key, -1) >= depth - 1:
                continue
            self.depth_left[key] = depth - 1
            self.path.append(step)
            value = (
                evaluate(after, LINE_FOUNDATION)
                + REVEAL * turned
                - here
                - LINE_STEP * len(self.path)
            )
            if value > self.best + 1e-9:
                self.best, self.line = value, list(self.path)
            if not turned and depth > 1:
                self.expand(after, stock_after, depth - 1, here)
            self.path.pop()


def plan_line(
    pos: Position,
    stock: Cards | None,
    draw: int,
    seen: set[tuple[Any, ...]],
    budget: int = LINE_BUDGET,
    depth: int = LINE_DEPTH,
) -> tuple[float, list[Step]]:
    """The best line of up to ``depth`` steps that never comes back to a position in
    ``seen``, and what it gains (nothing: an empty line). It may play cards the stock brings
    up (``stock``: its order, top last, as the player remembers it) and ends at the first
    card it turns up, whose face nobody knows yet."""
    search = _LineSearch(draw, seen, budget)
    search.run(pos, stock, depth)
    return search.best, search.line
