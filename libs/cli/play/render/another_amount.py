"""The "another amount" choice of the betting games' menus: a short menu lists a few
amounts and this one asks for the number, so a menu never grows with the chips (Poker
offered up to 217 lines, Sette e mezzo 40)."""

from __future__ import annotations

from collections.abc import Sequence

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.contract import View
from tavolo.cli.i18n import _


def legal_amounts(legal: Sequence[Action], kind: ActionKind) -> list[int]:
    """The legal amounts of ``kind``, least first."""
    return sorted(int(a.amount) for a in legal if a.kind is kind and a.amount is not None)


class AsksAmounts:
    """A renderer whose menu has "another amount" for the kinds in ``sized``: the
    question it asks and the action its answer makes (see
    :func:`tavolo.cli.play.renderers.amount_question`)."""

    sized: frozenset[ActionKind] = frozenset()

    def amount_question(self, view: View, action: Action) -> str | None:
        return question(action, self.sized)

    def amount_answer(
        self, view: View, legal: Sequence[Action], action: Action, text: str
    ) -> Action | None:
        return answer(legal, action, text)


def question(action: Action, sized: frozenset[ActionKind]) -> str | None:
    """The question "another amount" asks; ``None`` for every other choice."""
    if action.kind not in sized or action.amount is not None:
        return None
    return _("How many chips? (a number; Enter goes back): ")


def answer(legal: Sequence[Action], action: Action, text: str) -> Action | None:
    """The bet or raise of the typed number of chips, if it is a legal one."""
    chosen = Action(action.kind, amount=int(text)) if text.strip().isdigit() else None
    return chosen if chosen in legal else None
