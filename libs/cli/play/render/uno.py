"""How Uno looks in the terminal: Pika's table and hand handling, with Uno's own moves
(the challenge, the UNO call, naming the colour of a turned wild) and the match score."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.shedding.deck import describe
from tavolo.cardgames.games.shedding.uno_state import ANSWER_PLUS4, NAME_COLOUR
from tavolo.cli.play.render.pika import PikaRenderer, skip_line
from tavolo.cli.play.wording import count, does, ordinal


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


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
        colour = p["colour"] or "not named yet"
        lines = [
            f"--- Hand {p['round']} ({p['match_length']}) " + "-" * 30,
            f"Top card: {describe(p['top'])}   Colour in play: {colour}",
            self.turn(view, names) or "",
            f"Stock: {_cards(p['stock_size'])}   Players: " + " | ".join(others),
            "Match points: " + ", ".join(f"{names[s]} {t}" for s, t in enumerate(p["totals"])),
        ]
        if p["phase"] == ANSWER_PLUS4 and p["turn"] == me:
            lines.append(
                f"{names[p['plus4_by']]} played a wild +4 on you: accept (draw 4) or "
                "challenge (if they held the colour in play they draw 4, else you draw 6)."
            )
        if p["phase"] == NAME_COLOUR and p["turn"] == me:
            lines.append("A wild was turned: name the colour to play on.")
        if "shown" in view.private:
            shown = view.private["shown"]
            cards = ", ".join(describe(c) for c in shown["hand"])
            lines.append(f"{names[shown['seat']]} showed you their hand: {cards}")
        hand = "  ".join(f"[{n}] {describe(c)}" for n, c in enumerate(view.hand, 1))
        lines.append(f"Your hand: {hand}")
        if "drawn" in view.private:
            lines.append(f"You drew {describe(view.private['drawn'])}: play it or keep it.")
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
                card = describe(move["card"]) if move["card"] else "a card"
                named = f", naming {move['colour']}" if move["card"].startswith("W") else ""
                lines.append(f"{who} played {card}{named}.")
                lines.extend(skip_line(move, after.public, names))
            elif kind == "draw":
                lines.append(f"{who} drew a card.")
            elif kind == "keep":
                lines.append(f"{who} kept the card.")
            elif kind == "uno":
                lines.append(f"{who}: UNO!")
            elif kind == "challenge":
                lines.append(f"{who} challenged the wild +4.")
            elif kind == "names":
                lines.append(f"{who} named {move['colour']}.")
            elif kind.startswith("draws "):
                lines.append(f"{does(who, 'draws')} {kind.split()[1]} cards.")
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
            return [f"Hand {before.public['round']} is over: nobody scores."]
        return [
            f"Hand {before.public['round']} is over: {does(names[scorer], 'scores')} "
            f"{gained[scorer]} (the points left in the other hands)."
        ]

    def choice(self, action: Action, view: View) -> str:
        kind = action.kind
        if kind is ActionKind.PLAY:
            text = f"play {describe(action.cards[0])}"
            if action.colour:
                text += f", naming {action.colour}"
            if action.call:
                text += " and call UNO!"
            return text
        if kind is ActionKind.ACCEPT:
            return "accept the wild +4 (draw 4)"
        if kind is ActionKind.CHALLENGE:
            return "challenge the wild +4"
        if kind is ActionKind.CALL and action.call == "colour":
            return f"name {action.colour}"
        if kind is ActionKind.CALL:
            return "call UNO!"
        return super().choice(action, view)

    def call_prompt(self, view: View) -> str | None:
        if view.seat not in view.public["uno_windows"]:
            return None
        return "One card left! 1) UNO!  2) say nothing  -- quick: "

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        order = sorted(range(len(names)), key=lambda s: (outcome.places[s], s))
        lines = ["--- Final places " + "-" * 30]
        for s in order:
            place = ordinal(outcome.places[s])
            lines.append(f"{place:>4}  {names[s]} ({count(outcome.scores[s], 'point')})")
        return "\n".join(lines)


RENDERER = UnoRenderer()
