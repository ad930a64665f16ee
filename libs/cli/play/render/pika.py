"""How Pika looks in the terminal: the table from the player's view, and menu lines."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.shedding.deck import COLOUR_NAMES, REVERSE, SKIP, WILD, WILD_DRAW_FOUR
from tavolo.cli.i18n import N_, _, ngettext, pgettext
from tavolo.cli.play.turns import ANTICLOCKWISE, CLOCKWISE, turn_line
from tavolo.cli.play.wording import agree, ordinal

_SUIT_ORDER = {letter: n for n, letter in enumerate([*COLOUR_NAMES, "W"])}
_COLOURS = {"red": N_("red"), "yellow": N_("yellow"), "green": N_("green"), "blue": N_("blue")}


def colour_word(colour: str | None) -> str:
    """A colour as the view names it (``red``, or its letter ``R``), in the client's words."""
    name = COLOUR_NAMES.get(colour or "", colour or "")
    return _(_COLOURS[name]) if name in _COLOURS else name


def describe(card: str) -> str:
    """Words for people: ``red 5``, ``blue reverse``, ``wild +4`` (``5 rosso``, ``cambio
    senso blu``, ``jolly +4``)."""
    if card == WILD:
        return _("wild")
    if card == WILD_DRAW_FOUR:
        return _("wild +4")
    value = card[1:]
    if value == SKIP:
        value = _("skip")
    elif value == REVERSE:
        value = _("reverse")
    return _("{colour} {value}").format(colour=colour_word(card[0]), value=value)


def _doing(phase: str) -> str:
    if phase == "stack":
        return pgettext("to", "chain the stack or take it")
    if phase == "drawn":
        return pgettext("to", "play the drawn card or keep it")
    return pgettext("to", "play")


def _cards(n: int) -> str:
    return ngettext("{n} card", "{n} cards", n).format(n=n)


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
    skips = agree(names[seat], pgettext("verb", "is skipped"), pgettext("you", "are skipped"))
    return [f"{names[seat]} {skips}."]


def played_lines(move: Mapping[str, Any], p: Mapping[str, Any], names: Sequence[str]) -> list[str]:
    """``Ann played a wild, naming red.`` for a played card (face down: "a card"), then
    who it skipped, if anyone: the same words in Pika and Uno."""
    card = describe(move["card"]) if move["card"] else _("a card")
    if move["card"].startswith("W"):
        line = _("{who} played {card}, naming {colour}.")
    else:
        line = _("{who} played {card}.")
    said = line.format(who=names[move["seat"]], card=card, colour=colour_word(move["colour"]))
    return [said, *skip_line(move, p, names)]


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
            _("--- Round {n} - your turn ").format(n=p["round"]) + "-" * 30,
            _("Top card: {card}   Colour in play: {colour}").format(
                card=describe(p["top"]), colour=colour_word(p["colour"])
            ),
        ]
        line = self.turn(view, names)
        if line:
            lines.append(line)
        if p["stack"]:
            lines.append(
                _("A stack of {n} cards is pending: chain it or take it!").format(n=p["stack"])
            )
        lines.append(
            _("Stock: {cards}   Players: ").format(cards=_cards(p["stock_size"]))
            + " | ".join(others)
        )
        hand = "  ".join(f"[{n}] {describe(c)}" for n, c in enumerate(view.hand, 1))
        lines.append(_("Your hand: {cards}").format(cards=hand))
        if "drawn" in view.private:
            lines.append(_("You drew {card}.").format(card=describe(view.private["drawn"])))
        return "\n".join(lines)

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        p: Any = view.public
        if p["phase"] == "over":
            return None
        step = CLOCKWISE if p["direction"] == "clockwise" else ANTICLOCKWISE
        return turn_line(p["turn"], view.seat, names, step, _doing(p["phase"]))

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
                lines.extend(played_lines(move, after.public, names))
            elif kind == "draw":
                lines.append(_("{who} drew {cards}.").format(who=who, cards=_cards(move["count"])))
            elif kind == "keep":
                lines.append(_("{who} kept the card.").format(who=who))
            elif kind == "take":
                lines.append(
                    _("{who} took the stack: {cards}.").format(who=who, cards=_cards(move["count"]))
                )
            elif kind == "pika":
                lines.append(f"{who}: Pika!")
            elif kind == "penalty":
                lines.append(
                    _("{who} forgot to call Pika and drew {cards}.").format(
                        who=who, cards=_cards(move["count"])
                    )
                )
        return lines

    def choice(self, action: Action, view: View) -> str:
        kind = action.kind
        if kind is ActionKind.PLAY:
            text = _("play {card}").format(card=describe(action.cards[0]))
            if action.colour:
                text += _(", naming {colour}").format(colour=colour_word(action.colour))
            if action.call:
                text += _(" and call Pika!")
            return text
        if kind is ActionKind.DRAW:
            return _("draw a card")
        if kind is ActionKind.KEEP:
            return _("keep the card you drew")
        if kind is ActionKind.TAKE:
            return _("take the {n} cards").format(n=view.public["stack"])
        if kind is ActionKind.CALL:
            return _("call Pika!")
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        if view.seat not in view.public["pika_windows"]:
            return None
        return _("One card left! 1) Pika!  2) say nothing  -- quick: ")

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        words = command.lower().split()
        if len(words) == 1 and words[0] in ("sort", _("sort")):
            return tuple(sorted(view.hand, key=_sort_key))
        moving = len(words) == 3 and words[0] in ("move", _("move"))
        if moving and words[1].isdigit() and words[2].isdigit():
            hand = list(view.hand)
            i, j = int(words[1]) - 1, int(words[2]) - 1
            if 0 <= i < len(hand) and 0 <= j < len(hand):
                hand.insert(j, hand.pop(i))
                return tuple(hand)
        return None

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        sizes = view.public["hand_sizes"]
        order = sorted(range(len(names)), key=lambda s: (outcome.places[s], s))
        lines = [_("--- Final places ") + "-" * 30]
        for s in order:
            place = ordinal(outcome.places[s])
            left = ngettext("{n} card left", "{n} cards left", sizes[s]).format(n=sizes[s])
            lines.append(f"{place:>4}  {names[s]} ({left})")
        return "\n".join(lines)


RENDERER = PikaRenderer()
