"""How the fishing games (Scopa, Scopone, Asso Pigliatutto, Cirulla) look in the terminal.

Everything comes from the human's view: the table cards, the hand, each side's captures,
this hand's plays as they happen (what each card took, and every scopa), and at the end
of each hand the count read out line by line as at a real table: carte, denari,
settebello, primiera with each side's total, scope, and the game's extra lines.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.fishing.deck import DECKS, Deck
from tavolo.cli.i18n import N_, _, pgettext
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import agree, count, does, match_words, ordinal, side_places

_LEGENDS = {
    "italian": N_("Suits: c coppe, d denari, b bastoni, s spade; F fante, C cavallo, R re."),
    "french": N_("Quadri (♦) are the denari; J, Q, K count 8, 9, 10."),
}
_LEVEL = re.compile(r" \([^()]*\)$")
_ACCUSI = {"cirulla": "cirulla (+3)", "decino": "decino (+10)"}


def _deck(view: View) -> Deck:
    return DECKS[view.public["deck"]]


def _cards(deck: Deck, cards: Sequence[str]) -> str:
    return " ".join(deck.pretty(c) for c in cards) if cards else _("(empty)")


def side_name(names: Sequence[str], seats: Sequence[int]) -> str:
    return " & ".join(names[s] for s in seats)


def short_side(names: Sequence[str], seats: Sequence[int]) -> str:
    """A side's name without the bots' levels (the first line gave them), for a
    column or row heading: ``You & Bot 2``."""
    return " & ".join(_LEVEL.sub("", names[s]) for s in seats)


def _side_verb(
    names: Sequence[str], seats: Sequence[int], verb: str, you_verb: str, plural: str
) -> str:
    """The verb for a side: ``plural`` for partners, else as for its one seat (``verb``,
    or ``you_verb`` for You); all three come translated."""
    return plural if len(seats) > 1 else agree(names[seats[0]], verb, you_verb)


class FishingRenderer:
    """Renders fishing views; see :class:`tavolo.cli.play.command.Renderer`."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """The fishing games go anticlockwise, seat s to s+1 (RULES §0.2)."""
        p: Any = view.public
        if p.get("places") or p.get("phase") == "over" or p.get("turn") is None:
            return None
        return turn_line(p["turn"], view.seat, names, ANTICLOCKWISE, pgettext("to", "play"))

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        deck = _deck(view)
        sides = p["sides"]
        lines = [_("--- Hand {n} - your turn ").format(n=p["hand"]) + "-" * 30]
        lines.append(
            _("Match: {match}.   Stock: {stock}.").format(
                match=match_words(p["match_length"]), stock=count(p["stock"], "card", "cards")
            )
        )
        heads = [_("total"), _("cards"), _("denari"), _("scope")] + (
            [_("accusi")] if p["accusi"] else []
        )
        rows = [
            [p["totals"][k], p["captured"][k], p["denari"][k], p["scope"][k]]
            + ([p["accusi"][k]] if p["accusi"] else [])
            for k in range(len(sides))
        ]
        who = [short_side(names, seats) for seats in sides]
        width = max(len(w) for w in who)
        lines.append(" " * (width + 2) + "".join(f"{h:>8}" for h in heads))
        for label, row in zip(who, rows, strict=True):
            lines.append(f"  {label:<{width}}" + "".join(f"{v:>8}" for v in row))
        for seat, shown in sorted(p["shown"].items()):
            if int(seat) != view.seat:
                lines.append(
                    _("{name} shows: {cards}").format(
                        name=names[int(seat)], cards=_cards(deck, shown)
                    )
                )
        lines.append(_("On the table: {cards}").format(cards=_cards(deck, p["table"])))
        hand = view.hand or tuple(p["shown"].get(str(view.seat), ()))
        if not view.hand and hand:
            lines.append(_("Your hand (shown to all): {cards}").format(cards=_cards(deck, hand)))
        else:
            lines.append(_("Your hand: {cards}").format(cards=_cards(deck, hand)))
        lines.append(_(_LEGENDS[deck.name]))
        return "\n".join(lines)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        deck = _deck(after)
        lines: list[str] = []
        new_hand = old is None or old["hand"] != p["hand"]
        if new_hand:
            if p["last_count"] is not None and (
                old is None or old["last_count"] != p["last_count"]
            ):
                lines.extend(self.count(p, names))
            if not p["over"]:
                lines.extend(self._hand_opens(p, names, deck))
        seen = 0 if new_hand else len(old["plays"])
        for play in p["plays"][seen:]:
            lines.append(self._play(play, names, deck))
        if p["declared"]:
            for seat, kind in enumerate(p["declared"]):
                if kind and (new_hand or not old["declared"][seat]):
                    shown = _cards(deck, p["shown"].get(str(seat), ()))
                    lines.append(
                        _("{who_declares} {accuso}, showing {cards}.").format(
                            who_declares=does(
                                names[seat],
                                pgettext("verb", "declares"),
                                pgettext("you", "declare"),
                            ),
                            accuso=_ACCUSI[kind],
                            cards=shown,
                        )
                    )
        if p["over"] and not new_hand and p["last_count"] != old["last_count"]:
            lines.extend(self.count(p, names))
        if p["cappotto"] is not None and (old is None or old["cappotto"] is None):
            seats = p["sides"][p["cappotto"]]
            who = side_name(names, seats)
            win = _side_verb(
                names,
                seats,
                pgettext("verb", "wins"),
                pgettext("you", "win"),
                pgettext("plural", "win"),
            )
            lines.append(
                _("Cappotto! {who} captured all ten denari and {win} the match at once.").format(
                    who=who, win=win
                )
            )
        return lines

    def _hand_opens(self, p: Any, names: Sequence[str], deck: Deck) -> list[str]:
        dealer = does(names[p["dealer"]], pgettext("verb", "deals"), pgettext("you", "deal"))
        lines = [
            _("Hand {n}: {who_deals}; on the table {cards}.").format(
                n=p["hand"], who_deals=dealer, cards=_cards(deck, p["opening"])
            )
        ]
        if p["bonus"]:
            side, scope = p["bonus"]
            seats = p["sides"][side]
            takes = _side_verb(
                names,
                seats,
                pgettext("verb", "takes"),
                pgettext("you", "take"),
                pgettext("plural", "take"),
            )
            lines.append(
                _(
                    "The opening table adds up to {total}: {side} {takes} it as the dealer's "
                    "side, {scope}."
                ).format(
                    total=15 * scope,
                    side=side_name(names, seats),
                    takes=takes,
                    scope=count(scope, "scopa", "scope"),
                )
            )
        return lines

    def _play(self, play: Any, names: Sequence[str], deck: Deck) -> str:
        who, card = names[play["seat"]], deck.pretty(play["card"])
        if not play["capture"]:
            return _("{who}: {card}, laid on the table.").format(who=who, card=card)
        scopa = " - " + _("SCOPA!") if play["scopa"] else ""
        taken = _("{who}: {card} takes {cards}").format(
            who=who, card=card, cards=_cards(deck, play["capture"])
        )
        return taken + scopa

    def count(self, p: Any, names: Sequence[str]) -> list[str]:
        """The count of the last hand as a small table: a row per count line, a column
        per side with what it held and, marked ``+N``, the points it scored."""
        counts, sides = p["last_count"], p["sides"]
        who = [short_side(names, seats) for seats in sides]
        width = max(12, *(len(w) + 2 for w in who))
        tiebreak = p["tiebreak"] is not None and p["tiebreak"]["hands"]
        lines = [
            _("The hand is over. The count:"),
            " " * 14 + "".join(f"{w:<{width}}" for w in who),
        ]
        for n, line in enumerate(counts[0]["lines"]):
            cells = []
            for c in counts:
                held, scored = c["lines"][n][1], c["lines"][n][2]
                cells.append(f"{held}" + (f" +{scored}" if scored else ""))
            # The count's lines keep their Italian names (carte, denari, settebello,
            # primiera, scope, napola) in both languages, as RULES.md does.
            lines.append(f"  {line[0]:<12}" + "".join(f"{cell:<{width}}" for cell in cells))
        hand, totals = pgettext("count", "hand"), _("totals")
        lines.append(f"  {hand:<12}" + "".join(f"{c['points']:<{width}}" for c in counts))
        note = "  " + _("(a tie-break hand: its points decide the tie only)") if tiebreak else ""
        lines.append(f"  {totals:<12}" + "".join(f"{t:<{width}}" for t in p["totals"]))
        if note:
            lines.append(note)
        return [line.rstrip() for line in lines]

    def choice(self, action: Action, view: View) -> str:
        deck = _deck(view)
        if action.kind is ActionKind.CALL:
            return _("declare {accuso}: your hand is shown to all").format(
                accuso=_ACCUSI.get(action.call or "", action.call)
            )
        card = deck.pretty(action.cards[0])
        if not action.capture:
            return _("lay {card}").format(card=card)
        clears = len(action.capture) == len(view.public["table"])
        if clears:
            return _("{card} takes {cards} (clears the table)").format(
                card=card, cards=_cards(deck, action.capture)
            )
        return _("{card} takes {cards}").format(card=card, cards=_cards(deck, action.capture))

    def call_prompt(self, view: View) -> str | None:
        return None  # an accuso is a choice on the menu, not a timed call

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return None  # hands are shown sorted

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = [_("--- Final places ") + "-" * 30]
        places = side_places([outcome.places[side[0]] for side in p["sides"]])
        for k in sorted(range(len(places)), key=lambda k: places[k]):
            seats = p["sides"][k]
            place = ordinal(places[k])
            points = count(p["totals"][k], "point", "points")
            lines.append(f"{place:>4}  {side_name(names, seats)} ({points})")
        reason = outcome.detail.get("reason")
        if reason == "ko":
            lines.append(_("Decided by KO: the tied side that captured last loses."))
        elif reason == "tie_break":
            lines.append(_("Decided by a tie-break hand."))
        return "\n".join(lines)


RENDERER = FishingRenderer()
