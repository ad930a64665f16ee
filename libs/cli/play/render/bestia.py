"""How Bestia looks in the terminal, from the player's view: the chips and the pot, the
turned trump, who plays and who went al buio, the trick, and each hand's payout and
bestie in chips.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.italian_cards import SUIT_NAMES, pretty
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import agree, count, does, ordinal


def _does(names: Sequence[str], seat: int, me: int | None, you: str, others: str) -> str:
    return f"{names[seat]} {you if seat == me else others}"


def _plays(plays: Sequence[Mapping[str, Any]], names: Sequence[str]) -> str:
    return ", ".join(f"{names[p['seat']]} {pretty(p['card'])}" for p in plays)


class BestiaRenderer:
    """Renders Bestia views; see :class:`tavolo.cli.play.command.Renderer`."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Bestia goes anticlockwise, seat s to s+1 (RULES §0.2)."""
        p: Any = view.public
        if p.get("places") or p.get("phase") == "over" or p.get("turn") is None:
            return None
        return turn_line(
            p["turn"],
            view.seat,
            names,
            ANTICLOCKWISE,
            "declare" if p["phase"] == "declaring" else "play",
        )

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = [f"--- Hand {p['hand_no']} of {p['hands']} - your turn " + "-" * 24]
        lines.append(
            "Chips: "
            + "   ".join(f"{names[s]} {c}" for s, c in enumerate(p["chips"]))
            + f"   Pot {p['pot']} ({p['pot'] // 3} a trick)"
        )
        lines.append(f"Trumps: {SUIT_NAMES[p['trumps']]} (the {pretty(p['turned'])} is turned).")
        playing = [
            names[s] + (" (al buio)" if p["buio"][s] else "")
            for s, d in enumerate(p["declared"])
            if d
        ]
        if playing:
            lines.append("Playing: " + ", ".join(playing))
        if p["phase"] == "playing":
            table = _plays(p["trick"], names) if p["trick"] else "nothing yet: you lead"
            lines.append(f"Trick {p['trick_number']}: {table}")
        lines.append("Your hand: " + "  ".join(pretty(c) for c in view.hand))
        return "\n".join(lines)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        new_hand = old is None or old["hand_no"] != p["hand_no"]
        lines: list[str] = []
        if new_hand and old is not None and p["last_hand"] is not None:
            lines.extend(self._hand_over(p, names))
        if new_hand:
            lines.append(
                f"Hand {p['hand_no']}: {_does(names, p['dealer'], after.seat, 'deal', 'deals')}"
                f"; the pot is {p['pot']}."
            )
        for s, d in enumerate(p["declared"]):
            if d is not None and (new_hand or old["declared"][s] is None):
                verb = ("play", "plays") if d else ("pass", "passes")
                lines.append(f"{_does(names, s, after.seat, *verb)}.")
        last = p["last_trick"]
        if last and (new_hand or old["last_trick"] != last):
            won = _does(names, last["winner"], after.seat, "take", "takes")
            lines.append(f"Trick {last['number']}: {_plays(last['plays'], names)} - {won} it.")
        if p["phase"] == "over" != old["phase"] and not new_hand and p["last_hand"] is not None:
            lines.extend(self._hand_over(p, names))
        return lines

    def _hand_over(self, p: Any, names: Sequence[str]) -> list[str]:
        summary = p["last_hand"]
        if summary.get("void"):
            return [f"Hand {summary['hand']}: nobody played; the pot stays."]
        if "alone" in summary:
            return [
                f"Hand {summary['hand']}: {names[summary['alone']]} alone "
                f"{agree(names[summary['alone']], 'takes')} the pot "
                f"of {summary['won']}."
            ]
        lines = [
            f"Hand {summary['hand']} is over: pot {summary['pot']}, "
            f"{count(summary['per_trick'], 'chip')} a trick."
        ]
        for s, tricks in enumerate(summary["tricks"]):
            if tricks:
                lines.append(
                    f"  {names[s]}: {count(tricks, 'trick')}, +{tricks * summary['per_trick']}"
                )
        for s, paid in summary["bestia"].items():
            who = names[int(s)]
            lines.append(
                f"  {does(who, 'goes')} bestia and {agree(who, 'pays')} {paid} into the next pot."
            )
        return lines

    def choice(self, action: Action, view: View) -> str:
        kind = action.kind
        if kind is ActionKind.PLAY and action.cards:
            return f"play {pretty(action.cards[0])}"
        if kind is ActionKind.PLAY:
            return "play this hand (no trick: you pay the pot)"
        if kind is ActionKind.PASS:
            return "pass"
        if kind is ActionKind.DRAW:
            return "go al buio: give up your hand for 3 unseen cards"
        if kind is ActionKind.KEEP:
            return "keep your hand"
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


RENDERER = BestiaRenderer()
