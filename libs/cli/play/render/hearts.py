"""How Hearts looks in the terminal: the pass, the trick on the table, who took what, and
each hand's points with the moon when someone shoots it."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.french_deck import pretty
from tavolo.cardgames.games.tricks.hearts_state import trick_winner
from tavolo.cli.i18n import N_, _, ngettext, pgettext
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import count, ordinal

_TO = {
    "right": N_("to the player on your right"),
    "left": N_("to the player on your left"),
    "across": N_("to the player opposite"),
}


def _plays(plays: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    return ", ".join(f"{names[p['seat']]} {pretty(p['card'])}" for p in plays)


def _rules(rules: str) -> str:
    """The table's ``rules`` option as the heading names it."""
    if rules == "seed":
        return pgettext("rules", "seed")
    if rules == "standard":
        return pgettext("rules", "standard")
    return rules


class HeartsRenderer:
    """Renders Hearts views; see :class:`tavolo.cli.play.command.Renderer`."""

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = [
            _("--- Hand {n} ({rules} rules, to {target}) ").format(
                n=p["hand"], rules=_rules(p["rules"]), target=p["target"]
            )
            + "-" * 24
        ]
        lines.append(
            _("Totals: ")
            + " | ".join(f"{names[s]} {t}" for s, t in enumerate(p["totals"]))
            + "   "
            + _("(fewest points wins)")
        )
        if p["phase"] == "pass":
            chosen = view.private.get("chosen", [])
            picked = ", ".join(pretty(c) for c in chosen) or _("none yet")
            lines.append(
                _("Pass three cards {to}. Chosen: {picked}").format(
                    to=_(_TO[p["pass"]]), picked=picked
                )
            )
        else:
            broken = ""
            if p["rules"] == "standard":  # the seed's rules let hearts lead any time
                broken = "   " + (
                    _("Hearts broken") if p["hearts_broken"] else _("Hearts not broken yet")
                )
            lines.append(
                _("Points taken this hand: ")
                + " | ".join(f"{names[s]} {n}" for s, n in enumerate(p["points_taken"]))
                + broken
            )
            table = _plays(p["trick"], names) if p["trick"] else _("nothing yet: you lead")
            lines.append(_("On the table: {cards}").format(cards=table))
            turn = self.turn(view, names)
            if turn:
                lines.append(turn)
        if "passed" in view.private:
            passed = view.private["passed"]
            cards = ", ".join(pretty(c) for c in passed["cards"])
            lines.append(
                _("You passed {cards} to {name}.").format(cards=cards, name=names[passed["to"]])
            )
        held = view.hand
        if p["phase"] == "pass":  # the chosen cards are shown as chosen, not as held
            chosen = set(view.private.get("chosen", ()))
            held = tuple(c for c in view.hand if c not in chosen)
        lines.append(_("Your hand: {cards}").format(cards="  ".join(pretty(c) for c in held)))
        return "\n".join(lines)

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Hearts goes anticlockwise, seat s to s+1; passing is everyone's at once."""
        p: Any = view.public
        if p["phase"] != "play":
            return None
        return turn_line(p["turn"], view.seat, names, ANTICLOCKWISE, pgettext("to", "play"))

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
            lines.append(_("Hand {n} is over:").format(n=old["hand"]))
            for s, g in enumerate(gained):
                note = " - " + _("shot the moon!") if s in moon else ""
                points = ngettext("{n} point", "{n} points", abs(g)).format(n=f"{g:+d}")
                now = _("{points}, now {total}").format(points=points, total=p["totals"][s])
                lines.append(f"  {names[s]}: {now}{note}")
        last = p["last_trick"]
        if last and (old is None or old["last_trick"] != last):
            trick = tuple((c["seat"], c["card"]) for c in last)
            winner = trick_winner(trick)
            takes = pgettext("you", "take") if winner == after.seat else pgettext("verb", "takes")
            lines.append(
                _("Trick: {plays} - {who_takes} it.").format(
                    plays=_plays(last, names), who_takes=f"{names[winner]} {takes}"
                )
            )
        if p["phase"] == "play" and old is not None and old["phase"] == "pass":
            lines.append(_("The cards have changed hands."))
        return lines

    def choice(self, action: Action, view: View) -> str:
        card = pretty(action.cards[0]) if action.cards else ""
        if action.kind is ActionKind.PASS_CARDS:
            return _("pass {card}").format(card=card)
        if action.kind is ActionKind.PLAY:
            return _("play {card}").format(card=card)
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        return None  # Hearts has no timed calls

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return None  # the hand is always shown sorted

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        lines = [_("--- Final places ") + "-" * 30]
        for s in sorted(range(4), key=lambda s: (outcome.places[s], s)):
            place = ordinal(outcome.places[s])
            points = count(outcome.scores[s], "point", "points")
            lines.append(f"{place:>4}  {names[s]} ({points})")
        return "\n".join(lines)


RENDERER = HeartsRenderer()
