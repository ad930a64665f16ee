"""How Uno looks in the terminal: Pika's table and hand handling, with Uno's own moves
(the challenge, the UNO call, naming the colour of a turned wild) and the match score."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.shedding.uno_state import ANSWER_PLUS4, NAME_COLOUR
from tavolo.cli.i18n import _, ngettext, pgettext
from tavolo.cli.play.render.pika import PikaRenderer, colour_word, describe, played_lines
from tavolo.cli.play.wording import count, does, match_words, ordinal


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


class UnoRenderer(PikaRenderer):
    """Renders Uno views; reordering the hand works as in Pika."""

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        me = view.seat if view.seat is not None else -1
        others = [
            f"{names[s]}: {_cards(n)}" + (" (UNO!)" if n == 1 else "")
            for s, n in enumerate(p["hand_sizes"])
            if s != me
        ]
        colour = colour_word(p["colour"]) if p["colour"] else _("not named yet")
        lines = [
            _("--- Hand {n} ({match}) ").format(n=p["round"], match=match_words(p["match_length"]))
            + "-" * 30,
            _("Top card: {card}   Colour in play: {colour}").format(
                card=describe(p["top"]), colour=colour
            ),
            self.turn(view, names) or "",
            _("Stock: {cards}   Players: ").format(cards=_cards(p["stock_size"]))
            + " | ".join(others),
            _("Match points: ") + ", ".join(f"{names[s]} {t}" for s, t in enumerate(p["totals"])),
        ]
        if p["phase"] == ANSWER_PLUS4 and p["turn"] == me:
            lines.append(
                _(
                    "{who} played a wild +4 on you: accept (draw 4) or challenge (if they held "
                    "the colour in play they draw 4, else you draw 6)."
                ).format(who=names[p["plus4_by"]])
            )
        if p["phase"] == NAME_COLOUR and p["turn"] == me:
            lines.append(_("A wild was turned: name the colour to play on."))
        if "shown" in view.private:
            shown = view.private["shown"]
            cards = ", ".join(describe(c) for c in shown["hand"])
            lines.append(
                _("{who} showed you their hand: {cards}").format(
                    who=names[shown["seat"]], cards=cards
                )
            )
        hand = "  ".join(f"[{n}] {describe(c)}" for n, c in enumerate(view.hand, 1))
        lines.append(_("Your hand: {cards}").format(cards=hand))
        if "drawn" in view.private:
            lines.append(
                _("You drew {card}: play it or keep it.").format(
                    card=describe(view.private["drawn"])
                )
            )
        return "\n".join(lines)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        lines: list[str] = []
        seen = before.public["recent"][-1]["no"] if before and before.public["recent"] else 0
        new_hand = before is not None and before.public["round"] != after.public["round"]
        if new_hand and before is not None:
            lines.extend(self._hand_over(before, after, names))
            seen = 0
        for move in after.public["recent"]:
            if move["no"] <= seen:
                continue
            who, kind = names[move["seat"]], move["move"]
            if kind == "play":
                lines.extend(played_lines(move, after.public, names))
            elif kind == "draw":
                lines.append(_("{who} drew a card.").format(who=who))
            elif kind == "keep":
                lines.append(_("{who} kept the card.").format(who=who))
            elif kind == "uno":
                lines.append(f"{who}: UNO!")
            elif kind == "challenge":
                lines.append(_("{who} challenged the wild +4.").format(who=who))
            elif kind == "names":
                lines.append(
                    _("{who} named {colour}.").format(who=who, colour=colour_word(move["colour"]))
                )
            elif kind.startswith("draws "):
                n = int(kind.split()[1])
                draws = does(who, pgettext("verb", "draws"), pgettext("you", "draw"))
                lines.append(f"{draws} {_cards(n)}.")
        ended = after.public["phase"] == "over" and (
            before is None or before.public["phase"] != "over"
        )
        if ended and before is not None and not new_hand:
            lines.extend(self._hand_over(before, after, names))
        return lines

    def _hand_over(self, before: View, after: View, names: Sequence[str]) -> list[str]:
        """Who scored the hand that just ended, from the match totals before and after."""
        was, now = before.public["totals"], after.public["totals"]
        gained = [a - b for a, b in zip(now, was, strict=True)]
        scorer = max(range(len(gained)), key=lambda s: gained[s])
        if not gained[scorer]:
            return [_("Hand {n} is over: nobody scores.").format(n=before.public["round"])]
        scores = does(names[scorer], pgettext("verb", "scores"), pgettext("you", "score"))
        return [
            _(
                "Hand {n} is over: {who_scores} {points} (the points left in the other hands)."
            ).format(n=before.public["round"], who_scores=scores, points=gained[scorer])
        ]

    def choice(self, action: Action, view: View) -> str:
        kind = action.kind
        if kind is ActionKind.PLAY:
            text = _("play {card}").format(card=describe(action.cards[0]))
            if action.colour:
                text += _(", naming {colour}").format(colour=colour_word(action.colour))
            if action.call:
                text += _(" and call UNO!")
            return text
        if kind is ActionKind.ACCEPT:
            return _("accept the wild +4 (draw 4)")
        if kind is ActionKind.CHALLENGE:
            return _("challenge the wild +4")
        if kind is ActionKind.CALL and action.call == "colour":
            return _("name {colour}").format(colour=colour_word(action.colour))
        if kind is ActionKind.CALL:
            return _("call UNO!")
        return super().choice(action, view)

    def call_prompt(self, view: View) -> str | None:
        if view.seat not in view.public["uno_windows"]:
            return None
        return _("One card left! 1) UNO!  2) say nothing  -- quick: ")

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        order = sorted(range(len(names)), key=lambda s: (outcome.places[s], s))
        lines = [_("--- Final places ") + "-" * 30]
        for s in order:
            place = ordinal(outcome.places[s])
            points = count(outcome.scores[s], "point", "points")
            lines.append(f"{place:>4}  {names[s]} ({points})")
        return "\n".join(lines)


RENDERER = UnoRenderer()
