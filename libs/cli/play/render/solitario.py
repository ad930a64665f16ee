"""How Solitario (Klondike) looks in the terminal: the seat's own layout, from its view.

The foundations and the stock in a line, the waste's top cards (only the last plays),
then the seven columns side by side, face-down cards as ``##``. Moves read as a player
says them: "9♥ from the waste onto column 3".
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.french_deck import SUIT_SYMBOLS, SUITS, pretty
from tavolo.cardgames.games.solitario.piles import card_of
from tavolo.cli.play.wording import ordinal

_RANK_NAMES = {1: "A", 11: "J", 12: "Q", 13: "K"}
_RESULTS = {
    "won": "won",
    "stopped": "stopped",
    "timeout": "timed out",
    "time_limit": "ran out of time",
}


def _pile(name: str) -> str:
    if name == "waste":
        return "the waste"
    if name.startswith("t"):
        return f"column {name[1:]}"
    return f"the {SUIT_SYMBOLS[name[1:]]} foundation"


def _foundation(suit: str, top: int) -> str:
    if not top:
        return f"[ {SUIT_SYMBOLS[suit]}]"
    return f"[{_RANK_NAMES.get(top, str(top))}{SUIT_SYMBOLS[suit]}]"


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
        passes = "" if left is None else f", {left} more turn(s) of the waste"
        lines = [f"--- Solitario, draw {p['draw']}, {p['scoring']} scoring " + "-" * 20]
        lines.append(
            f"Score {p['scores'][seat]}   Moves {me['moves']}   "
            + " ".join(_foundation(s, me["foundations"][i]) for i, s in enumerate(SUITS))
        )
        shown = me["waste"][-int(p["draw"]) :]
        waste = " ".join(pretty(c) for c in shown) if shown else "empty"
        lines.append(f"Stock {me['stock']} card(s){passes}   Waste: {waste}")
        columns = [
            ["##"] * down + [pretty(c) for c in up]
            for down, up in zip(me["face_down"], me["columns"], strict=True)
        ]
        lines.append("  ".join(f"{k + 1:>4}" for k in range(len(columns))))
        for row in range(max((len(c) for c in columns), default=0)):
            lines.append("  ".join(f"{c[row] if row < len(c) else '':>4}" for c in columns))
        if len(p["scores"]) > 1:
            lines.append(
                "Others: "
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
                lines.append(f"{names[s]} {_RESULTS.get(result, result)} with {p['scores'][s]}.")
        return lines

    def choice(self, action: Action, view: View) -> str:
        me: Any = view.private
        kind = action.kind
        if kind is ActionKind.DRAW:
            return "turn the stock" if me["stock"] else "turn the waste over into the stock"
        if kind is ActionKind.STOP:
            return "stop here with this score"
        if kind is ActionKind.MOVE and action.source and action.target:
            count = action.count or 1
            if action.source == "waste":
                card = me["waste"][-1]
            elif action.source.startswith("t"):
                card = me["columns"][int(action.source[1:]) - 1][-count]
            else:
                suit = SUITS.index(action.source[1:])
                card = card_of(suit, me["foundations"][suit])
            run = f" and the {count - 1} on it" if count > 1 else ""
            return f"{pretty(card)}{run} from {_pile(action.source)} onto {_pile(action.target)}"
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        return None  # no timed calls

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return None  # no hand to reorder

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        lines = ["--- Final places " + "-" * 30]
        results = outcome.detail.get("results", [])
        for s in sorted(range(len(outcome.places)), key=lambda s: outcome.places[s]):
            how = _RESULTS.get(results[s], "") if s < len(results) else ""
            points = f"{outcome.scores[s]} points" + (f", {how}" if how else "")
            lines.append(f"{ordinal(outcome.places[s]):>4}  {names[s]} ({points})")
        return "\n".join(lines)


RENDERER = SolitarioRenderer()
