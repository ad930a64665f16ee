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
from tavolo.cli.play.turns import CLOCKWISE, seats_from, turn_line
from tavolo.cli.play.wording import count, ordinal, side_places


def _bid(amount: int | None, blind: bool) -> str:
    if amount is None:
        return "-"
    if amount == 0:
        return "blind nil" if blind else "nil"
    return str(amount)


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _team(names: Sequence[str], seats: Sequence[int]) -> str:
    return " & ".join(names[s] for s in seats)


def _does(names: Sequence[str], seat: int, me: int | None, you: str, others: str) -> str:
    """``"You bid"`` for the viewer's own seat, ``"Bot 1 bids"`` for another."""
    return f"{names[seat]} {you if seat == me else others}"


def _bidding_order(p: Mapping[str, Any]) -> list[int]:
    """The seats in the order they bid this round: clockwise from the first bidder."""
    return seats_from(p["first_bidder"], len(p["bids"]), CLOCKWISE)


def _plays(plays: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    return ", ".join(f"{names[p['seat']]} {pretty(p['card'])}" for p in plays)


def explain_score(team: Mapping[str, Any]) -> str:
    """How a team's round added up, item by item (the items sum to its delta):
    ``+70 for making bid 7, -3 for 3 bags (-1 each)``. Bags are the tricks over the bid;
    each is worth the table's bag points, and every 10 kept cost 100 more."""
    made = "making" if team["made"] else "missing"
    parts = [f"{team['contract_points']:+d} for {made} bid {team['contract']}"]
    if team["bags_taken"]:
        each = team["bag_points"] // team["bags_taken"]
        parts.append(
            f"{team['bag_points']:+d} for {_count(team['bags_taken'], 'bag')} ({each:+d} each)"
        )
    if team["bag_penalty"]:
        parts.append(f"{team['bag_penalty']:+d} for reaching 10 bags")
    if team["nil_points"]:
        parts.append(f"{team['nil_points']:+d} for nil")
    if team["boston"]:
        parts.append(f"{team['boston_points']:+d} for a Boston (all 13 tricks)")
    return ", ".join(parts)


class SpadesRenderer:
    """Renders Spades views; see :class:`tavolo.cli.play.command.Renderer`."""

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        teams = p["teams"]
        phase = p["phase"]
        heading = (
            f"--- Round {p['round']}, trick {p['trick_number']} - your turn "
            if phase == "playing"
            else f"--- Round {p['round']}, bidding - your turn "
        )
        lines = [heading + "-" * 24]
        lines.append(
            "Scores: "
            + "   ".join(
                f"{_team(names, teams[t])} {p['scores'][t]} ({_count(p['bags'][t], 'bag')})"
                for t in (0, 1)
            )
            + f"   Target {p['target']}"
        )
        lines.append(
            "Bids: "
            + " | ".join(
                f"{names[s]} {_bid(p['bids'][s], p['blind_nil'][s])}" for s in _bidding_order(p)
            )
        )
        if phase == "playing":
            lines.append(
                "Tricks: "
                + " | ".join(f"{names[s]} {n}" for s, n in enumerate(p["tricks_won"]))
                + f"   Spades {'broken' if p['spades_broken'] else 'not broken yet'}"
            )
            table = _plays(p["trick"], names) if p["trick"] else "nothing yet: you lead"
            lines.append(f"On the table: {table}")
        line = self.turn(view, names)
        if line:
            lines.append(line)
        if view.hand:
            lines.append("Your hand: " + "  ".join(pretty(c) for c in view.hand))
        else:
            lines.append("Your cards are face down: decide on blind nil before you see them.")
        return "\n".join(lines)

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        p: Any = view.public
        if p["turn"] is None:
            return None
        doing = {"playing": "play", "blind_nil": "decide on blind nil"}.get(p["phase"], "bid")
        return turn_line(p["turn"], view.seat, names, CLOCKWISE, doing)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        new_round = old is None or old["round"] != p["round"]
        lines: list[str] = []
        if new_round:
            if p["last_round"] is not None:
                lines.extend(self._round_over(p, names))
            first = _does(names, p["first_bidder"], after.seat, "bid", "bids")
            lines.append(f"Round {p['round']}: {first} first.")
        for s in _bidding_order(p):
            amount = p["bids"][s]
            if amount is not None and (new_round or old["bids"][s] is None):
                who = _does(names, s, after.seat, "bid", "bids")
                lines.append(f"{who} {_bid(amount, p['blind_nil'][s])}.")
        last = p["last_trick"]
        if last and (new_round or old["last_trick"] is None or old["last_trick"] != last):
            lines.append(
                f"Trick {last['number']}: {_plays(last['plays'], names)}"
                f" - {_does(names, last['winner'], after.seat, 'take', 'takes')} it."
            )
        if p["phase"] == "over" != old["phase"] and p["last_round"] is not None and not new_round:
            lines.extend(self._round_over(p, names))
        return lines

    def _round_over(self, p: Any, names: Sequence[str]) -> list[str]:
        summary = p["last_round"]
        lines = [f"Round {summary['round']} is over:"]
        for t, seats in enumerate(p["teams"]):
            team = summary["teams"][t]
            lines.append(
                f"  {_team(names, seats)}: bid {team['contract']}, took {team['tricks']}: "
                f"{explain_score(team)} = {team['delta']:+d}, now {team['score']} "
                f"({_count(team['bags'], 'bag')} kept)"
            )
        return lines

    def choice(self, action: Action, view: View) -> str:
        kind = action.kind
        if kind is ActionKind.PLAY:
            return f"play {pretty(action.cards[0])}"
        if kind is ActionKind.BID:
            n = action.amount or 0
            return "bid nil (take no trick: +100, or -100)" if n == 0 else f"bid {n}"
        if kind is ActionKind.BLIND_NIL:
            return "bid blind nil without seeing your cards (+200, or -200)"
        if kind is ActionKind.PASS:
            return "see your cards and bid normally"
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        return None  # Spades has no timed calls

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return None  # the hand is always shown sorted

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = ["--- Final places " + "-" * 30]
        places = side_places([outcome.places[team[0]] for team in p["teams"]])
        for t in sorted((0, 1), key=lambda t: places[t]):
            seats = p["teams"][t]
            place = ordinal(places[t])
            lines.append(f"{place:>4}  {_team(names, seats)} ({count(p['scores'][t], 'point')})")
        return "\n".join(lines)


RENDERER = SpadesRenderer()
