"""How Bestia looks in the terminal, from the player's view: the chips and the pot, the
turned trump, who plays and who went al buio, the trick, and each hand's payout and
bestie in chips.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.italian_cards import SUIT_NAMES, pretty
from tavolo.cli.i18n import _, pgettext
from tavolo.cli.play.render.trick_words import plays_line, seat_does, trick_taken
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import agree, count, does, ordinal


class BestiaRenderer:
    """Renders Bestia views; see :class:`tavolo.cli.play.command.Renderer`."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Bestia goes anticlockwise, seat s to s+1 (RULES §0.2)."""
        p: Any = view.public
        if p.get("places") or p.get("phase") == "over" or p.get("turn") is None:
            return None
        return turn_line(
            p["turn"],
            view.seat,
            names,
            ANTICLOCKWISE,
            pgettext("to", "declare") if p["phase"] == "declaring" else pgettext("to", "play"),
        )

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = [
            _("--- Hand {n} of {hands} - your turn ").format(n=p["hand_no"], hands=p["hands"])
            + "-" * 24
        ]
        lines.append(
            _("Chips: ")
            + "   ".join(f"{names[s]} {c}" for s, c in enumerate(p["chips"]))
            + "   "
            + _("Pot {pot} ({each} a trick)").format(pot=p["pot"], each=p["pot"] // 3)
        )
        lines.append(
            _("Trumps: {suit} (the {card} is turned).").format(
                suit=SUIT_NAMES[p["trumps"]], card=pretty(p["turned"])
            )
        )
        playing = [
            names[s] + (" (al buio)" if p["buio"][s] else "")
            for s, d in enumerate(p["declared"])
            if d
        ]
        if playing:
            lines.append(_("Playing: ") + ", ".join(playing))
        if p["phase"] == "playing":
            table = (
                plays_line(p["trick"], names, pretty) if p["trick"] else _("nothing yet: you lead")
            )
            lines.append(_("Trick {n}: {cards}").format(n=p["trick_number"], cards=table))
        lines.append(_("Your hand: {cards}").format(cards="  ".join(pretty(c) for c in view.hand)))
        return "\n".join(lines)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        new_hand = old is None or old["hand_no"] != p["hand_no"]
        lines: list[str] = []
        if new_hand and old is not None and p["last_hand"] is not None:
            lines.extend(self._hand_over(p, names))
        if new_hand:
            dealer = seat_does(
                names, p["dealer"], after.seat, pgettext("you", "deal"), pgettext("verb", "deals")
            )
            lines.append(
                _("Hand {n}: {who_deals}; the pot is {pot}.").format(
                    n=p["hand_no"], who_deals=dealer, pot=p["pot"]
                )
            )
        for s, d in enumerate(p["declared"]):
            if d is not None and (new_hand or old["declared"][s] is None):
                if d:
                    verb = (pgettext("you", "play"), pgettext("verb", "plays"))
                else:
                    verb = (pgettext("you", "pass"), pgettext("verb", "passes"))
                lines.append(f"{seat_does(names, s, after.seat, *verb)}.")
        last = p["last_trick"]
        if last and (new_hand or old["last_trick"] != last):
            lines.append(trick_taken(last, names, after.seat, pretty))
        if p["phase"] == "over" != old["phase"] and not new_hand and p["last_hand"] is not None:
            lines.extend(self._hand_over(p, names))
        return lines

    def _hand_over(self, p: Any, names: Sequence[str]) -> list[str]:
        summary = p["last_hand"]
        if summary.get("void"):
            return [_("Hand {n}: nobody played; the pot stays.").format(n=summary["hand"])]
        if "alone" in summary:
            alone = names[summary["alone"]]
            takes = agree(alone, pgettext("verb", "takes"), pgettext("you", "take"))
            return [
                _("Hand {n}: {who} alone {takes} the pot of {pot}.").format(
                    n=summary["hand"], who=alone, takes=takes, pot=summary["won"]
                )
            ]
        lines = [
            _("Hand {n} is over: pot {pot}, {chips} a trick.").format(
                n=summary["hand"],
                pot=summary["pot"],
                chips=count(summary["per_trick"], "chip", "chips"),
            )
        ]
        for s, tricks in enumerate(summary["tricks"]):
            if tricks:
                won = count(tricks, "trick", "tricks")
                lines.append(f"  {names[s]}: {won}, +{tricks * summary['per_trick']}")
        for s, paid in summary["bestia"].items():
            who = names[int(s)]
            lines.append(
                "  "
                + _("{who_goes} bestia and {pays} {paid} into the next pot.").format(
                    who_goes=does(who, pgettext("verb", "goes"), pgettext("you", "go")),
                    pays=agree(who, pgettext("verb", "pays"), pgettext("you", "pay")),
                    paid=paid,
                )
            )
        return lines

    def choice(self, action: Action, view: View) -> str:
        kind = action.kind
        if kind is ActionKind.PLAY and action.cards:
            return _("play {card}").format(card=pretty(action.cards[0]))
        if kind is ActionKind.PLAY:
            return _("play this hand (no trick: you pay the pot)")
        if kind is ActionKind.PASS:
            return pgettext("choice", "pass")
        if kind is ActionKind.DRAW:
            return _("go al buio: give up your hand for 3 unseen cards")
        if kind is ActionKind.KEEP:
            return _("keep your hand")
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        return None

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return None

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        lines = [_("--- Final places (by chips) ") + "-" * 20]
        for s in sorted(range(len(outcome.places)), key=lambda s: outcome.places[s]):
            chips = count(outcome.scores[s], "chip", "chips")
            lines.append(f"{ordinal(outcome.places[s]):>4}  {names[s]} ({chips})")
        return "\n".join(lines)


RENDERER = BestiaRenderer()
