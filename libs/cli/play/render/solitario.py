"""How Solitario (Klondike) looks in the terminal: the seat's own layout, from its view.

The foundations and the stock in a line, the waste's top cards (only the last plays),
then the seven columns side by side, face-down cards as ``##``. Moves read as a player
says them: "9♥ from the waste onto column 3".
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.french_deck import SUIT_SYMBOLS, SUITS, pretty
from tavolo.cardgames.games.solitario.piles import (
    RANK,
    RED,
    SUIT_INDEX,
    card_of,
    fits_on_column,
)
from tavolo.cli.i18n import N_, _
from tavolo.cli.play.render.solitario_recall import Recall
from tavolo.cli.play.wording import count, ordinal

_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RESULTS = {
    "won": N_("won"),
    "stopped": N_("stopped"),
    "timeout": N_("timed out"),
    "time_limit": N_("ran out of time"),
}
STOP = N_("stop here with this score")
STOP_ONLY = N_("stop: nothing but the stock can move any more")
"""The menu's two ways of saying "stop" (a scripted player looks for them)."""


def _result(result: str) -> str:
    return _(_RESULTS[result]) if result in _RESULTS else result


def _pile(name: str) -> str:
    if name == "waste":
        return _("the waste")
    if name.startswith("t"):
        return _("column {n}").format(n=name[1:])
    return _("the {suit} foundation").format(suit=SUIT_SYMBOLS[name[1:]])


def _foundation(suit: str, top: int) -> str:
    if not top:
        return f"[ {SUIT_SYMBOLS[suit]}]"
    return f"[{_RANK_NAMES.get(top, str(top))}{SUIT_SYMBOLS[suit]}]"


def _pointless(action: Action, me: Mapping[str, Any]) -> bool:
    """A move that only comes back: an ace off its foundation (nothing goes on it in a
    column), or a run between columns that uncovers nothing new (it leaves a card of
    the target's rank and colour, or an empty column for an empty one)."""
    source, target = action.source or "", action.target or ""
    if action.kind is not ActionKind.MOVE:
        return False
    if source.startswith("f"):
        return bool(me["foundations"][SUITS.index(source[1:])] == 1)
    if not (source.startswith("t") and target.startswith("t")):
        return False
    k, to = int(source[1:]) - 1, int(target[1:]) - 1
    up, left = me["columns"][k], me["columns"][k][: -(action.count or 1)]
    if left:
        under, onto = left[-1], me["columns"][to][-1] if me["columns"][to] else None
        return onto is not None and RANK[under] == RANK[onto] and RED[under] == RED[onto]
    return bool(up) and not me["face_down"][k] and not me["columns"][to]


def _fits_somewhere(card: str, me: Mapping[str, Any]) -> bool:
    """Could ``card`` go onto a foundation or a column as the layout stands?"""
    if me["foundations"][SUIT_INDEX[card]] == RANK[card] - 1:
        return True
    return any(
        fits_on_column(card, up[-1] if up else None) if up or not down else False
        for up, down in zip(me["columns"], me["face_down"], strict=True)
    )


def only_cycling(view: View, legal: Sequence[Action]) -> bool:
    """Nothing is left but turning the stock: no move between piles is offered, every
    card is in the waste (so the player has seen them all) and none of them fits
    anywhere, so another pass would change nothing."""
    me: Any = view.private
    if any(a.kind is ActionKind.MOVE for a in legal) or me["stock"]:
        return False
    return not any(_fits_somewhere(card, me) for card in me["waste"])


class SolitarioRenderer:
    """Renders Solitario views; see :class:`tavolo.cli.play.command.Renderer`."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Nobody waits for anybody: every seat plays its own layout at once."""
        return None

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        me: Any = view.private
        seat = view.seat or 0
        left = me["recycles_left"]
        passes = (
            ""
            if left is None
            else ", "
            + _("{turns} of the waste").format(turns=count(left, "more turn", "more turns"))
        )
        lines = [
            _("--- Solitario, draw {draw}, {scoring} scoring ").format(
                draw=p["draw"], scoring=p["scoring"]
            )
            + "-" * 20
        ]
        lines.append(
            _("Score {score}   Moves {moves}   ").format(score=p["scores"][seat], moves=me["moves"])
            + " ".join(_foundation(s, me["foundations"][i]) for i, s in enumerate(SUITS))
        )
        shown = me["waste"][-int(p["draw"]) :]
        waste = " ".join(pretty(c) for c in shown) if shown else _("empty")
        lines.append(
            _("Stock {cards}{passes}   Waste: {waste}").format(
                cards=count(me["stock"], "card", "cards"), passes=passes, waste=waste
            )
        )
        columns = [
            ["##"] * down + [pretty(c) for c in up]
            for down, up in zip(me["face_down"], me["columns"], strict=True)
        ]
        lines.append("  ".join(f"{k + 1:>4}" for k in range(len(columns))))
        for row in range(max((len(c) for c in columns), default=0)):
            lines.append("  ".join(f"{c[row] if row < len(c) else '':>4}" for c in columns))
        if len(p["scores"]) > 1:
            lines.append(
                _("Others: ")
                + " | ".join(
                    f"{names[s]} {score}" for s, score in enumerate(p["scores"]) if s != seat
                )
            )
        return "\n".join(lines)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        lines = []
        for s, result in enumerate(p["finished"]):
            if result is not None and (old is None or old["finished"][s] is None):
                lines.append(
                    _("{who} {result} with {score}.").format(
                        who=names[s], result=_result(result), score=p["scores"][s]
                    )
                )
        return lines

    def choice(self, action: Action, view: View) -> str:
        me: Any = view.private
        kind = action.kind
        if kind is ActionKind.DRAW:
            return _("turn the stock") if me["stock"] else _("turn the waste over into the stock")
        if kind is ActionKind.STOP:
            return _(STOP)
        if kind is ActionKind.MOVE and action.source and action.target:
            moved = action.count or 1
            if action.source == "waste":
                card = me["waste"][-1]
            elif action.source.startswith("t"):
                card = me["columns"][int(action.source[1:]) - 1][-moved]
            else:
                suit = SUITS.index(action.source[1:])
                card = card_of(suit, me["foundations"][suit])
            run = ""
            if moved == 2:
                run = _(" and the card on it")
            elif moved > 2:
                run = _(" and the {n} cards on it").format(n=moved - 1)
            return _("{card}{run} from {source} onto {target}").format(
                card=pretty(card), run=run, source=_pile(action.source), target=_pile(action.target)
            )
        return str(action)

    def new_recall(self) -> Recall:
        """What the client remembers of the player's moves for this menu."""
        return Recall(pointless=_pointless)

    def menu(
        self, view: View, legal: Sequence[Action], recall: Recall | None = None
    ) -> list[tuple[str, Action]]:
        """The moves worth offering: never an ace off its foundation (nothing can go on
        it in a column, so it only comes back), nor a move that undoes the card's
        previous one; when nothing but the stock could change anything any more (see
        :mod:`.solitario_recall`), stopping alone."""
        recall = recall if recall is not None else self.new_recall()
        useful = recall.offered(legal, view.private)
        stop = [a for a in useful if a.kind is ActionKind.STOP]
        if stop and (only_cycling(view, useful) or recall.only_cycling(useful, view)):
            return [(_(STOP_ONLY), a) for a in stop]
        return [(self.choice(a, view), a) for a in useful]

    def call_prompt(self, view: View) -> str | None:
        return None  # no timed calls

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return None  # no hand to reorder

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        lines = [_("--- Final places ") + "-" * 30]
        results = outcome.detail.get("results", [])
        for s in sorted(range(len(outcome.places)), key=lambda s: outcome.places[s]):
            how = _(_RESULTS[results[s]]) if s < len(results) and results[s] in _RESULTS else ""
            points = count(outcome.scores[s], "point", "points") + (f", {how}" if how else "")
            lines.append(f"{ordinal(outcome.places[s]):>4}  {names[s]} ({points})")
        return "\n".join(lines)


RENDERER = SolitarioRenderer()
