"""Klondike reasoning for the bots: a position rebuilt from the view, moves played on it
without knowing the face-down cards, an evaluation, and a bounded look-ahead.

A move that turns up a face-down card ends a line of search: what comes up is unknown,
and the bot values the discovery rather than guessing the card (it sees only its view).
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import replace
from typing import Any

from tavolo.cardgames.games.solitario_piles import (
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


def evaluate(pos: Position) -> float:
    """How promising a position is: cards home, cards still face down, empty columns
    that a king can use, and a short waste."""
    value = FOUNDATION * sum(pos.foundations) + FACE_DOWN * sum(pos.down)
    kings_waiting = any(
        col and RANK[col[0]] == KING and d for col, d in zip(pos.up, pos.down, strict=True)
    )
    empties = sum(1 for col, d in zip(pos.up, pos.down, strict=True) if not col and not d)
    value += EMPTY_COLUMN * empties * (1.0 if kings_waiting or pos.waste else 0.5)
    value += WASTE_CARD * len(pos.waste)
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


def useful(pos: Position, move: Move) -> bool:
    """Leave out moves that only shuffle cards around: a king's run moved whole from a
    column with nothing under it, or part of a run when the card it uncovers can go
    neither home nor under the waste's top."""
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
    return bool(pos.waste) and fits_on_column(pos.waste[-1], exposed)


def key_of(pos: Position) -> tuple[Any, ...]:
    return (pos.up, pos.down, pos.waste, pos.stock, pos.foundations)


def best_line(
    pos: Position,
    seen: set[tuple[Any, ...]],
    cache: dict[tuple[Any, ...], tuple[float, Move | None]] | None = None,
    budget: int = BUDGET,
    depth: int = DEPTH,
) -> tuple[float, Move | None]:
    """The first move of the best line of up to ``depth`` moves (no draws) and how much
    it gains; a line stops where a card turns up. The first move never leads back to a
    position in ``seen``. Results are kept in ``cache`` by what the search reads."""
    key = (pos.up, pos.down, pos.foundations, pos.waste[-1:], bool(pos.waste))
    if cache is not None and key in cache:
        gain, first = cache[key]
        if first is None or key_of(play(pos, first)[0]) not in seen:
            return gain, first
    nodes = [0]

    def search(p: Position, d: int, visited: set[tuple[Any, ...]]) -> float:
        value = evaluate(p)
        if d == 0 or nodes[0] >= budget:
            return value
        for move in list_moves(p):
            if not useful(p, move):
                continue
            nodes[0] += 1
            after, turned = play(p, move)
            after_key = key_of(after)
            if after_key in visited:
                continue
            visited.add(after_key)
            if turned:
                value = max(value, evaluate(after) + REVEAL * turned)
            else:
                value = max(value, search(after, d - 1, visited))
        return value

    here = evaluate(pos)
    best: tuple[float, Move | None] = (0.0, None)
    for move in list_moves(pos):
        if not useful(pos, move):
            continue
        after, turned = play(pos, move)
        after_key = key_of(after)
        if after_key in seen:
            continue
        value = (
            evaluate(after) + REVEAL * turned if turned else search(after, depth - 1, {after_key})
        )
        if value - here > best[0] + 1e-9:
            best = (value - here, move)
    if cache is not None:
        cache[key] = best
    return best
