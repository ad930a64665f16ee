"""How Pika looks in the terminal: the table from the player's view, and menu lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.shedding.deck import COLOUR_NAMES, describe
from tavolo.cli.play.turns import ANTICLOCKWISE, CLOCKWISE, turn_line
from tavolo.cli.play.wording import agree, ordinal

_DOING = {"stack": "chain the stack or take it", "drawn": "play the drawn card or keep it"}
_SUIT_ORDER = {letter: n for n, letter in enumerate([*COLOUR_NAMES, "W"])}


def _cards(n: int) -> str:
    return "1 card" if n == 1 else f"{n} cards"


def _sort_key(card: str) -> tuple[int, str]:
    return _SUIT_ORDER[card[0]], card[1:].rjust(4)


def skipped(move: Mapping[str, Any], p: Mapping[str, Any]) -> int | None:
    """The seat a played skip passes over (a reverse does so with two players): the
    next one from the player in the direction of play."""
    if move["move"] != "play" or not move["card"]:
        return None
    value, seats = move["card"][1:], len(p["hand_sizes"])
    if value != "skip" and not (value == "rev" and seats == 2):
        return None
    step = CLOCKWISE if p["direction"] == "clockwise" else ANTICLOCKWISE
    return int((move["seat"] + step) % seats)


def skip_line(move: Mapping[str, Any], p: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """``Bot 2 is skipped.`` after a skip, so the turn that never came is told."""
    seat = skipped(move, p)
    if seat is None:
        return []
    return [f"{names[seat]} {agree(names[seat], 'is', 'are')} skipped."]


class PikaRenderer:
    """Renders Pika views; see :class:`tavolo.cli.play.command.Renderer`."""

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        me = view.seat if view.seat is not None else -1
        others = [
            f"{names[s]}: {_cards(n)}" + (" (Pika!)" if n == 1 else "")
            for s, n in enumerate(p["hand_sizes"])
            if s != me
        ]
        lines = [
            f"--- Round {p['round']} - your turn " + "-" * 30,
            f"Top card: {describe(p['top'])}   Colour in play: {p['colour']}",
        ]
        line = self.turn(view, names)
        if line:
            lines.append(line)
        if p["stack"]:
            lines.append(f"A stack of {p['stack']} cards is pending: chain it or take it!")
        lines.append(f"Stock: {_cards(p['stock_size'])}   Players: " + " | ".join(others))
        hand = "  ".join(f"[{n}] {describe(c)}" for n, c in enumerate(view.hand, 1))
        lines.append(f"Your hand: {hand}")
        if "drawn" in view.private:
            lines.append(f"You drew {describe(view.private['drawn'])}.")
        return "\n".join(lines)

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        p: Any = view.public
        if p["phase"] == "over":
            return None
        step = CLOCKWISE if p["direction"] == "clockwise" else ANTICLOCKWISE
        return turn_line(p["turn"], view.seat, names, step, _DOING.get(p["phase"], "play"))

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        seen = before.public["recent"][-1]["no"] if before and before.public["recent"] else 0
        if before is not None and before.public["round"] != after.public["round"]:
            seen = 0
        lines = []
        for move in after.public["recent"]:
            if move["no"] <= seen:
                continue
            who = names[move["seat"]]
            kind = move["move"]
            if kind == "play":
                card = describe(move["card"]) if move["card"] else "a card"
                named = f", naming {move['colour']}" if move["card"].startswith("W") else ""
                lines.append(f"{who} played {card}{named}.")
                lines.extend(skip_line(move, after.public, names))
            elif kind == "draw":
                lines.append(f"{who} drew {_cards(move['count'])}.")
            elif kind == "keep":
                lines.append(f"{who} kept the card.")
            elif kind == "take":
                lines.append(f"{who} took the stack: {_cards(move['count'])}.")
            elif kind == "pika":
                lines.append(f"{who}: Pika!")
            elif kind == "penalty":
                lines.append(f"{who} forgot to call Pika and drew {_cards(move['count'])}.")
        return lines

    def choice(self, action: Action, view: View) -> str:
        kind = action.kind
        if kind is ActionKind.PLAY:
            text = f"play {describe(action.cards[0])}"
            if action.colour:
                text += f", naming {action.colour}"
            if action.call:
                text += " and call Pika!"
            return text
        if kind is ActionKind.DRAW:
            return "draw a card"
        if kind is ActionKind.KEEP:
            return "keep the card you drew"
        if kind is ActionKind.TAKE:
            return f"take the {view.public['stack']} cards"
        if kind is ActionKind.CALL:
            return "call Pika!"
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        if view.seat not in view.public["pika_windows"]:
            return None
        return "One card left! 1) Pika!  2) say nothing  -- quick: "

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        words = command.lower().split()
        if words == ["sort"]:
            return tuple(sorted(view.hand, key=_sort_key))
        if len(words) == 3 and words[0] == "move" and words[1].isdigit() and words[2].isdigit():
            hand = list(view.hand)
            i, j = int(words[1]) - 1, int(words[2]) - 1
            if 0 <= i < len(hand) and 0 <= j < len(hand):
                hand.insert(j, hand.pop(i))
                return tuple(hand)
        return None

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        sizes = view.public["hand_sizes"]
        order = sorted(range(len(names)), key=lambda s: (outcome.places[s], s))
        lines = ["--- Final places " + "-" * 30]
        for s in order:
            place = ordinal(outcome.places[s])
            lines.append(f"{place:>4}  {names[s]} ({_cards(sizes[s])} left)")
        return "\n".join(lines)


RENDERER = PikaRenderer()
