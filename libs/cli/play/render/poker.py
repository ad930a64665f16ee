"""How Poker all'italiana looks in the terminal, from the player's view: the chips and the
pot, what it takes to open, who is still in, what each player put in this round and how
many cards they changed, and each pot's showdown in the table's words.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import Outcome, View
from tavolo.cardgames.games.betting.poker_hands import RANK_WORDS
from tavolo.cardgames.games.french_deck import pretty
from tavolo.cli.i18n import N_, _, pgettext
from tavolo.cli.play.render import another_amount
from tavolo.cli.play.render.poker_words import hand_words
from tavolo.cli.play.turns import CLOCKWISE, turn_line
from tavolo.cli.play.wording import count, ordinal

_SIZED = frozenset({ActionKind.BET, ActionKind.RAISE})


def _does(names: Sequence[str], seat: int, me: int | None, you: str, others: str) -> str:
    return f"{names[seat]} {you if seat == me else others}"


def _doing(phase: str) -> str:
    if phase == "blind":
        return pgettext("to", "decide on the blind")
    if phase == "change":
        return pgettext("to", "change cards")
    return pgettext("to", "bet")


_PAIRS = {
    5: N_("a pair of fives"),
    6: N_("a pair of sixes"),
    7: N_("a pair of sevens"),
    8: N_("a pair of eights"),
    9: N_("a pair of nines"),
    10: N_("a pair of tens"),
    11: N_("a pair of jacks"),
    12: N_("a pair of queens"),
    13: N_("a pair of kings"),
    14: N_("a pair of aces"),
}


def _pair(rank: int) -> str:
    """``a pair of jacks`` (``una coppia di fanti``): what it takes to open."""
    return (
        _(_PAIRS[rank]) if rank in _PAIRS else _("a pair of {rank}s").format(rank=RANK_WORDS[rank])
    )


class PokerRenderer(another_amount.AsksAmounts):
    """Renders Poker all'italiana views; see :class:`tavolo.cli.play.command.Renderer`."""

    sized = _SIZED

    def turn(self, view: View, names: Sequence[str]) -> str | None:
        """Poker goes clockwise, seat s to s-1 (RULES §0.3)."""
        p: Any = view.public
        if p.get("phase") == "over" or p.get("turn") is None:
            return None
        return turn_line(p["turn"], view.seat, names, CLOCKWISE, _doing(p["phase"]))

    def table(self, view: View, names: Sequence[str]) -> str:
        p: Any = view.public
        lines = [
            _("--- Hand {n} of {hands} - your turn ").format(n=p["hand_no"], hands=p["hands"])
            + "-" * 24
        ]
        lines.append(_("Chips: ") + "   ".join(f"{names[s]} {c}" for s, c in enumerate(p["chips"])))
        opening = _("{pair} or better opens").format(pair=_pair(p["minimum"]))
        lines.append(
            _("Pot {pot}; {opening}; the deck runs {low} to ace.").format(
                pot=p["pot"], opening=opening, low=p["lowest_rank"]
            )
        )
        status = []
        for s in range(len(names)):
            if not p["in_match"][s]:
                state = _("out of chips")
            elif p["folded"][s]:
                state = _("passed")
            else:
                if p["round_bets"][s]:
                    state = _("in for {chips}").format(chips=p["round_bets"][s])
                else:
                    state = _("in")
                if p["all_in"][s]:
                    state += ", " + _("all-in")
                if p["changed"][s] is not None:
                    if p["changed"][s]:
                        state += ", " + _("changed {n}").format(n=p["changed"][s])
                    else:
                        state += ", servito"
            if p["opener"] == s:
                state += ", " + (_("opened blind") if p["blind"] else _("opened"))
            status.append(f"{names[s]} {state}")
        lines.append("; ".join(status))
        if p["to_call"]:
            lines.append(_("To see the bet you put in {chips}.").format(chips=p["to_call"]))
        if view.hand and p["phase"] == "change" and p["turn"] == view.seat:
            held = "  ".join(f"[{n}] {pretty(c)}" for n, c in enumerate(view.hand, 1))
            lines.append(
                _("Your hand: {cards}").format(cards=held)
                + f"  ({hand_words(view.private.get('hand_name', ''))})"
            )
            lines.append(_("To change cards type 'change' and their numbers, e.g. 'change 1 4'."))
        elif view.hand:
            held = "  ".join(pretty(c) for c in view.hand)
            lines.append(
                _("Your hand: {cards}").format(cards=held)
                + f"  ({hand_words(view.private.get('hand_name', ''))})"
            )
        elif p["phase"] == "blind":
            lines.append(_("Your cards are dealt face down: open blind before you see them?"))
        return "\n".join(lines)

    def news(self, before: View | None, after: View, names: Sequence[str]) -> list[str]:
        p: Any = after.public
        old: Any = before.public if before is not None else None
        lines: list[str] = []
        new_deal = old is None or old["deal_no"] != p["deal_no"]
        if (
            new_deal
            and p["last_hand"] is not None
            and (old is None or old["last_hand"] != p["last_hand"])
        ):
            mine = before.hand if before is not None else ()
            lines.extend(self._hand_over(p["last_hand"], names, after.seat, mine))
        if new_deal:
            dealer = _does(
                names, p["dealer"], after.seat, pgettext("you", "deal"), pgettext("verb", "deals")
            )
            lines.append(
                _("Hand {n}: {who_deals} and everyone antes; {pair} opens.").format(
                    n=p["hand_no"], who_deals=dealer, pair=_pair(p["minimum"])
                )
            )
        elif old is not None:
            for s in range(len(names)):
                if s == after.seat:
                    continue
                if p["folded"][s] and not old["folded"][s]:
                    lines.append(_("{who} passes.").format(who=names[s]))
                elif p["round_bets"][s] > old["round_bets"][s]:
                    lines.append(
                        _("{who} puts in {chips}.").format(
                            who=names[s], chips=p["round_bets"][s] - old["round_bets"][s]
                        )
                    )
                if p["changed"][s] is not None and old["changed"][s] is None:
                    n = p["changed"][s]
                    lines.append(
                        _("{who} changes {cards}.").format(
                            who=names[s], cards=count(n, "card", "cards")
                        )
                        if n
                        else _("{who} keeps all five (servito).").format(who=names[s])
                    )
        ended = p["phase"] == "over" and p["last_hand"] is not None
        if ended and (old is None or old["last_hand"] != p["last_hand"]):
            mine = before.hand if before is not None else ()
            lines.extend(self._hand_over(p["last_hand"], names, after.seat, mine))
        return lines

    def _hand_over(
        self, summary: Any, names: Sequence[str], me: int | None, mine: Sequence[str] = ()
    ) -> list[str]:
        """The pot's end; at a showdown every shown hand in words and cards (POKER-10:
        the view's record of them; an older record without cards shows the seat's own)."""
        if summary.get("no_opening"):
            return [_("Nobody opened: the pot stays and the cards are dealt again.")]
        if "uncontested" in summary:
            who = _does(
                names,
                summary["uncontested"],
                me,
                pgettext("you", "take"),
                pgettext("verb", "takes"),
            )
            return [
                _("Hand {n}: {who_takes} the pot of {pot} unseen.").format(
                    n=summary["hand"], who_takes=who, pot=summary["pot"]
                )
            ]
        lines = [_("Hand {n}, showdown:").format(n=summary["hand"])]
        cards_of = summary.get("cards") or {}
        for s, words in summary["shown"].items():
            held = cards_of.get(s) or (mine if int(s) == me else ())
            cards = f" ({' '.join(pretty(c) for c in held)})" if held else ""
            lines.append(f"  {names[int(s)]}: {hand_words(words)}{cards}")
        for n, pot in enumerate(summary["pots"]):
            wins = _does(names, pot["winner"], me, pgettext("you", "win"), pgettext("verb", "wins"))
            if n == 0:
                line = _("{who_wins} the pot of {chips}.")
            else:
                line = _("{who_wins} side pot {n} of {chips}.")
            lines.append("  " + line.format(who_wins=wins, n=n, chips=pot["chips"]))
        return lines

    def choice(self, action: Action, view: View) -> str:
        kind, amount = action.kind, action.amount
        if kind is ActionKind.DISCARD:
            if not action.cards:
                return _("keep all five (servito)")
            return _("change {n}: {cards}").format(
                n=len(action.cards), cards=" ".join(pretty(c) for c in action.cards)
            )
        p: Any = view.public
        if kind is ActionKind.CHECK:
            if p["phase"] == "blind":
                return _("no, see my cards")
            return _("check (busso / parola)")
        if kind is ActionKind.BET:
            if p["phase"] == "blind":
                return _("open blind with {chips}").format(chips=amount)
            return _("bet {chips} (punto)").format(chips=amount)
        if kind is ActionKind.CALL_BET:
            return _("see the bet: {chips} (vedo)").format(chips=p["to_call"])
        if kind is ActionKind.RAISE:
            return _("raise by {chips} (rilancio)").format(chips=amount)
        if kind is ActionKind.FOLD:
            return _("pass (passo)")
        return str(action)

    def menu(self, view: View, legal: Sequence[Action]) -> list[tuple[str, Action]]:
        """Every choice but the changes of one card or more, typed as the cards to change
        (``change 1 4``) rather than picked from 31 combinations, and but most amounts: a
        bet or raise offers the least, half the pot, the pot and the most (all-in when it
        is), then "another amount", which asks for the number."""
        listed: list[tuple[str, Action]] = []
        sized: set[ActionKind] = set()
        for a in legal:
            if a.kind is ActionKind.DISCARD and a.cards:
                continue
            if a.kind in _SIZED and view.public["phase"] != "blind":
                if a.kind not in sized:
                    sized.add(a.kind)
                    listed.extend(self._sizes(view, legal, a.kind))
                continue
            listed.append((self.choice(a, view), a))
        return listed

    def _sizes(
        self, view: View, legal: Sequence[Action], kind: ActionKind
    ) -> list[tuple[str, Action]]:
        amounts = another_amount.legal_amounts(legal, kind)
        low, high = amounts[0], amounts[-1]
        p: Any = view.public
        call = p["to_call"] if kind is ActionKind.RAISE else 0
        pot = p["pot"] + call  # pot limit: what a call would make the pot
        chips = p["chips"][view.seat] if view.seat is not None else 0
        picked = sorted({low, max(low, min(high, pot // 2)), max(low, min(high, pot)), high})
        sizes = []
        for amount in picked:
            action = Action(kind, amount=amount)
            tag = {pot // 2: _(", half the pot"), pot: _(", the pot")}.get(amount, "")
            if amount + call == chips:
                tag = _(", all-in")
            sizes.append((self.choice(action, view) + tag, action))
        if len(picked) < len(amounts):
            if kind is ActionKind.RAISE:
                another = _("raise by another amount ({low} to {high})")
            else:
                another = _("bet another amount ({low} to {high})")
            sizes.append((another.format(low=low, high=high), Action(kind)))
        return sizes

    def typing_hint(self, view: View) -> str | None:
        if view.public["phase"] != "change" or view.public["turn"] != view.seat:
            return None
        return _("'change 1 4' (the numbers of the cards to change)")

    def typed(self, view: View, legal: Sequence[Action], text: str) -> Action | None:
        """``change 1 4``: the change of those cards of the hand, if it is a legal one."""
        words = text.lower().replace(",", " ").split()
        changing = len(words) >= 2 and words[0] in ("change", _("change"))
        if not changing or not all(w.isdigit() for w in words[1:]):
            return None
        picked = {int(w) for w in words[1:]}
        if not all(1 <= n <= len(view.hand) for n in picked):
            return None
        cards = {view.hand[n - 1] for n in picked}
        return next(
            (a for a in legal if a.kind is ActionKind.DISCARD and set(a.cards) == cards), None
        )

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


RENDERER = PokerRenderer()
