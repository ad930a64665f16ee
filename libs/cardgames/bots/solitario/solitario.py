"""Solitario (Klondike) bots at three levels; each sees only its own view.

- easy: a card that can go home goes home, otherwise any move that turns a card up or
  plays the waste, otherwise the stock; like a beginner it turns the waste over at most
  twice;
- medium: safe cards home, then the one move that does the layout most good by the
  look-ahead's measure (a card turned up, a card home, a column emptied for a king; a
  look-ahead of one move), never back to a position it has already played; then the
  stock. It does not plan two moves together (a run moved so that the card it uncovers
  can take the waste), which is what the hard level adds;
- hard: a look-ahead of three moves over what it can see (:mod:`solitario_search`),
  which never returns to a position it has already played. It remembers the stock's
  cards once it has turned them over (:class:`StockMemory`), so after one pass its
  look-ahead also plans which card to bring up from the stock, however many turns that
  takes; when nothing is left to gain, it rearranges the columns into a layout it has not
  tried before stopping.

Every level stops when the stock has gone round with nothing played from it, and a
recycle that costs points is taken only while the last pass played something.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.bots.base import Bot
from tavolo.cardgames.bots.solitario.search import (
    BUDGET,
    DEPTH,
    FOUNDATION,
    LINE_FOUNDATION,
    Cards,
    Step,
    best_line,
    is_safe_to_foundation,
    key_of,
    plan_line,
    play,
    position_of,
    turn_stock,
    useful,
)
from tavolo.cardgames.contract import View
from tavolo.cardgames.games.solitario.piles import (
    COLUMN_NAMES,
    FOUNDATION_NAMES,
    WASTE,
    Move,
    Position,
)
from tavolo.cardgames.rng import SeededRandom

EASY_RECYCLES = 2
"""The easy bot gives up after three passes through the stock."""
PLANNED_DRAWS = (3,)
"""Stock plans and lines pay at draw 3, where most of the stock is out of reach; at draw 1
the shorter look-ahead of the first pass plays as well and faster."""
MAX_PLAN_DRAWS = 60
"""A plan to bring a card up from the stock is dropped after this many draws."""
MEDIUM_DEPTH = 1
MEDIUM_BUDGET = 40
"""Medium weighs each move alone: the greedy order of published Klondike players (home,
turn a card up, the waste down) ranked by one measure instead of a fixed order, which
wins about three deals in ten more at draw 1 than that order did (the bot league)."""


class _StockWatch:
    """Counts turns of the stock with nothing played, to know when to stop."""

    def __init__(self) -> None:
        self.idle_draws = 0
        self.played_since_recycle = True

    def exhausted(self, pos: Position) -> bool:
        """The stock and waste have gone round once with no card played."""
        return self.idle_draws > pos.stock + len(pos.waste) + 1

    def drew(self, pos: Position) -> None:
        if not pos.stock:
            self.played_since_recycle = False
        self.idle_draws += 1

    def played(self) -> None:
        self.idle_draws = 0
        self.played_since_recycle = True


class StockMemory:
    """The stock's order as the player has seen it (its top last), or None while some of
    it has never been turned over: at the start, and until the first pass has ended."""

    def __init__(self) -> None:
        self.stock: Cards | None = None
        self.last_waste: Cards = ()

    def update(self, pos: Position) -> Cards | None:
        """Follow the stock from the last view to this one (draws take from its top, a
        recycle turns the remembered waste over)."""
        known = self.stock
        if not pos.stock:
            known = ()
        elif known is not None and len(known) >= pos.stock:
            drawn = known[pos.stock :]
            if pos.waste[len(pos.waste) - len(drawn) :] == tuple(reversed(drawn)):
                known = known[: pos.stock]
            else:
                known = None
        elif not pos.waste and pos.stock == len(self.last_waste):
            known = tuple(reversed(self.last_waste))
        else:
            known = None
        self.stock, self.last_waste = known, pos.waste
        return known


class SolitarioBot:
    """One seat's player; ``chooser`` ranks the visible moves for its level."""

    def __init__(self, level: str) -> None:
        self.level = level
        self.watch = _StockWatch()
        self.seen: set[tuple[Any, ...]] = set()
        self.lines: dict[tuple[Any, ...], tuple[float, Step | None]] = {}
        self.memory = StockMemory()
        self.plan: tuple[str, Move] | None = None  # a card to bring up from the stock, and its move
        self.plan_draws = 0
        self.line: list[Step] = []  # the rest of the line being played
        self.foundation = FOUNDATION  # the look-ahead's value of a card home

    def choose(self, view: View, legal: Sequence[Action], rng: SeededRandom) -> Action:
        private: Mapping[str, Any] = view.private
        pos = position_of(private)
        self.seen.add(key_of(pos))
        moves = {
            (a.source or "", a.target or "", a.count or 1): a
            for a in legal
            if a.kind is ActionKind.MOVE
        }
        if self.level == "hard":
            stock = self.memory.update(pos)
            planned = self._follow_plan(pos, moves, legal)
            if planned is not None:
                return planned
            draw_count = int(view.public.get("draw", 1))
            self.foundation = LINE_FOUNDATION if draw_count in PLANNED_DRAWS else FOUNDATION
            if stock is not None and draw_count in PLANNED_DRAWS:
                known = self._hard_known(pos, stock, draw_count, moves, legal)
                assert known is not None
                return known
            if draw_count in PLANNED_DRAWS:  # first pass: lines over what is in sight
                early = self._hard_known(pos, None, draw_count, moves, legal)
                if early is not None:
                    return early
        pick = self._pick(pos, list(moves), rng)
        if pick is not None:
            self.watch.played()
            return moves[pick]
        draw = next((a for a in legal if a.kind is ActionKind.DRAW), None)
        if draw is not None and not self.watch.exhausted(pos) and self._may_recycle(pos, view):
            self.watch.drew(pos)
            return draw
        if self.level == "hard":  # before giving up, rearrange the columns somewhere new
            fresh = _unseen_move(pos, list(moves), self.seen)
            if fresh is not None:
                self.watch.played()
                return moves[self._played(pos, fresh)]
        return next(a for a in legal if a.kind is ActionKind.STOP)

    def _follow_plan(
        self, pos: Position, moves: dict[Move, Action], legal: Sequence[Action]
    ) -> Action | None:
        """Turn the stock until the planned card is the waste's top, then play it."""
        if self.plan is None:
            return None
        card, move = self.plan
        if pos.waste[-1:] == (card,):
            self.plan = None
            if move not in moves:
                return None
            self.watch.played()
            return moves[self._played(pos, move)]
        draw = next((a for a in legal if a.kind is ActionKind.DRAW), None)
        self.plan_draws += 1
        if draw is None or self.plan_draws > MAX_PLAN_DRAWS:
            self.plan = None
            return None
        return draw

    def _hard_known(
        self,
        pos: Position,
        stock: Cards | None,
        draw_count: int,
        moves: dict[Move, Action],
        legal: Sequence[Action],
    ) -> Action | None:
        """The hard level once it knows the stock: it follows the best line it can find, the
        stock's cards in it, to its end (a card turned up), then looks again. Drawing
        without a plan would show nothing new."""
        for _ in range(2):  # a line that no longer fits the layout is planned afresh
            if not self.line:
                safe = self._safe_home(pos, list(moves))
                if safe is not None:
                    self.watch.played()
                    return moves[safe]
                _, self.line = plan_line(pos, stock, draw_count, self.seen)
                if not self.line:
                    break
            draws, move = self.line.pop(0)
            if draws == 0 and move in moves:
                self.watch.played()
                return moves[self._played(pos, move)]
            target = None if stock is None else _after_draws(pos, stock, draw_count, draws)
            if draws and target is not None:
                self.plan, self.plan_draws = (target, move), 0
                planned = self._follow_plan(pos, moves, legal)
                if planned is not None:
                    return planned
            self.line = []
        if stock is None:
            return None
        fresh = _unseen_move(pos, list(moves), self.seen)
        if fresh is not None:
            self.watch.played()
            return moves[self._played(pos, fresh)]
        return next(a for a in legal if a.kind is ActionKind.STOP)

    def _safe_home(self, pos: Position, moves: list[Move]) -> Move | None:
        """A card no column needs goes home at once."""
        for move in moves:
            if move[1] in FOUNDATION_NAMES and move[0] != WASTE:
                card = pos.up[COLUMN_NAMES.index(move[0])][-1]
                if is_safe_to_foundation(pos, card):
                    return self._played(pos, move)
            elif move[1] in FOUNDATION_NAMES and is_safe_to_foundation(pos, pos.waste[-1]):
                return self._played(pos, move)
        return None

    def _may_recycle(self, pos: Position, view: View) -> bool:
        """A recycle that costs points only after a pass that played something."""
        if pos.stock:
            return True
        if self.level == "easy" and int(view.private.get("recycles", 0)) >= EASY_RECYCLES:
            return False
        costly = view.public.get("scoring") == "standard" and (
            view.public.get("draw") == 1 or int(view.private.get("recycles", 0)) >= 2
        )
        return self.watch.played_since_recycle or not costly

    def _pick(self, pos: Position, moves: list[Move], rng: SeededRandom) -> Move | None:
        if self.level == "easy":
            return _easy(pos, moves, rng)
        if self.level == "medium":
            return self._look_ahead(pos, moves, MEDIUM_DEPTH, MEDIUM_BUDGET)
        return self._look_ahead(pos, moves, DEPTH, BUDGET)

    def _look_ahead(self, pos: Position, moves: list[Move], depth: int, budget: int) -> Move | None:
        """Safe cards home, else the first move of the best line of ``depth`` moves over
        what is in sight (before the stock is known, for hard)."""
        safe = self._safe_home(pos, moves)
        if safe is not None:
            return safe
        _, step = best_line(
            pos, self.seen, self.lines, budget=budget, depth=depth, foundation=self.foundation
        )
        line = None if step is None else step[1]
        chosen = line if line is not None else _waste_move(pos, moves, self.seen)
        return None if chosen is None else self._played(pos, chosen)

    def _played(self, pos: Position, move: Move) -> Move:
        self.seen.add(key_of(play(pos, move)[0]))
        return move


def _after_draws(pos: Position, stock: Cards, draw: int, draws: int) -> str | None:
    """The waste's top after turning the remembered stock ``draws`` times, or ``None``
    when that leaves no waste: a line planned in another position than this one (the
    seat was played by someone else meanwhile), which is then planned afresh."""
    s, w = stock, pos.waste
    for _ in range(draws):
        s, w = turn_stock(s, w, draw)
    return w[-1] if w else None


def _unseen_move(pos: Position, moves: list[Move], seen: set[tuple[Any, ...]]) -> Move | None:
    """A move between columns to a layout never played, which may open the stock's cards."""
    for move in moves:
        if move[0] in COLUMN_NAMES and useful(pos, move) and key_of(play(pos, move)[0]) not in seen:
            return move
    return None


def _waste_move(pos: Position, moves: list[Move], seen: set[tuple[Any, ...]]) -> Move | None:
    """The waste's top onto a column or home, when it leads somewhere new."""
    for move in moves:
        if move[0] == WASTE and key_of(play(pos, move)[0]) not in seen:
            return move
    return None


def _easy(pos: Position, moves: list[Move], rng: SeededRandom) -> Move | None:
    """A beginner: home first, else any move that turns a card up or plays the waste."""
    home = [m for m in moves if m[1] in FOUNDATION_NAMES]
    if home:
        return home[0]
    plausible = [m for m in moves if m[0] == WASTE or _turns_up(pos, m)]
    return plausible[rng.randbelow(len(plausible))] if plausible else None


def _turns_up(pos: Position, move: Move) -> bool:
    if move[0] not in COLUMN_NAMES:
        return False
    k = COLUMN_NAMES.index(move[0])
    return move[2] == len(pos.up[k]) and pos.down[k] > 0


def _factory(level: str) -> Callable[[], Bot]:
    return lambda: SolitarioBot(level)


BOTS: dict[str, Callable[[], Bot]] = {
    level: _factory(level) for level in ("easy", "medium", "hard")
}
