"""How Scala 40 looks in the terminal: every meld on the table with who laid it, the
pozzo's top, the hand, and at the end of every hand each player's penalty line by line.

Everything comes from the human's view. Hands are shown sorted by suit and rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.rummy.deck import sort_key
from tavolo.cardgames.games.rummy.melds import SCALA40_MELDS, Meld, read_meld
from tavolo.cardgames.games.rummy.scala40_scoring import OPENING, meld_value
from tavolo.cli.i18n import _, pgettext
from tavolo.cli.play.render.burraco import attach_choice
from tavolo.cli.play.render.rummy_words import describe, pretty, pretty_all, shown
from tavolo.cli.play.renderers import arrangement
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import agree, count, does, ordinal


def scoring_lines(
    summary: Mapping[str, Any], p: Mapping[str, Any], names: Sequence[str]
) -> list[str]:
    """The end-of-hand penalties, player by player."""
    closer = summary.get("closed_by")
    if closer is None:
        head = _("Nobody closed")
    elif summary.get("in_mano"):
        head = _("{who} closed in mano (penalties doubled)").format(who=names[closer])
    else:
        head = _("{who} closed").format(who=names[closer])
    lines = [_("Hand {n} is over: {how}.").format(n=summary["hand"], how=head)]
    for line in summary["players"]:
        who = names[line["seat"]]
        if line["closed"]:
            closed = _("closed")
            lines.append(f"  {who:<16} {closed:<26}{0:4d}")
        elif not line["opened"]:
            never = _("never opened")
            lines.append(f"  {who:<16} {never:<26}{line['points']:+4d}")
        else:
            lines.append(f"  {who:<16} {line['cards']:<26}{line['points']:+4d}")
    totals = summary["totals"]
    lines.append(
        "  "
        + _("Totals: ")
        + "   ".join(
            f"{names[s]} {t}"
            for s, t in enumerate(totals)
            if p["alive"][s] or s in summary["eliminated"]
        )
    )
    for seat in summary["eliminated"]:
        who = names[seat]
        out = agree(who, pgettext("verb", "is out"), pgettext("you", "are out"))
        reaches = does(who, pgettext("verb", "reaches"), pgettext("you", "reach"))
        lines.append(
            "  "
            + _("{who_reaches} {limit} and {is_out}.").format(
                who_reaches=reaches, limit=p["elimination"], is_out=out
            )
        )
    return lines


def take_back(p: Mapping[str, Any]) -> str:
    """The take-back choice in the words of what it undoes: the opening melds not yet
    down, and the pozzo card only when one was taken this turn."""
    taken = p.get("pozzo_card_taken")
    pending = any(m["pending"] for m in p["melds"])
    if pending and taken:
        return _("take back your opening melds and put {card} back on the pozzo").format(
            card=taken  # the view names it
        )
    if taken and not pending:
        return _("put {card} back on the pozzo").format(card=taken)
    return _("take back your opening melds")


def _opened(view: View) -> bool:
    return bool(view.public["opened"][view.seat if view.seat is not None else 0])


def _toward_opening(view: View, worth: int) -> str:
    """`` (worth 18)``, `` (worth 33, opens)`` before the seat opens; nothing after."""
    if _opened(view):
        return ""
    opens = view.public["opening_so_far"] + worth >= OPENING
    if opens:
        return " " + _("(worth {worth}, opens)").format(worth=worth)
    return " " + _("(worth {worth})").format(worth=worth)


def _worth(action: Action) -> int:
    meld = read_meld(action.cards, SCALA40_MELDS)
    return meld_value(meld) if isinstance(meld, Meld) else 0


class Scala40Renderer:
    """Renders Scala 40 views; see :class:`tavolo.cli.play.command.Renderer`."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Scala 40 goes anticlockwise, seat s to s+1 (RULES §0.2)."""
        p: Any = view.public
        if p.get("places") or p.get("phase") == "over" or p.get("turn") is None:
            return None
        return turn_line(
            p["turn"],
            view.seat,
            names,
            ANTICLOCKWISE,
            pgettext("to", "draw") if p["phase"] == "draw" else pgettext("to", "meld or discard"),
        )

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        seat = view.seat if view.seat is not None else 0
        if p["phase"] == "draw":
            phase = _("draw or take the pozzo")
        else:
            phase = _("meld, attach or discard")
        lines = [
            _("--- Hand {n} - your turn: {phase} ").format(n=p["hand"], phase=phase) + "-" * 20
        ]
        lines.append(
            _("Totals: ")
            + "   ".join(f"{names[s]} {t}" for s, t in enumerate(p["totals"]) if p["alive"][s])
            + "   "
            + _("(out at {limit})").format(limit=p["elimination"])
        )
        lines.append(_("Melds on the table:"))
        for i, m in enumerate(p["melds"]):
            pending = "  " + _("(opening, not yet down)") if m["pending"] else ""
            by = _("by {who}").format(who=names[m["owner"]])
            lines.append(f"    {i + 1}: {shown(m['shown'])}   {by}{pending}")
        if not p["melds"]:
            lines.append("    " + _("(none yet)"))
        not_open = " " + _("(not open)")
        sizes = " | ".join(
            f"{names[s]} {n}{'' if p['opened'][s] else not_open}"
            for s, n in enumerate(p["hand_sizes"])
            if p["alive"][s]
        )
        lines.append(
            _("Cards in hand: {sizes}   Stock: {stock}").format(sizes=sizes, stock=p["stock_size"])
        )
        pozzo = p["pozzo"]
        lines.append(
            _("Pozzo: {cards}, top {top}").format(
                cards=count(len(pozzo), "card", "cards"),
                top=pretty(pozzo[-1]) if pozzo else _("empty"),
            )
        )
        if not p["opened"][seat]:
            lines.append(
                _("You have not opened: lay 40 or more ({n} so far).").format(n=p["opening_so_far"])
            )
        if p["first_round"]:
            lines.append(_("First round: nobody may close yet."))
        lines.append(
            _("Your hand: {cards}").format(
                cards="  ".join(f"[{n}] {pretty(c)}" for n, c in enumerate(view.hand, 1))
            )
        )
        return "\n".join(lines)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        lines: list[str] = []
        if old is None or old["hand"] != p["hand"]:
            if p["last_hand"] is not None and old is not None:
                lines.extend(scoring_lines(p["last_hand"], p, names))
            lines.append(_("Hand {n}: {who} dealt.").format(n=p["hand"], who=names[p["dealer"]]))
            return lines
        actor = old["turn"] if old["turn"] is not None else p["turn"]
        who = names[actor] if actor is not None else _("A player")
        takes = does(who, pgettext("verb", "takes"), pgettext("you", "take"))
        was, now = old["pozzo"], p["pozzo"]
        if old["phase"] == "draw" and p["stock_size"] < old["stock_size"]:
            draws = does(who, pgettext("verb", "draws"), pgettext("you", "draw"))
            lines.append(_("{who_draws} from the stock.").format(who_draws=draws))
        elif old["phase"] == "draw" and len(now) < len(was):
            lines.append(
                _("{who_takes} {card} from the pozzo.").format(
                    who_takes=takes, card=pretty(was[-1])
                )
            )
        same_turn = p["turn"] == old["turn"] and p["phase"] == old["phase"]
        returned = same_turn and old["pozzo_card_taken"] and not p["pozzo_card_taken"]
        took_back = len(p["melds"]) < len(old["melds"]) or returned
        if len(p["melds"]) < len(old["melds"]):
            if returned:
                line = _("{who_takes} back the opening melds; {card} goes back on the pozzo.")
            else:
                line = _("{who_takes} back the opening melds.")
            lines.append(line.format(who_takes=takes, card=old["pozzo_card_taken"]))
        elif returned:
            puts = does(who, pgettext("verb", "puts"), pgettext("you", "put"))
            lines.append(
                _("{who_puts} {card} back on the pozzo.").format(
                    who_puts=puts, card=old["pozzo_card_taken"]
                )
            )
        for i, m in enumerate(p["melds"]):
            if i >= len(old["melds"]):
                owner = names[m["owner"]]
                melds = does(owner, pgettext("verb", "melds"), pgettext("you", "meld"))
                lines.append(
                    _("{who_melds} {cards} (meld {n}).").format(
                        who_melds=melds, cards=shown(m["shown"]), n=i + 1
                    )
                )
            elif old["melds"][i]["cards"] != m["cards"]:
                adds = does(who, pgettext("verb", "adds"), pgettext("you", "add"))
                lines.append(
                    _("{who_adds} to meld {n}: {cards}.").format(
                        who_adds=adds, n=i + 1, cards=shown(m["shown"])
                    )
                )
        for s, opened in enumerate(p["opened"]):
            if opened and not old["opened"][s]:
                lines.append(_("{who} opened.").format(who=names[s]))
        if old["phase"] != "draw" and now and len(now) > len(was) and not took_back:
            discards = does(who, pgettext("verb", "discards"), pgettext("you", "discard"))
            lines.append(f"{discards} {pretty(now[-1])}.")
        if p["phase"] == "over" != old["phase"] and p["last_hand"] is not None:
            lines.extend(scoring_lines(p["last_hand"], p, names))
        return lines

    def choice(self, action: Action, view: View) -> str:
        kind = action.kind
        if kind is ActionKind.DRAW:
            return _("draw from the stock")
        if kind is ActionKind.TAKE_DISCARD:
            pozzo = view.public["pozzo"]
            return _("take {card} from the pozzo").format(card=pretty(pozzo[-1]))
        if kind is ActionKind.MELD:
            meld = read_meld(action.cards, SCALA40_MELDS)
            if not isinstance(meld, Meld):
                return _("meld {cards}").format(cards=pretty_all(action.cards))
            worth = _toward_opening(view, meld_value(meld))
            return _("meld {cards}").format(cards=describe(meld)) + worth
        if kind is ActionKind.ATTACH:
            return attach_choice(action)
        if kind is ActionKind.DISCARD:
            return _("discard {card}").format(card=pretty(action.cards[0]))
        if kind is ActionKind.PASS:
            return take_back(view.public)
        return str(action)

    def new_recall(self) -> TakenBack:
        return TakenBack()

    def menu(
        self, view: View, legal: Sequence[Action], recall: TakenBack | None = None
    ) -> list[tuple[str, Action]]:
        """Before opening, the melds worth most toward the 40 come first; melds of cards
        taken back this turn come last, after the discards (picking the first choice
        laid a meld short of the 40 and took it back for ever)."""
        entries = [(self.choice(a, view), a) for a in legal]
        if _opened(view):
            return entries
        melds = [e for e in entries if e[1].kind is ActionKind.MELD]
        melds.sort(key=lambda e: -_worth(e[1]))
        back = recall.cards if recall is not None else set()
        again = [e for e in melds if _cards(e[1]) in back]
        fresh = [e for e in melds if _cards(e[1]) not in back]
        return fresh + [e for e in entries if e[1].kind is not ActionKind.MELD] + again

    def call_prompt(self, view: View) -> str | None:
        return None  # Scala 40 has no timed calls

    arranges_locally = True
    """The rules keep no order of the hand: the client keeps the player's own."""

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return arrangement(view.hand, command, sort_key)

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = [_("--- Final places ") + "-" * 30]
        for seat in sorted(range(len(outcome.places)), key=lambda s: outcome.places[s]):
            place = ordinal(outcome.places[seat])
            points = count(p["totals"][seat], "point", "points")
            lines.append(f"{place:>4}  {names[seat]} ({points})")
        return "\n".join(lines)


def _cards(action: Action) -> tuple[str, ...]:
    return tuple(sorted(action.cards))


class TakenBack:
    """The client's memory of the player's melds this turn, and of those taken back."""

    def __init__(self) -> None:
        self.laid: list[tuple[str, ...]] = []
        self.cards: set[tuple[str, ...]] = set()
        """The cards of every meld taken back this turn."""

    def note(self, view: View, legal: Sequence[Action], action: Action) -> None:
        if action.kind is ActionKind.MELD:
            self.laid.append(_cards(action))
        elif action.kind is ActionKind.PASS:  # the take-back
            self.cards.update(self.laid)
            self.laid = []
        elif action.kind is ActionKind.DISCARD:  # the turn is over
            self.laid, self.cards = [], set()


RENDERER = Scala40Renderer()
