"""How Sette e mezzo looks in the terminal, from the player's view: the chips and who
holds the bank, each seat's bet and cards (the face-down one as ``??``), the player's own
total, and each hand's showdown: totals, reali, busts and what every bet came to.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.italian_cards import pretty
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import count, does, ordinal


def points(halves: int) -> str:
    """A total in half points as a player says it: 7½, ½, 5."""
    whole, half = divmod(halves, 2)
    if not half:
        return str(whole)
    return f"{whole}½" if whole else "½"


def _cards(cards: Sequence[str | None]) -> str:
    return " ".join("??" if c is None else pretty(c) for c in cards)


def _signed(chips: int) -> str:
    return f"+{chips}" if chips > 0 else str(chips)


class SetteMezzoRenderer:
    """Renders Sette e mezzo views; see :class:`tavolo.cli.play.renderers.Renderer`."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Punters act from the banker's right, anticlockwise, so the banker comes last."""
        p: Any = view.public
        if p["turn"] is None:
            return None
        turn = int(p["turn"])
        if p["phase"] == "betting":
            doing = "bet"
        elif turn == p["banker"]:
            doing = "play the bank"
        else:
            doing = "draw or stand"
        return turn_line(turn, view.seat, names, ANTICLOCKWISE, doing)

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        banker = int(p["banker"])
        lines = [f"--- Hand {p['hand_no']} of {p['hands']} - your turn " + "-" * 24]
        lines.append(
            "Chips: "
            + "   ".join(
                f"{names[s]} {c}" + (" (bank)" if s == banker else "")
                for s, c in enumerate(p["chips"])
            )
        )
        for seat in [*((banker + 1 + i) % len(names) for i in range(len(names) - 1)), banker]:
            cards = p["cards"][seat]
            if seat == view.seat or not cards:
                continue
            role = "bank" if seat == banker else self._stake(p, seat)
            lines.append(f"  {names[seat]} ({role}): {_cards(cards)}")
        if view.hand:
            total = int(view.private.get("total", 0))
            role = "you hold the bank" if view.seat == banker else self._stake(p, view.seat)
            lines.append(
                f"Your cards: {' '.join(pretty(c) for c in view.hand)} - {points(total)} ({role})"
            )
        limits = view.private.get("bet_limits")
        if limits:
            lines.append(f"You may bet {limits[0]} to {limits[1]} chips.")
        return "\n".join(lines)

    def _stake(self, p: Any, seat: int | None) -> str:
        if seat is None:
            return ""
        if p["sitting_out"][seat]:
            return "sits out"
        bet = p["bets"][seat]
        if bet is None:
            return "no bet yet"
        return f"bet {bet}, bust" if p["busted"][seat] else f"bet {bet}"

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        new_hand = old is None or old["hand_no"] != p["hand_no"]
        lines: list[str] = []
        if p["last_hand"] is not None and (old is None or old["last_hand"] != p["last_hand"]):
            lines.extend(self.hand_over(p["last_hand"], names, after.seat))
        if new_hand and p["phase"] != "over":
            holds = "hold" if p["banker"] == after.seat else "holds"
            lines.append(f"Hand {p['hand_no']}: {names[p['banker']]} {holds} the bank.")
        for s, bust in enumerate(p["busted"]):
            if bust and (new_hand or not old["busted"][s]) and p["phase"] != "over":
                cards = _cards(p["cards"][s])
                lines.append(f"{does(names[s], 'goes')} over 7½ with {cards}.")
        return lines

    def hand_over(self, summary: Any, names: Sequence[str], me: int | None) -> list[str]:
        """The showdown of a finished hand, in the game's words."""
        banker = names[summary["banker"]]
        if summary.get("no_bets"):
            return [f"Hand {summary['hand']}: nobody could bet against {banker}'s bank."]
        if summary["banker_total"] is None:
            played = "every punter went bust, so the bank did not play"
        elif summary["banker_busted"]:
            played = f"the bank ({banker}) went bust with {points(summary['banker_total'])}"
        else:
            reale = ", a sette e mezzo reale" if summary["banker_reale"] else ""
            played = f"the bank ({banker}) stood on {points(summary['banker_total'])}{reale}"
        lines = [f"Hand {summary['hand']} is over: {played}."]
        for line in summary["punters"]:
            name = names[line["seat"]]
            if not line["bet"]:
                lines.append(f"  {name} sat out.")
                continue
            if line["busted"]:
                how = f"bust with {points(line['total'])}"
            elif line["reale"]:
                how = "sette e mezzo reale"
            else:
                how = points(line["total"])
            lines.append(f"  {name}: {how}, bet {line['bet']}, {_signed(line['gain'])}")
        taker = summary["bank_taken_by"]
        if taker is not None:
            takes = "take" if taker == me else "takes"
            lines.append(f"  {names[taker]} {takes} the bank with the reale.")
        return lines

    def choice(self, action: Action, view: View) -> str:
        if action.kind is ActionKind.BET:
            return f"bet {count(action.amount or 0, 'chip')}"
        if action.kind is ActionKind.HIT:
            return "draw a card (tirare)"
        if action.kind is ActionKind.STAND:
            return f"stand (stare) on {points(int(view.private.get('total', 0)))}"
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        return None

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return None

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        lines = ["--- Final places (by chips) " + "-" * 20]
        for s in sorted(range(len(outcome.places)), key=lambda s: outcome.places[s]):
            lines.append(
                f"{ordinal(outcome.places[s]):>4}  {names[s]} ({count(outcome.scores[s], 'chip')})"
            )
        return "\n".join(lines)


RENDERER = SetteMezzoRenderer()
