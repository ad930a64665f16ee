"""How Spades looks in the terminal: the table from the player's view, and menu lines.

Everything comes from the human's view (seat 0): its hand, the bids, the trick on the
table, the last finished trick and the score sheet. Hands are shown in a fixed order
(spades, hearts, diamonds, clubs; high to low), so there is nothing to reorder.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.french_deck import pretty
from tavolo.cli.i18n import _, pgettext
from tavolo.cli.play.render.trick_words import plays_line, seat_does, trick_taken
from tavolo.cli.play.turns import CLOCKWISE, seats_from, turn_line
from tavolo.cli.play.wording import count, ordinal, side_places


def _bid(amount: int | None, blind: bool) -> str:
    if amount is None:
        return "-"
    if amount == 0:
        return _("blind nil") if blind else _("nil")
    return str(amount)


def _bags(n: int) -> str:
    return count(n, "bag", "bags")


def _team(names: Sequence[str], seats: Sequence[int]) -> str:
    return " & ".join(names[s] for s in seats)


def _bidding_order(p: Mapping[str, Any]) -> list[int]:
    """The seats in the order they bid this round: clockwise from the first bidder."""
    return seats_from(p["first_bidder"], len(p["bids"]), CLOCKWISE)


def explain_score(team: Mapping[str, Any]) -> str:
    """How a team's round added up, item by item (the items sum to its delta):
    ``+70 for making bid 7, -3 for 3 bags (-1 each)``. Bags are the tricks over the bid;
    each is worth the table's bag points, and every 10 kept cost 100 more."""
    if team["made"]:
        contract = _("{points} for making bid {bid}")
    else:
        contract = _("{points} for missing bid {bid}")
    parts = [contract.format(points=f"{team['contract_points']:+d}", bid=team["contract"])]
    if team["bags_taken"]:
        each = team["bag_points"] // team["bags_taken"]
        parts.append(
            _("{points} for {bags} ({each} each)").format(
                points=f"{team['bag_points']:+d}",
                bags=_bags(team["bags_taken"]),
                each=f"{each:+d}",
            )
        )
    if team["bag_penalty"]:
        parts.append(_("{points} for reaching 10 bags").format(points=f"{team['bag_penalty']:+d}"))
    if team["nil_points"]:
        parts.append(_("{points} for nil").format(points=f"{team['nil_points']:+d}"))
    if team["boston"]:
        parts.append(
            _("{points} for a Boston (all 13 tricks)").format(points=f"{team['boston_points']:+d}")
        )
    return ", ".join(parts)


class SpadesRenderer:
    """Renders Spades views; see :class:`tavolo.cli.play.command.Renderer`."""

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        teams = p["teams"]
        phase = p["phase"]
        heading = (
            _("--- Round {n}, trick {trick} - your turn ").format(
                n=p["round"], trick=p["trick_number"]
            )
            if phase == "playing"
            else _("--- Round {n}, bidding - your turn ").format(n=p["round"])
        )
        lines = [heading + "-" * 24]
        lines.append(
            _("Scores: ")
            + "   ".join(
                f"{_team(names, teams[t])} {p['scores'][t]} ({_bags(p['bags'][t])})" for t in (0, 1)
            )
            + "   "
            + _("Target {target}").format(target=p["target"])
        )
        lines.append(
            _("Bids: ")
            + " | ".join(
                f"{names[s]} {_bid(p['bids'][s], p['blind_nil'][s])}" for s in _bidding_order(p)
            )
        )
        if phase == "playing":
            lines.append(
                _("Tricks: ")
                + " | ".join(f"{names[s]} {n}" for s, n in enumerate(p["tricks_won"]))
                + "   "
                + (_("Spades broken") if p["spades_broken"] else _("Spades not broken yet"))
            )
            table = (
                plays_line(p["trick"], names, pretty) if p["trick"] else _("nothing yet: you lead")
            )
            lines.append(_("On the table: {cards}").format(cards=table))
        line = self.turn(view, names)
        if line:
            lines.append(line)
        if view.hand:
            lines.append(
                _("Your hand: {cards}").format(cards="  ".join(pretty(c) for c in view.hand))
            )
        else:
            lines.append(_("Your cards are face down: decide on blind nil before you see them."))
        return "\n".join(lines)

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        p: Any = view.public
        if p["turn"] is None:
            return None
        if p["phase"] == "playing":
            doing = pgettext("to", "play")
        elif p["phase"] == "blind_nil":
            doing = pgettext("to", "decide on blind nil")
        else:
            doing = pgettext("to", "bid")
        return turn_line(p["turn"], view.seat, names, CLOCKWISE, doing)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        new_round = old is None or old["round"] != p["round"]
        lines: list[str] = []
        if new_round:
            if p["last_round"] is not None:
                lines.extend(self._round_over(p, names))
            bids = (pgettext("you", "bid"), pgettext("verb", "bids"))
            first = seat_does(names, p["first_bidder"], after.seat, *bids)
            lines.append(_("Round {n}: {who_bids} first.").format(n=p["round"], who_bids=first))
        for s in _bidding_order(p):
            amount = p["bids"][s]
            if amount is not None and (new_round or old["bids"][s] is None):
                who = seat_does(
                    names, s, after.seat, pgettext("you", "bid"), pgettext("verb", "bids")
                )
                lines.append(f"{who} {_bid(amount, p['blind_nil'][s])}.")
        last = p["last_trick"]
        if last and (new_round or old["last_trick"] is None or old["last_trick"] != last):
            lines.append(trick_taken(last, names, after.seat, pretty))
        if p["phase"] == "over" != old["phase"] and p["last_round"] is not None and not new_round:
            lines.extend(self._round_over(p, names))
        return lines

    def _round_over(self, p: Any, names: Sequence[str]) -> list[str]:
        summary = p["last_round"]
        if summary.get("tie_break"):  # its points only order the level teams (§0.13)
            lines = [
                _("Tie-break round {n} is over (its points only decide the level match):").format(
                    n=summary["tie_break"]
                )
            ]
            line = _("{team}: bid {bid}, took {tricks}: {how} = {delta}; the match stays {score}")
        else:
            lines = [_("Round {n} is over:").format(n=summary["round"])]
            line = _("{team}: bid {bid}, took {tricks}: {how} = {delta}, now {score} ({bags} kept)")
        for t, seats in enumerate(p["teams"]):
            team = summary["teams"][t]
            lines.append(
                "  "
                + line.format(
                    team=_team(names, seats),
                    bid=team["contract"],
                    tricks=team["tricks"],
                    how=explain_score(team),
                    delta=f"{team['delta']:+d}",
                    score=team["score"],
                    bags=_bags(team["bags"]),
                )
            )
        return lines

    def choice(self, action: Action, view: View) -> str:
        kind = action.kind
        if kind is ActionKind.PLAY:
            return _("play {card}").format(card=pretty(action.cards[0]))
        if kind is ActionKind.BID:
            n = action.amount or 0
            if n == 0:
                return _("bid nil (take no trick: +100, or -100)")
            return _("bid {n}").format(n=n)
        if kind is ActionKind.BLIND_NIL:
            return _("bid blind nil without seeing your cards (+200, or -200)")
        if kind is ActionKind.PASS:
            return _("see your cards and bid normally")
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        return None  # Spades has no timed calls

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return None  # the hand is always shown sorted

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = [_("--- Final places ") + "-" * 30]
        places = side_places([outcome.places[team[0]] for team in p["teams"]])
        for t in sorted((0, 1), key=lambda t: places[t]):
            seats = p["teams"][t]
            place = ordinal(places[t])
            points = count(p["scores"][t], "point", "points")
            lines.append(f"{place:>4}  {_team(names, seats)} ({points})")
        return "\n".join(lines)


RENDERER = SpadesRenderer()
