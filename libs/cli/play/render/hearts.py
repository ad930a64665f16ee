"""How Hearts looks in the terminal: the pass, the trick on the table, who took what, and
each hand's points with the moon when someone shoots it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.french_deck import pretty
from tavolo.cardgames.games.tricks.hearts_state import trick_winner
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import count, ordinal

_TO = {
    "right": "to the player on your right",
    "left": "to the player on your left",
    "across": "to the player opposite",
}


def _plays(plays: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    return ", ".join(f"{names[p['seat']]} {pretty(p['card'])}" for p in plays)


class HeartsRenderer:
    """Renders Hearts views; see :class:`tavolo.cli.play.command.Renderer`."""

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = [f"--- Hand {p['hand']} ({p['rules']} rules, to {p['target']}) " + "-" * 24]
        lines.append(
            "Totals: "
            + " | ".join(f"{names[s]} {t}" for s, t in enumerate(p["totals"]))
            + "   (fewest points wins)"
        )
        if p["phase"] == "pass":
            chosen = view.private.get("chosen", [])
            picked = ", ".join(pretty(c) for c in chosen) or "none yet"
            lines.append(f"Pass three cards {_TO[p['pass']]}. Chosen: {picked}")
        else:
            lines.append(
                "Points taken this hand: "
                + " | ".join(f"{names[s]} {n}" for s, n in enumerate(p["points_taken"]))
                + (
                    f"   Hearts {'broken' if p['hearts_broken'] else 'not broken yet'}"
                    if p["rules"] == "standard"  # the seed's rules let hearts lead any time
                    else ""
                )
            )
            table = _plays(p["trick"], names) if p["trick"] else "nothing yet: you lead"
            lines.append(f"On the table: {table}")
            turn = self.turn(view, names)
            if turn:
                lines.append(turn)
        if "passed" in view.private:
            passed = view.private["passed"]
            cards = ", ".join(pretty(c) for c in passed["cards"])
            lines.append(f"You passed {cards} to {names[passed['to']]}.")
        lines.append("Your hand: " + "  ".join(pretty(c) for c in view.hand))
        return "\n".join(lines)

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Hearts goes anticlockwise, seat s to s+1; passing is everyone's at once."""
        p: Any = view.public
        if p["phase"] != "play":
            return None
        return turn_line(p["turn"], view.seat, names, ANTICLOCKWISE, "play")

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        lines: list[str] = []
        if (old is not None and old["hand"] != p["hand"]) or (
            old is not None and p["phase"] == "over" and old["phase"] != "over"
        ):
            gained = [a - b for a, b in zip(p["totals"], old["totals"], strict=True)]
            moon = (
                [s for s, g in enumerate(gained) if g == 0]
                if sorted(gained) == [0, 26, 26, 26]
                else []
            )
            lines.append(f"Hand {old['hand']} is over:")
            for s, g in enumerate(gained):
                note = " - shot the moon!" if s in moon else ""
                points = f"{g:+d} point{'' if abs(g) == 1 else 's'}"
                lines.append(f"  {names[s]}: {points}, now {p['totals'][s]}{note}")
        last = p["last_trick"]
        if last and (old is None or old["last_trick"] != last):
            trick = tuple((c["seat"], c["card"]) for c in last)
            winner = trick_winner(trick)
            takes = "take" if winner == after.seat else "takes"
            lines.append(f"Trick: {_plays(last, names)} - {names[winner]} {takes} it.")
        if p["phase"] == "play" and old is not None and old["phase"] == "pass":
            lines.append("The cards have changed hands.")
        return lines

    def choice(self, action: Action, view: View) -> str:
        card = pretty(action.cards[0]) if action.cards else ""
        if action.kind is ActionKind.PASS_CARDS:
            return f"pass {card}"
        if action.kind is ActionKind.PLAY:
            return f"play {card}"
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        return None  # Hearts has no timed calls

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return None  # the hand is always shown sorted

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        lines = ["--- Final places " + "-" * 30]
        for s in sorted(range(4), key=lambda s: (outcome.places[s], s)):
            place = ordinal(outcome.places[s])
            lines.append(f"{place:>4}  {names[s]} ({count(outcome.scores[s], 'point')})")
        return "\n".join(lines)


RENDERER = HeartsRenderer()
