"""What the Solitario client remembers of the player's own moves, so that its menu never
loops (SOLO-*: the rules allow every move back and forth; the engine lists them all).

Two things come from that memory, both about the layout of columns and foundations
(the stock and the waste aside, which only the stock's turning changes):

- a move that would undo the card's previous move, putting the layout back as it was
  before it, is not offered (a card up and down between a foundation and a column);
- when a whole pass of the stock has offered no move that leads to a layout not seen
  before, nothing but turning the stock is left, and the menu says so and offers the
  stop alone.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.french_deck import SUITS
from tavolo.cardgames.games.solitario.piles import card_of

Layout = tuple[tuple[tuple[str, ...], ...], tuple[int, ...], tuple[int, ...]]
"""Columns (face-up cards), face-down counts, foundation tops: all a move may change
apart from the waste."""

_TURNED = "?"
"""A face-down card turned up by a move: unknown until the next view, and new."""


def layout(me: Mapping[str, Any]) -> Layout:
    return (
        tuple(tuple(col) for col in me["columns"]),
        tuple(me["face_down"]),
        tuple(me["foundations"]),
    )


def moved_card(action: Action, me: Mapping[str, Any]) -> str:
    """The card a move takes (the lowest of a run)."""
    source = action.source or ""
    if source == "waste":
        return str(me["waste"][-1])
    if source.startswith("t"):
        return str(me["columns"][int(source[1:]) - 1][-(action.count or 1)])
    suit = SUITS.index(source[1:])
    return card_of(suit, me["foundations"][suit])


def after(action: Action, me: Mapping[str, Any]) -> Layout:
    """The layout a move leaves (a face-down card it uncovers shows as ``?``)."""
    columns = [list(col) for col in me["columns"]]
    down = list(me["face_down"])
    found = list(me["foundations"])
    source, target, n = action.source or "", action.target or "", action.count or 1
    if source == "waste":
        cards = [str(me["waste"][-1])]
    elif source.startswith("t"):
        k = int(source[1:]) - 1
        cards, columns[k] = columns[k][-n:], columns[k][:-n]
        if not columns[k] and down[k]:
            down[k] -= 1
            columns[k] = [_TURNED]
    else:
        suit = SUITS.index(source[1:])
        cards = [card_of(suit, found[suit])]
        found[suit] -= 1
    if target.startswith("t"):
        columns[int(target[1:]) - 1].extend(cards)
    else:
        found[SUITS.index(target[1:])] += 1
    return tuple(tuple(col) for col in columns), tuple(down), tuple(found)


def _stock(me: Mapping[str, Any]) -> tuple[tuple[str, ...], int]:
    """Where the stock's turning stands: the waste and the stock's size."""
    return tuple(me["waste"]), int(me["stock"])


@dataclass
class Recall:
    """The player's own moves at one table, as far as the menu needs them."""

    pointless: Callable[[Action, Mapping[str, Any]], bool] = lambda action, me: False
    """Moves the menu never offers whatever came before (an ace off its foundation)."""
    seen: set[Layout] = field(default_factory=set)
    """Every layout the player has chosen a move from."""
    last: dict[str, tuple[str, str, Layout]] = field(default_factory=dict)
    """Each card's previous move: from, to, and the layout it left."""
    quiet: set[tuple[tuple[str, ...], int]] = field(default_factory=set)
    """Where the stock stood at each choice since the last one that offered a move to a
    layout not seen before; coming back to one of them closes a whole pass."""

    def undoes(self, action: Action, me: Mapping[str, Any]) -> bool:
        """The move takes a card back to where its previous move took it from, and
        nothing else changed since: it would only put the layout back."""
        if action.kind is not ActionKind.MOVE or action.source == "waste":
            return False
        previous = self.last.get(moved_card(action, me))
        return previous is not None and previous == (action.target, action.source, layout(me))

    def offered(self, legal: Sequence[Action], me: Mapping[str, Any]) -> list[Action]:
        """The legal moves worth offering: neither pointless nor an undo."""
        return [a for a in legal if not self.pointless(a, me) and not self.undoes(a, me)]

    def progress(self, offered: Sequence[Action], me: Mapping[str, Any]) -> bool:
        """Some offered move leads to a layout not seen before."""
        here = layout(me)
        return any(
            a.kind is ActionKind.MOVE and (lands := after(a, me)) != here and lands not in self.seen
            for a in offered
        )

    def only_cycling(self, offered: Sequence[Action], view: View) -> bool:
        """No offered move leads anywhere new, and either the stock cannot turn any more
        or a whole pass of it has offered nothing new either."""
        me: Any = view.private
        if self.progress(offered, me):
            return False
        cannot_turn = not any(a.kind is ActionKind.DRAW for a in offered)
        return cannot_turn or _stock(me) in self.quiet

    def note(self, view: View, legal: Sequence[Action], action: Action) -> None:
        """The player chose ``action`` from ``legal`` at ``view``."""
        me: Any = view.private
        here = layout(me)
        if self.progress(self.offered(legal, me), me):
            self.quiet = set()
        else:
            self.quiet.add(_stock(me))
        self.seen.add(here)
        if action.kind is ActionKind.MOVE and action.source and action.target:
            left = after(action, me)
            if left not in self.seen:
                self.quiet = set()
            self.last[moved_card(action, me)] = (action.source, action.target, left)
