"""How Scala 40 looks in the terminal: every meld on the table with who laid it, the
pozzo's top, the hand, and at the end of every hand each player's penalty line by line.

Everything comes from the human's view. Hands are shown sorted by suit and rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.rummy.deck import pretty, pretty_all, sort_key
from tavolo.cardgames.games.rummy.melds import SCALA40_MELDS, Meld, describe, read_meld
from tavolo.cardgames.games.rummy.scala40_scoring import OPENING, meld_value
from tavolo.cli.play.renderers import arrangement
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import agree, count, does, ordinal


def scoring_lines(
    summary: Mapping[str, Any], p: Mapping[str, Any], names: Sequence[str]
) -> list[str]:
    """The end-of-hand penalties, player by player."""
    closer = summary.get("closed_by")
    how = " in mano (penalties doubled)" if summary.get("in_mano") else ""
    head = f"{names[closer]} closed{how}" if closer is not None else "Nobody closed"
    lines = [f"Hand {summary['hand']} is over: {head}."]
    for line in summary["players"]:
        who = names[line["seat"]]
        if line["closed"]:
            lines.append(f"  {who:<16} closed                      0")
        elif not line["opened"]:
            lines.append(f"  {who:<16} never opened              {line['points']:+4d}")
        else:
            lines.append(f"  {who:<16} {line['cards']:<26}{line['points']:+4d}")
    totals = summary["totals"]
    lines.append(
        "  Totals: "
        + "   ".join(
            f"{names[s]} {t}"
            for s, t in enumerate(totals)
            if p["alive"][s] or s in summary["eliminated"]
        )
    )
    for seat in summary["eliminated"]:
        who = names[seat]
        out = agree(who, "is", "are")
        lines.append(f"  {does(who, 'reaches')} {p['elimination']} and {out} out.")
    return lines


def take_back(p: Mapping[str, Any]) -> str:
    """The take-back choice in the words of what it undoes: the opening melds not yet
    down, and the pozzo card only when one was taken this turn."""
    taken = p.get("pozzo_card_taken")
    pending = any(m["pending"] for m in p["melds"])
    back = f"put {taken} back on the pozzo" if taken else ""  # the view names it
    if pending:
        melds = "take back your opening melds"
        return f"{melds} and {back}" if back else melds
    return back or "take back your opening melds"


def _opened(view: View) -> bool:
    return bool(view.public["opened"][view.seat if view.seat is not None else 0])


def _toward_opening(view: View, worth: int) -> str:
    """`` (worth 18)``, `` (worth 33, opens)`` before the seat opens; nothing after."""
    if _opened(view):
        return ""
    opens = view.public["opening_so_far"] + worth >= OPENING
    return f" (worth {worth}{', opens' if opens else ''})"


def _worth(action: Action) -> int:
    meld = read_meld(action.cards, SCALA40_MELDS)
    return meld_value(meld) if isinstance(meld, Meld) else 0


class Scala40Renderer:
    """Renders Scala 40 views; see :class:`tavolo.cli.play.command.Renderer`."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Scala 40 goes anticlockwise, seat s to s+1 (RULES §0.2)."""
        p: Any = view.public
        if p.get("places") or p.get("phase") == "over" or p.get("turn") is None:
            return None
        return turn_line(
            p["turn"],
            view.seat,
            names,
            ANTICLOCKWISE,
            "draw" if p["phase"] == "draw" else "meld or discard",
        )

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        seat = view.seat if view.seat is not None else 0
        phase = "draw or take the pozzo" if p["phase"] == "draw" else "meld, attach or discard"
        lines = [f"--- Hand {p['hand']} - your turn: {phase} " + "-" * 20]
        lines.append(
            "Totals: "
            + "   ".join(f"{names[s]} {t}" for s, t in enumerate(p["totals"]) if p["alive"][s])
            + f"   (out at {p['elimination']})"
        )
        lines.append("Melds on the table:")
        for i, m in enumerate(p["melds"]):
            pending = "  (opening, not yet down)" if m["pending"] else ""
            lines.append(f"    {i + 1}: {m['shown']}   by {names[m['owner']]}{pending}")
        if not p["melds"]:
            lines.append("    (none yet)")
        sizes = " | ".join(
            f"{names[s]} {n}{'' if p['opened'][s] else ' (not open)'}"
            for s, n in enumerate(p["hand_sizes"])
            if p["alive"][s]
        )
        lines.append(f"Cards in hand: {sizes}   Stock: {p['stock_size']}")
        pozzo = p["pozzo"]
        lines.append(
            f"Pozzo: {count(len(pozzo), 'card')}, top {pretty(pozzo[-1]) if pozzo else 'empty'}"
        )
        if not p["opened"][seat]:
            lines.append(f"You have not opened: lay 40 or more ({p['opening_so_far']} so far).")
        if p["first_round"]:
            lines.append("First round: nobody may close yet.")
        lines.append(
            "Your hand: " + "  ".join(f"[{n}] {pretty(c)}" for n, c in enumerate(view.hand, 1))
        )
        return "\n".join(lines)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        lines: list[str] = []
        if old is None or old["hand"] != p["hand"]:
            if p["last_hand"] is not None and old is not None:
                lines.extend(scoring_lines(p["last_hand"], p, names))
            lines.append(f"Hand {p['hand']}: {names[p['dealer']]} dealt.")
            return lines
        actor = old["turn"] if old["turn"] is not None else p["turn"]
        who = names[actor] if actor is not None else "A player"
        was, now = old["pozzo"], p["pozzo"]
        if old["phase"] == "draw" and p["stock_size"] < old["stock_size"]:
            lines.append(f"{does(who, 'draws')} from the stock.")
        elif old["phase"] == "draw" and len(now) < len(was):
            lines.append(f"{does(who, 'takes')} {pretty(was[-1])} from the pozzo.")
        same_turn = p["turn"] == old["turn"] and p["phase"] == old["phase"]
        returned = same_turn and old["pozzo_card_taken"] and not p["pozzo_card_taken"]
        took_back = len(p["melds"]) < len(old["melds"]) or returned
        if len(p["melds"]) < len(old["melds"]):
            back = f"; {old['pozzo_card_taken']} goes back on the pozzo" if returned else ""
            lines.append(f"{does(who, 'takes')} back the opening melds{back}.")
        elif returned:
            lines.append(f"{does(who, 'puts')} {old['pozzo_card_taken']} back on the pozzo.")
        for i, m in enumerate(p["melds"]):
            if i >= len(old["melds"]):
                lines.append(f"{does(names[m['owner']], 'melds')} {m['shown']} (meld {i + 1}).")
            elif old["melds"][i]["cards"] != m["cards"]:
                lines.append(f"{does(who, 'adds')} to meld {i + 1}: {m['shown']}.")
        for s, opened in enumerate(p["opened"]):
            if opened and not old["opened"][s]:
                lines.append(f"{names[s]} opened.")
        if old["phase"] != "draw" and now and len(now) > len(was) and not took_back:
            lines.append(f"{does(who, 'discards')} {pretty(now[-1])}.")
        if p["phase"] == "over" != old["phase"] and p["last_hand"] is not None:
            lines.extend(scoring_lines(p["last_hand"], p, names))
        return lines

    def choice(self, action: Action, view: View) -> str:
        kind = action.kind
        if kind is ActionKind.DRAW:
            return "draw from the stock"
        if kind is ActionKind.TAKE_DISCARD:
            pozzo = view.public["pozzo"]
            return f"take {pretty(pozzo[-1])} from the pozzo"
        if kind is ActionKind.MELD:
            meld = read_meld(action.cards, SCALA40_MELDS)
            if not isinstance(meld, Meld):
                return f"meld {pretty_all(action.cards)}"
            return f"meld {describe(meld)}{_toward_opening(view, meld_value(meld))}"
        if kind is ActionKind.ATTACH:
            where = f" at the {action.target} end" if action.target else ""
            return f"add {pretty(action.cards[0])} to meld {(action.meld or 0) + 1}{where}"
        if kind is ActionKind.DISCARD:
            return f"discard {pretty(action.cards[0])}"
        if kind is ActionKind.PASS:
            return take_back(view.public)
        return str(action)

    def new_recall(self) -> TakenBack:
        return TakenBack()

    def menu(
        self, view: View, legal: Sequence[Action], recall: TakenBack | None = None
    ) -> list[tuple[str, Action]]:
        """Before opening, the melds worth most toward the 40 come first; melds of cards
        taken back this turn come last, after the discards (picking the first choice
        laid a meld short of the 40 and took it back for ever)."""
        entries = [(self.choice(a, view), a) for a in legal]
        if _opened(view):
            return entries
        melds = [e for e in entries if e[1].kind is ActionKind.MELD]
        melds.sort(key=lambda e: -_worth(e[1]))
        back = recall.cards if recall is not None else set()
        again = [e for e in melds if _cards(e[1]) in back]
        fresh = [e for e in melds if _cards(e[1]) not in back]
        return fresh + [e for e in entries if e[1].kind is not ActionKind.MELD] + again

    def call_prompt(self, view: View) -> str | None:
        return None  # Scala 40 has no timed calls

    arranges_locally = True
    """The rules keep no order of the hand: the client keeps the player's own."""

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return arrangement(view.hand, command, sort_key)

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = ["--- Final places " + "-" * 30]
        for seat in sorted(range(len(outcome.places)), key=lambda s: outcome.places[s]):
            place = ordinal(outcome.places[seat])
            lines.append(f"{place:>4}  {names[seat]} ({count(p['totals'][seat], 'point')})")
        return "\n".join(lines)


def _cards(action: Action) -> tuple[str, ...]:
    return tuple(sorted(action.cards))


class TakenBack:
    """The client's memory of the player's melds this turn, and of those taken back."""

    def __init__(self) -> None:
        self.laid: list[tuple[str, ...]] = []
        self.cards: set[tuple[str, ...]] = set()
        """The cards of every meld taken back this turn."""

    def note(self, view: View, legal: Sequence[Action], action: Action) -> None:
        if action.kind is ActionKind.MELD:
            self.laid.append(_cards(action))
        elif action.kind is ActionKind.PASS:  # the take-back
            self.cards.update(self.laid)
            self.laid = []
        elif action.kind is ActionKind.DISCARD:  # the turn is over
            self.laid, self.cards = [], set()


RENDERER = Scala40Renderer()
