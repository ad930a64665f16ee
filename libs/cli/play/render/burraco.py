"""How Burraco looks in the terminal: each side's melds, the discard pile's top, the
hand, and at the end of every hand the scoring line by line (melded cards, burraci,
closing, cards in hand, the pozzetto).

Everything comes from the human's view. Hands are shown sorted by suit and rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.rummy.deck import pretty, pretty_all, sort_key
from tavolo.cardgames.games.rummy.melds import BURRACO_MELDS, Meld, describe, read_meld
from tavolo.cli.play.renderers import arrangement
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import count, does, match_words, ordinal, side_places


def _side(names: Sequence[str], seats: Sequence[int]) -> str:
    return " & ".join(names[s] for s in seats)


def side_melds(p: Mapping[str, Any], side: int) -> list[str]:
    """One line per meld: its number (from 1, as the menu says it), its cards with what
    a wild stands for, a burraco."""
    lines = []
    for i, m in enumerate(p["melds"][side]):
        tag = f"  [burraco {m['burraco']}]" if m.get("burraco") else ""
        lines.append(f"    {i + 1}: {m['shown']}{tag}")
    return lines or ["    (no melds yet)"]


def scoring_lines(
    summary: Mapping[str, Any], p: Mapping[str, Any], names: Sequence[str]
) -> list[str]:
    """The end-of-hand scoring, side by side and line by line."""
    title = "Tie-break hand" if summary.get("tie_break") else "Hand"
    lines = [f"{title} {summary['hand']} is over:"]
    closer = summary.get("closed_by")
    for side, score in enumerate(summary["sides"]):
        who = _side(names, p["sides"][side])
        burraci = ", ".join(score["burraci"]) or "none"
        lines.append(f"  {who}:")
        rows = [("melded cards", score["melded"])]
        rows.append((f"burraci ({burraci})", score["burraco_bonus"]))
        if score["closing"]:
            rows.append(("closing", score["closing"]))
        rows.append(("cards in hand", -score["in_hand"]))
        if score["no_pozzetto"]:
            rows.append(("pozzetto never taken", -score["no_pozzetto"]))
        rows.append(("hand total", score["total"]))
        lines.extend(f"    {label:<28}{value:+6d}" for label, value in rows)
    if closer is None:
        lines.append("  Nobody closed: the stock ran down to two cards.")
    totals = summary["totals"]
    lines.append(
        "  Match: "
        + "   ".join(f"{_side(names, p['sides'][s])} {totals[s]}" for s in (0, 1))
        + f"   ({match_words(p['match_length'])})"
    )
    return lines


class BurracoRenderer:
    """Renders Burraco views; see :class:`tavolo.cli.play.command.Renderer`."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Burraco goes anticlockwise, seat s to s+1 (RULES §0.2)."""
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
        phase = "draw or take the pile" if p["phase"] == "draw" else "meld, attach or discard"
        lines = [f"--- Hand {p['hand']} - your turn: {phase} " + "-" * 20]
        lines.append(
            "Match: "
            + "   ".join(f"{_side(names, p['sides'][s])} {p['totals'][s]}" for s in (0, 1))
            + f"   ({match_words(p['match_length'])})"
        )
        for side in (0, 1):
            taken = "taken" if p["took_pozzetto"][side] else "waiting"
            lines.append(f"  {_side(names, p['sides'][side])} (pozzetto {taken}):")
            lines.extend(side_melds(p, side))
        sizes = " | ".join(f"{names[s]} {n}" for s, n in enumerate(p["hand_sizes"]))
        lines.append(f"Cards in hand: {sizes}   Stock: {p['stock_size']}")
        pile = p["discard"]
        top = pretty(pile[-1]) if pile else "empty"
        under = (
            f" (on {pretty_all(pile[:-1][-6:])}{' ...' if len(pile) > 7 else ''})"
            if len(pile) > 1
            else ""
        )
        lines.append(f"Discard pile: {count(len(pile), 'card')}, top {top}{under}")
        if p["last_turn"]:
            lines.append("The stock is down to two cards: this is the last turn of the hand.")
        lines.append(
            "Your hand: " + "  ".join(f"[{n}] {pretty(c)}" for n, c in enumerate(view.hand, 1))
        )
        return "\n".join(lines)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        lines: list[str] = []
        new_hand = old is None or old["hand"] != p["hand"]
        if new_hand:
            if p["last_hand"] is not None and old is not None:
                lines.extend(scoring_lines(p["last_hand"], p, names))
            lines.append(f"Hand {p['hand']}: {names[p['dealer']]} dealt.")
            return lines
        lines.extend(self._moves(old, p, names))
        if p["phase"] == "over" != old["phase"] and p["last_hand"] is not None:
            lines.extend(scoring_lines(p["last_hand"], p, names))
        return lines

    def _moves(self, old: Any, p: Any, names: Sequence[str]) -> list[str]:
        """Who drew from where, melded, added to a meld or discarded, since ``old``: the
        seat whose turn it was did it (views come move by move)."""
        actor = old["turn"] if old["turn"] is not None else p["turn"]
        who = names[actor] if actor is not None else "A player"
        lines = []
        was_pile, pile = old["discard"], p["discard"]
        took_pile = len(was_pile) > 0 and len(pile) < len(was_pile)
        if took_pile:
            lines.append(
                f"{does(who, 'takes')} the discard pile "
                f"({count(len(was_pile), 'card')}: {pretty_all(was_pile)})."
            )
        elif p["stock_size"] < old["stock_size"] and old["phase"] == "draw":
            lines.append(f"{does(who, 'draws')} from the stock.")
        for side in (0, 1):
            was, now = old["melds"][side], p["melds"][side]
            for i, m in enumerate(now):
                if i >= len(was):
                    lines.append(f"{does(who, 'melds')} {m['shown']} (meld {i + 1}).")
                elif was[i]["cards"] != m["cards"]:
                    lines.append(f"{does(who, 'adds')} to meld {i + 1}: {m['shown']}.")
            if p["took_pozzetto"][side] and not old["took_pozzetto"][side]:
                lines.append(f"{does(who, 'takes')} the pozzetto.")
        if len(pile) > len(was_pile) or (
            pile and was_pile and pile[-1] != was_pile[-1] and not took_pile
        ):
            lines.append(f"{does(who, 'discards')} {pretty(pile[-1])}.")
        return lines

    def choice(self, action: Action, view: View) -> str:
        kind = action.kind
        if kind is ActionKind.DRAW:
            return "draw from the stock"
        if kind is ActionKind.TAKE_DISCARD:
            pile = view.public["discard"]
            return f"take the discard pile ({count(len(pile), 'card')}: {pretty_all(pile)})"
        if kind is ActionKind.MELD:
            meld = read_meld(action.cards, BURRACO_MELDS)
            return f"meld {describe(meld) if isinstance(meld, Meld) else pretty_all(action.cards)}"
        if kind is ActionKind.ATTACH:
            where = f" at the {action.target} end" if action.target else ""
            return f"add {pretty(action.cards[0])} to meld {(action.meld or 0) + 1}{where}"
        if kind is ActionKind.DISCARD:
            return f"discard {pretty(action.cards[0])}"
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        return None  # Burraco has no timed calls

    arranges_locally = True
    """The rules keep no order of the hand: the client keeps the player's own."""

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return arrangement(view.hand, command, sort_key)

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = ["--- Final places " + "-" * 30]
        places = side_places([outcome.places[seats[0]] for seats in p["sides"]])
        for side in sorted((0, 1), key=lambda t: places[t]):
            seats = p["sides"][side]
            place = ordinal(places[side])
            lines.append(f"{place:>4}  {_side(names, seats)} ({count(p['totals'][side], 'point')})")
        return "\n".join(lines)


RENDERER = BurracoRenderer()
