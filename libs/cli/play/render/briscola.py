"""How Briscola looks in the terminal: the table from the player's view, and menu lines.

Everything comes from the human's view (seat 0): its hand (strongest first in each
suit), the trumps and the turned card under the stock, the trick on the table, the last
finished trick, and at the end of each hand the card points of each side.
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
from tavolo.cli.play.wording import count, ordinal, side_places


def _side(names: Sequence[str], seats: Sequence[int]) -> str:
    return " & ".join(names[s] for s in seats)


class BriscolaRenderer:
    """Renders Briscola views; see :class:`tavolo.cli.play.command.Renderer`."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Briscola goes anticlockwise, seat s to s+1 (RULES §0.2)."""
        p: Any = view.public
        if p.get("places") or p.get("phase") == "over" or p.get("turn") is None:
            return None
        return turn_line(p["turn"], view.seat, names, ANTICLOCKWISE, pgettext("to", "play"))

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = [
            _("--- Hand {hand}, trick {trick} - your turn ").format(
                hand=p["hand_no"], trick=p["trick_number"]
            )
            + "-" * 20
        ]
        stock = count(p["stock_size"], "card", "cards")
        if p["turned"]:
            line = _("Trumps: {suit}, the {card} under the stock.  Stock: {stock}.")
        else:
            line = _("Trumps: {suit}.  Stock: {stock}.")
        lines.append(
            line.format(
                suit=SUIT_NAMES[p["trumps"]],
                card=pretty(p["turned"]) if p["turned"] else "",
                stock=stock,
            )
        )
        if p["match_length"] != "single":
            lines.append(
                _("Hands won: ")
                + "   ".join(
                    f"{_side(names, side)} {p['hands_won'][i]}" for i, side in enumerate(p["sides"])
                )
                + f"   ({p['match_length']})"
            )
        if p["tie_break"]:
            lines.append(_("Tie-break hand {n}.").format(n=p["tie_break"]))
        table = plays_line(p["trick"], names, pretty) if p["trick"] else _("nothing yet: you lead")
        lines.append(_("On the table: {cards}").format(cards=table))
        lines.append(_("Your hand: {cards}").format(cards="  ".join(pretty(c) for c in view.hand)))
        return "\n".join(lines)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        new_hand = old is None or old["hand_no"] != p["hand_no"]
        lines: list[str] = []
        if new_hand and p["last_hand"] is not None and old is not None:
            lines.extend(self._hand_over(p, names))
        if new_hand:
            dealer = seat_does(
                names,
                p["dealer"],
                after.seat,
                pgettext("you", "deal"),
                pgettext("verb", "deals"),
            )
            if p["turned"]:
                line = _("Hand {n}: {who_deals}; trumps are {suit} (the {card} is turned).")
            else:
                line = _("Hand {n}: {who_deals}; trumps are {suit}.")
            lines.append(
                line.format(
                    n=p["hand_no"],
                    who_deals=dealer,
                    suit=SUIT_NAMES[p["trumps"]],
                    card=pretty(p["turned"]) if p["turned"] else "",
                )
            )
        last = p["last_trick"]
        if last and (new_hand or old["last_trick"] != last):
            lines.append(trick_taken(last, names, after.seat, pretty))
        if p["phase"] == "over" != old["phase"] and not new_hand and p["last_hand"] is not None:
            lines.extend(self._hand_over(p, names))
        return lines

    def _hand_over(self, p: Any, names: Sequence[str]) -> list[str]:
        summary = p["last_hand"]
        if summary["tie_break"]:
            head = _("Tie-break hand {n} is over (card points, 120 in the deck):")
        else:
            head = _("Hand {n} is over (card points, 120 in the deck):")
        lines = [head.format(n=summary["hand"])]
        for i, side in enumerate(p["sides"]):
            won = " - " + _("wins the hand") if summary["winner_side"] == i else ""
            lines.append(f"  {_side(names, side)}: {summary['points'][i]}{won}")
        if summary["winner_side"] is None:
            lines.append("  " + _("Nobody wins the hand."))
        return lines

    def choice(self, action: Action, view: View) -> str:
        if action.kind is ActionKind.PLAY:
            return _("play {card}").format(card=pretty(action.cards[0]))
        if action.kind is ActionKind.TAKE:
            turned = pretty(view.public["turned"])
            return _("swap your {card} for the turned {turned}").format(
                card=pretty(action.cards[0]), turned=turned
            )
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        return None  # Briscola has no timed calls

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return None  # the hand is always shown sorted

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = [_("--- Final places ") + "-" * 30]
        places = side_places([outcome.places[side[0]] for side in p["sides"]])
        for i in sorted(range(len(places)), key=lambda i: places[i]):
            seats = p["sides"][i]
            place = ordinal(places[i])
            if p["match_length"] == "single":
                measure = count(outcome.scores[seats[0]], "point", "points")
            else:
                measure = _("{hands} won").format(hands=count(p["hands_won"][i], "hand", "hands"))
            lines.append(f"{place:>4}  {_side(names, seats)} ({measure})")
        return "\n".join(lines)


RENDERER = BriscolaRenderer()
