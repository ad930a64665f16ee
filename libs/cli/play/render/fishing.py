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
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import agree, count, does, match_words, ordinal, side_places

_LEGENDS = {
    "italian": "Suits: c coppe, d denari, b bastoni, s spade; F fante, C cavallo, R re.",
    "french": "Quadri (♦) are the denari; J, Q, K count 8, 9, 10.",
}
_LEVEL = re.compile(r" \((easy|medium|hard)\)$")
_ACCUSI = {"cirulla": "cirulla (+3)", "decino": "decino (+10)"}


def _deck(view: View) -> Deck:
    return DECKS[view.public["deck"]]


def _cards(deck: Deck, cards: Sequence[str]) -> str:
    return " ".join(deck.pretty(c) for c in cards) if cards else "(empty)"


def side_name(names: Sequence[str], seats: Sequence[int]) -> str:
    return " & ".join(names[s] for s in seats)


def short_side(names: Sequence[str], seats: Sequence[int]) -> str:
    """A side's name without the bots' levels (the first line gave them), for a
    column or row heading: ``You & Bot 2``."""
    return " & ".join(_LEVEL.sub("", names[s]) for s in seats)


def _side_verb(names: Sequence[str], seats: Sequence[int], verb: str) -> str:
    """The verb for a side: plural for partners (and for You), else as for one seat."""
    return agree("You", verb) if len(seats) > 1 else agree(names[seats[0]], verb)


class FishingRenderer:
    """Renders fishing views; see :class:`tavolo.cli.play.command.Renderer`."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """The fishing games go anticlockwise, seat s to s+1 (RULES §0.2)."""
        p: Any = view.public
        if p.get("places") or p.get("phase") == "over" or p.get("turn") is None:
            return None
        return turn_line(p["turn"], view.seat, names, ANTICLOCKWISE, "play")

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        deck = _deck(view)
        sides = p["sides"]
        lines = [f"--- Hand {p['hand']} - your turn " + "-" * 30]
        lines.append(
            f"Match: {match_words(p['match_length'])}.   Stock: {count(p['stock'], 'card')}."
        )
        heads = ["total", "cards", "denari", "scope"] + (["accusi"] if p["accusi"] else [])
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
                lines.append(f"{names[int(seat)]} shows: {_cards(deck, shown)}")
        lines.append(f"On the table: {_cards(deck, p['table'])}")
        hand = view.hand or tuple(p["shown"].get(str(view.seat), ()))
        shown = " (shown to all)" if not view.hand and hand else ""
        lines.append(f"Your hand{shown}: {_cards(deck, hand)}")
        lines.append(_LEGENDS[deck.name])
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
                        f"{does(names[seat], 'declares')} {_ACCUSI[kind]}, showing {shown}."
                    )
        if p["over"] and not new_hand and p["last_count"] != old["last_count"]:
            lines.extend(self.count(p, names))
        if p["cappotto"] is not None and (old is None or old["cappotto"] is None):
            seats = p["sides"][p["cappotto"]]
            who, win = side_name(names, seats), _side_verb(names, seats, "wins")
            lines.append(f"Cappotto! {who} captured all ten denari and {win} the match at once.")
        return lines

    def _hand_opens(self, p: Any, names: Sequence[str], deck: Deck) -> list[str]:
        lines = [
            f"Hand {p['hand']}: {does(names[p['dealer']], 'deals')}; on the table "
            f"{_cards(deck, p['opening'])}."
        ]
        if p["bonus"]:
            side, scope = p["bonus"]
            seats = p["sides"][side]
            lines.append(
                f"The opening table adds up to {15 * scope}: {side_name(names, seats)}"
                f" {_side_verb(names, seats, 'takes')} it as the dealer's side, "
                f"{scope} scop{'a' if scope == 1 else 'e'}."
            )
        return lines

    def _play(self, play: Any, names: Sequence[str], deck: Deck) -> str:
        who, card = names[play["seat"]], deck.pretty(play["card"])
        if not play["capture"]:
            return f"{who}: {card}, laid on the table."
        scopa = " - SCOPA!" if play["scopa"] else ""
        return f"{who}: {card} takes {_cards(deck, play['capture'])}{scopa}"

    def count(self, p: Any, names: Sequence[str]) -> list[str]:
        """The count of the last hand as a small table: a row per count line, a column
        per side with what it held and, marked ``+N``, the points it scored."""
        counts, sides = p["last_count"], p["sides"]
        who = [short_side(names, seats) for seats in sides]
        width = max(12, *(len(w) + 2 for w in who))
        tiebreak = p["tiebreak"] is not None and p["tiebreak"]["hands"]
        lines = ["The hand is over. The count:", " " * 14 + "".join(f"{w:<{width}}" for w in who)]
        for n, line in enumerate(counts[0]["lines"]):
            cells = []
            for c in counts:
                held, scored = c["lines"][n][1], c["lines"][n][2]
                cells.append(f"{held}" + (f" +{scored}" if scored else ""))
            lines.append(f"  {line[0]:<12}" + "".join(f"{cell:<{width}}" for cell in cells))
        lines.append(f"  {'hand':<12}" + "".join(f"{c['points']:<{width}}" for c in counts))
        note = "  (a tie-break hand: its points decide the tie only)" if tiebreak else ""
        lines.append(f"  {'totals':<12}" + "".join(f"{t:<{width}}" for t in p["totals"]))
        if note:
            lines.append(note)
        return [line.rstrip() for line in lines]

    def choice(self, action: Action, view: View) -> str:
        deck = _deck(view)
        if action.kind is ActionKind.CALL:
            return (
                f"declare {_ACCUSI.get(action.call or '', action.call)}: your hand is shown to all"
            )
        card = deck.pretty(action.cards[0])
        if not action.capture:
            return f"lay {card}"
        clears = len(action.capture) == len(view.public["table"])
        return f"{card} takes {_cards(deck, action.capture)}" + (
            " (clears the table)" if clears else ""
        )

    def call_prompt(self, view: View) -> str | None:
        return None  # an accuso is a choice on the menu, not a timed call

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return None  # hands are shown sorted

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = ["--- Final places " + "-" * 30]
        places = side_places([outcome.places[side[0]] for side in p["sides"]])
        for k in sorted(range(len(places)), key=lambda k: places[k]):
            seats = p["sides"][k]
            place = ordinal(places[k])
            lines.append(
                f"{place:>4}  {side_name(names, seats)} ({count(p['totals'][k], 'point')})"
            )
        reason = outcome.detail.get("reason")
        if reason == "ko":
            lines.append("Decided by KO: the tied side that captured last loses.")
        elif reason == "tie_break":
            lines.append("Decided by a tie-break hand.")
        return "\n".join(lines)


RENDERER = FishingRenderer()
