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
from tavolo.cli.i18n import _, pgettext
from tavolo.cli.play.render import another_amount
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import count, does, ordinal

_SIZED = frozenset({ActionKind.BET})


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


class SetteMezzoRenderer(another_amount.AsksAmounts):
    """Renders Sette e mezzo views; see :class:`tavolo.cli.play.renderers.Renderer`."""

    sized = _SIZED

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Punters act from the banker's right, anticlockwise, so the banker comes last."""
        p: Any = view.public
        if p["turn"] is None:
            return None
        turn = int(p["turn"])
        if p["phase"] == "betting":
            doing = pgettext("to", "bet")
        elif turn == p["banker"]:
            doing = pgettext("to", "play the bank")
        else:
            doing = pgettext("to", "draw or stand")
        return turn_line(turn, view.seat, names, ANTICLOCKWISE, doing)

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        banker = int(p["banker"])
        lines = [
            _("--- Hand {n} of {hands} - your turn ").format(n=p["hand_no"], hands=p["hands"])
            + "-" * 24
        ]
        lines.append(
            _("Chips: ")
            + "   ".join(
                f"{names[s]} {c}" + (" " + _("(bank)") if s == banker else "")
                for s, c in enumerate(p["chips"])
            )
        )
        for seat in [*((banker + 1 + i) % len(names) for i in range(len(names) - 1)), banker]:
            cards = p["cards"][seat]
            if seat == view.seat or not cards:
                continue
            role = _("bank") if seat == banker else self._stake(p, seat)
            lines.append(f"  {names[seat]} ({role}): {_cards(cards)}")
        if view.hand:
            total = int(view.private.get("total", 0))
            role = _("you hold the bank") if view.seat == banker else self._stake(p, view.seat)
            lines.append(
                _("Your cards: {cards} - {total} ({role})").format(
                    cards=" ".join(pretty(c) for c in view.hand), total=points(total), role=role
                )
            )
        limits = view.private.get("bet_limits")
        if limits:
            lines.append(
                _("You may bet {low} to {high} chips.").format(low=limits[0], high=limits[1])
            )
        return "\n".join(lines)

    def _stake(self, p: Any, seat: int | None) -> str:
        if seat is None:
            return ""
        if p["sitting_out"][seat]:
            return _("sits out")
        bet = p["bets"][seat]
        if bet is None:
            return _("no bet yet")
        if p["busted"][seat]:
            return _("bet {bet}, bust").format(bet=bet)
        return _("bet {bet}").format(bet=bet)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        new_hand = old is None or old["hand_no"] != p["hand_no"]
        lines: list[str] = []
        if p["last_hand"] is not None and (old is None or old["last_hand"] != p["last_hand"]):
            lines.extend(self.hand_over(p["last_hand"], names, after.seat))
        if new_hand and p["phase"] != "over":
            if p["banker"] == after.seat:
                holds = pgettext("you", "hold")
            else:
                holds = pgettext("verb", "holds")
            lines.append(
                _("Hand {n}: {who} {holds} the bank.").format(
                    n=p["hand_no"], who=names[p["banker"]], holds=holds
                )
            )
        for s, bust in enumerate(p["busted"]):
            if bust and (new_hand or not old["busted"][s]) and p["phase"] != "over":
                cards = _cards(p["cards"][s])
                goes = does(names[s], pgettext("verb", "goes"), pgettext("you", "go"))
                lines.append(
                    _("{who_goes} over 7½ with {cards}.").format(who_goes=goes, cards=cards)
                )
        return lines

    def hand_over(self, summary: Any, names: Sequence[str], me: int | None) -> list[str]:
        """The showdown of a finished hand, in the game's words."""
        banker = names[summary["banker"]]
        if summary.get("no_bets"):
            return [
                _("Hand {n}: nobody could bet against {banker}'s bank.").format(
                    n=summary["hand"], banker=banker
                )
            ]
        total = points(summary["banker_total"] or 0)
        if summary["banker_total"] is None:
            played = _("every punter went bust, so the bank did not play")
        elif summary["banker_busted"]:
            played = _("the bank ({banker}) went bust with {total}").format(
                banker=banker, total=total
            )
        elif summary["banker_reale"]:
            played = _("the bank ({banker}) stood on {total}, a sette e mezzo reale").format(
                banker=banker, total=total
            )
        else:
            played = _("the bank ({banker}) stood on {total}").format(banker=banker, total=total)
        lines = [_("Hand {n} is over: {how}.").format(n=summary["hand"], how=played)]
        for line in summary["punters"]:
            name = names[line["seat"]]
            if not line["bet"]:
                lines.append("  " + _("{who} sat out.").format(who=name))
                continue
            if line["busted"]:
                how = _("bust with {total}").format(total=points(line["total"]))
            elif line["reale"]:
                how = "sette e mezzo reale"
            else:
                how = points(line["total"])
            bet = _("bet {bet}").format(bet=line["bet"])
            lines.append(f"  {name}: {how}, {bet}, {_signed(line['gain'])}")
        taker = summary["bank_taken_by"]
        if taker is not None:
            takes = pgettext("you", "take") if taker == me else pgettext("verb", "takes")
            lines.append(
                "  "
                + _("{who} {takes} the bank with the reale.").format(who=names[taker], takes=takes)
            )
        return lines

    def choice(self, action: Action, view: View) -> str:
        if action.kind is ActionKind.BET:
            return _("bet {chips}").format(chips=count(action.amount or 0, "chip", "chips"))
        if action.kind is ActionKind.HIT:
            return _("draw a card (tirare)")
        if action.kind is ActionKind.STAND:
            return _("stand (stare) on {total}").format(
                total=points(int(view.private.get("total", 0)))
            )
        return str(action)

    def menu(self, view: View, legal: Sequence[Action]) -> list[tuple[str, Action]]:
        """A bet offers the least, half the most and the most, then "another amount",
        which asks for the number (one line per amount was up to 40); the rest as they
        are."""
        bets = another_amount.legal_amounts(legal, ActionKind.BET)
        listed = [(self.choice(a, view), a) for a in legal if a.kind is not ActionKind.BET]
        if not bets:
            return listed
        low, high = bets[0], bets[-1]
        picked = sorted({low, max(low, high // 2), high})
        sizes = [
            (self.choice(Action(ActionKind.BET, amount=n), view), Action(ActionKind.BET, amount=n))
            for n in picked
        ]
        if len(picked) < len(bets):
            another = _("bet another amount ({low} to {high})").format(low=low, high=high)
            sizes.append((another, Action(ActionKind.BET)))
        return sizes + listed

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


RENDERER = SetteMezzoRenderer()
