"""How Burraco looks in the terminal: each side's melds, the discard pile's top, the
hand, and at the end of every hand the scoring line by line (melded cards, burraci,
closing, cards in hand, the pozzetto).

Everything comes from the human's view. Hands are shown sorted by suit and rank.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.rummy.deck import sort_key
from tavolo.cardgames.games.rummy.melds import BURRACO_MELDS, Meld, read_meld
from tavolo.cli.i18n import _, pgettext
from tavolo.cli.play.render.rummy_words import describe, pretty, pretty_all, shown
from tavolo.cli.play.renderers import arrangement
from tavolo.cli.play.turns import ANTICLOCKWISE, turn_line
from tavolo.cli.play.wording import count, does, match_words, ordinal, side_places


def _side(names: Sequence[str], seats: Sequence[int]) -> str:
    return " & ".join(names[s] for s in seats)


def side_melds(p: Mapping[str, Any], side: int) -> list[str]:
    """One line per meld: its number (from 1, as the menu says it), its cards with what
    a wild stands for, a burraco."""
    lines = []
    for i, m in enumerate(p["melds"][side]):
        tag = f"  [burraco {m['burraco']}]" if m.get("burraco") else ""
        lines.append(f"    {i + 1}: {shown(m['shown'])}{tag}")
    return lines or ["    " + _("(no melds yet)")]


def scoring_lines(
    summary: Mapping[str, Any], p: Mapping[str, Any], names: Sequence[str]
) -> list[str]:
    """The end-of-hand scoring, side by side and line by line."""
    title = _("Tie-break hand {n} is over:") if summary.get("tie_break") else _("Hand {n} is over:")
    lines = [title.format(n=summary["hand"])]
    closer = summary.get("closed_by")
    for side, score in enumerate(summary["sides"]):
        who = _side(names, p["sides"][side])
        burraci = ", ".join(score["burraci"]) or _("none")
        lines.append(f"  {who}:")
        rows = [(_("melded cards"), score["melded"])]
        rows.append((_("burraci ({kinds})").format(kinds=burraci), score["burraco_bonus"]))
        if score["closing"]:
            rows.append((_("closing"), score["closing"]))
        rows.append((_("cards in hand"), -score["in_hand"]))
        if score["no_pozzetto"]:
            rows.append((_("pozzetto never taken"), -score["no_pozzetto"]))
        rows.append((_("hand total"), score["total"]))
        lines.extend(f"    {label:<28}{value:+6d}" for label, value in rows)
    if closer is None:
        lines.append("  " + _("Nobody closed: the stock ran down to two cards."))
    totals = summary["totals"]
    lines.append(
        "  "
        + _("Match: ")
        + "   ".join(f"{_side(names, p['sides'][s])} {totals[s]}" for s in (0, 1))
        + f"   ({match_words(p['match_length'])})"
    )
    return lines


def attach_choice(action: Action) -> str:
    """``add 7♥ to meld 2 at the low end``: an attach on the menu (Burraco, Scala 40)."""
    card, meld = pretty(action.cards[0]), (action.meld or 0) + 1
    if action.target == "low":
        return _("add {card} to meld {n} at the low end").format(card=card, n=meld)
    if action.target == "high":
        return _("add {card} to meld {n} at the high end").format(card=card, n=meld)
    if action.target:
        return _("add {card} to meld {n} at the {end} end").format(
            card=card, n=meld, end=action.target
        )
    return _("add {card} to meld {n}").format(card=card, n=meld)


class BurracoRenderer:
    """Renders Burraco views; see :class:`tavolo.cli.play.command.Renderer`."""

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Burraco goes anticlockwise, seat s to s+1 (RULES §0.2)."""
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
        phase = _("draw or take the pile") if p["phase"] == "draw" else _("meld, attach or discard")
        lines = [
            _("--- Hand {n} - your turn: {phase} ").format(n=p["hand"], phase=phase) + "-" * 20
        ]
        lines.append(
            _("Match: ")
            + "   ".join(f"{_side(names, p['sides'][s])} {p['totals'][s]}" for s in (0, 1))
            + f"   ({match_words(p['match_length'])})"
        )
        for side in (0, 1):
            if p["took_pozzetto"][side]:
                line = _("{side} (pozzetto taken):")
            else:
                line = _("{side} (pozzetto waiting):")
            lines.append("  " + line.format(side=_side(names, p["sides"][side])))
            lines.extend(side_melds(p, side))
        sizes = " | ".join(f"{names[s]} {n}" for s, n in enumerate(p["hand_sizes"]))
        lines.append(
            _("Cards in hand: {sizes}   Stock: {stock}").format(sizes=sizes, stock=p["stock_size"])
        )
        pile = p["discard"]
        top = pretty(pile[-1]) if pile else _("empty")
        under = (
            " "
            + _("(on {cards})").format(
                cards=pretty_all(pile[:-1][-6:]) + (" ..." if len(pile) > 7 else "")
            )
            if len(pile) > 1
            else ""
        )
        lines.append(
            _("Discard pile: {cards}, top {top}").format(
                cards=count(len(pile), "card", "cards"), top=top
            )
            + under
        )
        if p["last_turn"]:
            lines.append(_("The stock is down to two cards: this is the last turn of the hand."))
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
        new_hand = old is None or old["hand"] != p["hand"]
        if new_hand:
            if p["last_hand"] is not None and old is not None:
                lines.extend(scoring_lines(p["last_hand"], p, names))
            lines.append(_("Hand {n}: {who} dealt.").format(n=p["hand"], who=names[p["dealer"]]))
            return lines
        lines.extend(self._moves(old, p, names))
        if p["phase"] == "over" != old["phase"] and p["last_hand"] is not None:
            lines.extend(scoring_lines(p["last_hand"], p, names))
        return lines

    def _moves(self, old: Any, p: Any, names: Sequence[str]) -> list[str]:
        """Who drew from where, melded, added to a meld or discarded, since ``old``: the
        seat whose turn it was did it (views come move by move)."""
        actor = old["turn"] if old["turn"] is not None else p["turn"]
        who = names[actor] if actor is not None else _("A player")
        takes = does(who, pgettext("verb", "takes"), pgettext("you", "take"))
        lines = []
        was_pile, pile = old["discard"], p["discard"]
        took_pile = len(was_pile) > 0 and len(pile) < len(was_pile)
        if took_pile:
            lines.append(
                _("{who_takes} the discard pile ({cards}: {shown}).").format(
                    who_takes=takes,
                    cards=count(len(was_pile), "card", "cards"),
                    shown=pretty_all(was_pile),
                )
            )
        elif p["stock_size"] < old["stock_size"] and old["phase"] == "draw":
            draws = does(who, pgettext("verb", "draws"), pgettext("you", "draw"))
            lines.append(_("{who_draws} from the stock.").format(who_draws=draws))
        for side in (0, 1):
            was, now = old["melds"][side], p["melds"][side]
            for i, m in enumerate(now):
                if i >= len(was):
                    melds = does(who, pgettext("verb", "melds"), pgettext("you", "meld"))
                    lines.append(
                        _("{who_melds} {cards} (meld {n}).").format(
                            who_melds=melds, cards=shown(m["shown"]), n=i + 1
                        )
                    )
                elif was[i]["cards"] != m["cards"]:
                    adds = does(who, pgettext("verb", "adds"), pgettext("you", "add"))
                    lines.append(
                        _("{who_adds} to meld {n}: {cards}.").format(
                            who_adds=adds, n=i + 1, cards=shown(m["shown"])
                        )
                    )
            if p["took_pozzetto"][side] and not old["took_pozzetto"][side]:
                lines.append(_("{who_takes} the pozzetto.").format(who_takes=takes))
        if len(pile) > len(was_pile) or (
            pile and was_pile and pile[-1] != was_pile[-1] and not took_pile
        ):
            discards = does(who, pgettext("verb", "discards"), pgettext("you", "discard"))
            lines.append(f"{discards} {pretty(pile[-1])}.")
        return lines

    def choice(self, action: Action, view: View) -> str:
        kind = action.kind
        if kind is ActionKind.DRAW:
            return _("draw from the stock")
        if kind is ActionKind.TAKE_DISCARD:
            pile = view.public["discard"]
            return _("take the discard pile ({cards}: {shown})").format(
                cards=count(len(pile), "card", "cards"), shown=pretty_all(pile)
            )
        if kind is ActionKind.MELD:
            meld = read_meld(action.cards, BURRACO_MELDS)
            shown = describe(meld) if isinstance(meld, Meld) else pretty_all(action.cards)
            return _("meld {cards}").format(cards=shown)
        if kind is ActionKind.ATTACH:
            return attach_choice(action)
        if kind is ActionKind.DISCARD:
            return _("discard {card}").format(card=pretty(action.cards[0]))
        return str(action)

    def call_prompt(self, view: View) -> str | None:
        return None  # Burraco has no timed calls

    arranges_locally = True
    """The rules keep no order of the hand: the client keeps the player's own."""

    def reorder(self, view: View, command: str) -> tuple[str, ...] | None:
        return arrangement(view.hand, command, sort_key)

    def outcome(self, outcome: Outcome, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = [_("--- Final places ") + "-" * 30]
        places = side_places([outcome.places[seats[0]] for seats in p["sides"]])
        for side in sorted((0, 1), key=lambda t: places[t]):
            seats = p["sides"][side]
            place = ordinal(places[side])
            points = count(p["totals"][side], "point", "points")
            lines.append(f"{place:>4}  {_side(names, seats)} ({points})")
        return "\n".join(lines)


RENDERER = BurracoRenderer()
