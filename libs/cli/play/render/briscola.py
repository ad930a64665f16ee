"""How Briscola looks in the terminal: the table from the player's view, and menu lines.

Everything comes from the human's view (seat 0): its hand (strongest first in each
suit), the trumps and the turned card under the stock, the trick on the table, the last
finished trick, and at the end of each hand the card points of each side.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.italian_cards import SUIT_NAMES, pretty
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import count, ordinal, side_places


def _side(names: Sequence[str], seats: Sequence[int]) -> str:
    return " & ".join(names[s] for s in seats)


def _does(names: Sequence[str], seat: int, me: int | None, you: str, others: str) -> str:
    """``"You take"`` for the viewer's own seat, ``"Bot 1 takes"`` for another."""
    return f"{names[seat]} {you if seat == me else others}"


def _plays(plays: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    return ", ".join(f"{names[p['seat']]} {pretty(p['card'])}" for p in plays)


class BriscolaRenderer:
    """Renders Briscola views; see :class:`tavolo.cli.play.command.Renderer`."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Briscola goes anticlockwise, seat s to s+1 (RULES §0.2)."""
        p: Any = view.public
        if p.get("places") or p.get("phase") == "over" or p.get("turn") is None:
            return None
        return turn_line(p["turn"], view.seat, names, ANTICLOCKWISE, "play")

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = [f"--- Hand {p['hand_no']}, trick {p['trick_number']} - your turn " + "-" * 20]
        turned = f", the {pretty(p['turned'])} under the stock" if p["turned"] else ""
        lines.append(
            f"Trumps: {SUIT_NAMES[p['trumps']]}{turned}.  Stock: {count(p['stock_size'], 'card')}."
        )
        if p["match_length"] != "single":
            lines.append(
                "Hands won: "
                + "   ".join(
                    f"{_side(names, side)} {p['hands_won'][i]}" for i, side in enumerate(p["sides"])
                )
                + f"   ({p['match_length']})"
            )
        if p["tie_break"]:
            lines.append(f"Tie-break hand {p['tie_break']}.")
        table = _plays(p["trick"], names) if p["trick"] else "nothing yet: you lead"
        lines.append(f"On the table: {table}")
        lines.append("Your hand: " + "  ".join(pretty(c) for c in view.hand))
        return "\n".join(lines)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        new_hand = old is None or old["hand_no"] != p["hand_no"]
        lines: list[str] = []
        if new_hand and p["last_hand"] is not None and old is not None:
            lines.extend(self._hand_over(p, names))
        if new_hand:
            lines.append(
                f"Hand {p['hand_no']}: {_does(names, p['dealer'], after.seat, 'deal', 'deals')}; "
                f"trumps are "
                f"{SUIT_NAMES[p['trumps']]}"
                + (f" (the {pretty(p['turned'])} is turned)." if p["turned"] else ".")
            )
        last = p["last_trick"]
        if last and (new_hand or old["last_trick"] != last):
            won = _does(names, last["winner"], after.seat, "take", "takes")
            lines.append(f"Trick {last['number']}: {_plays(last['plays'], names)} - {won} it.")
        if p["phase"] == "over" != old["phase"] and not new_hand and p["last_hand"] is not None:
            lines.extend(self._hand_over(p, names))
        return lines

    def _hand_over(self, p: Any, names: Sequence[str]) -> list[str]:
        summary = p["last_hand"]
        title = "Tie-break hand" if summary["tie_break"] else "Hand"
        lines = [f"{title} {summary['hand']} is over (card points, 120 in the deck):"]
        for i, side in enumerate(p["sides"]):
            won = " - wins the hand" if summary["winner_side"] == i else ""
            lines.append(f"  {_side(names, side)}: {summary['points'][i]}{won}")
        if summary["winner_side"] is None:
            lines.append("  Nobody wins the hand.")
        return lines

    def choice(self, action: Action, view: View) -> str:
        if action.kind is ActionKind.PLAY:
            return f"play {pretty(action.cards[0])}"
        if action.kind is ActionKind.TAKE:
            turned = pretty(view.public["turned"])
            return f"swap your {pretty(action.cards[0])} for the turned {turned}"
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        return None  # Briscola has no timed calls

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return None  # the hand is always shown sorted

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = ["--- Final places " + "-" * 30]
        places = side_places([outcome.places[side[0]] for side in p["sides"]])
        for i in sorted(range(len(places)), key=lambda i: places[i]):
            seats = p["sides"][i]
            place = ordinal(places[i])
            measure = (
                count(outcome.scores[seats[0]], "point")
                if p["match_length"] == "single"
                else f"{count(p['hands_won'][i], 'hand')} won"
            )
            lines.append(f"{place:>4}  {_side(names, seats)} ({measure})")
        return "\n".join(lines)


RENDERER = BriscolaRenderer()
