"""How Tresette a vincere and Ciapanò look in the terminal, from the player's view.

Both games share a table (:mod:`tavolo.cardgames.games.tricks.tresette_table`), so they share a
renderer: the hand (strongest first in each suit, 3 2 A R C F 7 6 5 4), the cards shown
to the table, the declarations, the trick, and at the end of each hand every side's aces,
thirds and points (and a cappotto in Ciapanò).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.italian_cards import pretty
from tavolo.cli.i18n import N_, _, pgettext
from tavolo.cli.play.render.trick_words import plays_line, seat_does, trick_taken
from tavolo.cli.play.renderers import TABLE_OPTIONS
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import count, match_words, ordinal, side_places

_CALLS = {
    "napoletana": N_("napoletana (A-2-3)"),
    "three": N_("three of a kind"),
    "four": N_("four of a kind"),
}


def _call(call: str) -> str:
    return _(_CALLS[call]) if call in _CALLS else call


def _side(names: Sequence[str], seats: Sequence[int]) -> str:
    return " & ".join(names[s] for s in seats)


def _cards(cards: Sequence[str]) -> str:
    return " ".join(pretty(c) for c in cards)


def _match(p: Mapping[str, Any]) -> str:
    """How the match ends: Ciapanò's ``limit`` names its number from the table's options."""
    if p["match_length"] == "limit":
        limit = p.get(TABLE_OPTIONS, {}).get("limit")
        if limit:
            return _("the match ends at {limit} points").format(limit=limit)
        return _("to the limit")
    return match_words(p["match_length"])


class TresetteRenderer:
    """Renders Tresette and Ciapanò views; see :class:`tavolo.cli.play.command.Renderer`."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Tresette goes anticlockwise, seat s to s+1 (RULES §0.2)."""
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
        lines.append(
            _("Totals ({match}): ").format(match=_match(p))
            + "   ".join(
                f"{_side(names, side)} {p['totals'][i]}" for i, side in enumerate(p["sides"])
            )
        )
        if p["stock_size"]:
            lines.append(_("Stock: {stock}.").format(stock=count(p["stock_size"], "card", "cards")))
        for seat, shown in enumerate(p["shown"]):
            if shown and seat != view.seat:
                lines.append(
                    _("{name} is known to hold: {cards}").format(
                        name=names[seat], cards=_cards(shown)
                    )
                )
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
            dealt = seat_does(
                names, p["dealer"], after.seat, pgettext("you", "deal"), pgettext("verb", "deals")
            )
            lines.append(_("Hand {n}: {who_deals}.").format(n=p["hand_no"], who_deals=dealt))
        for seat, declared in enumerate(p["declarations"]):
            seen = [] if new_hand or old is None else old["declarations"][seat]
            for d in declared[len(seen) :]:
                who = seat_does(
                    names,
                    seat,
                    after.seat,
                    pgettext("you", "declare"),
                    pgettext("verb", "declares"),
                )
                lines.append(f"{who} {_call(d['call'])}: {_cards(d['cards'])} (+{d['points']}).")
        last = p["last_trick"]
        if last and (new_hand or old["last_trick"] != last):
            lines.append(trick_taken(last, names, after.seat, pretty))
            for d in p["last_drawn"]:
                drew = seat_does(
                    names, d["seat"], after.seat, pgettext("you", "draw"), pgettext("verb", "draws")
                )
                lines.append(f"  {drew} {pretty(d['card'])}.")
        if p["phase"] == "over" != old["phase"] and not new_hand and p["last_hand"] is not None:
            lines.extend(self._hand_over(p, names))
        return lines

    def _hand_over(self, p: Any, names: Sequence[str]) -> list[str]:
        summary = p["last_hand"]
        lines = [
            _("Hand {n} is over (aces, thirds, points; last trick +1):").format(n=summary["hand"])
        ]
        for i, side in enumerate(p["sides"]):
            aces, thirds = summary["aces_and_thirds"][i]
            last = " + " + _("last trick") if summary["last_trick_side"] == i else ""
            declared = summary.get("declared")
            extra = (
                " + " + _("{n} declared").format(n=declared[i]) if declared and declared[i] else ""
            )
            aces_text = count(aces, "ace", "aces")
            thirds_text = count(thirds, "third", "thirds")
            lines.append(
                f"  {_side(names, side)}: {aces_text}, "
                f"{thirds_text}{last}{extra}: "
                f"{summary['points'][i]}"
            )
        if summary.get("cappotto"):
            lines.append("  " + _("Cappotto! The taker scores 0 and everyone else 11."))
        return lines

    def choice(self, action: Action, view: View) -> str:
        if action.kind is ActionKind.PLAY:
            return _("play {card}").format(card=pretty(action.cards[0]))
        if action.kind is ActionKind.CALL:
            return _("declare {call}: {cards}").format(
                call=_call(str(action.call)), cards=_cards(action.cards)
            )
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        return None

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return None

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = [_("--- Final places ") + "-" * 30]
        places = side_places([outcome.places[side[0]] for side in p["sides"]])
        for i in sorted(range(len(places)), key=lambda i: places[i]):
            seats = p["sides"][i]
            place = ordinal(places[i])
            points = count(p["totals"][i], "point", "points")
            lines.append(f"{place:>4}  {_side(names, seats)} ({points})")
        return "\n".join(lines)


RENDERER = TresetteRenderer()
