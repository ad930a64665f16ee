"""The rummy games' cards in the client's words: the rules name the joker ``joker`` (in
a meld's ``joker(7♥)`` too); an Italian table calls it ``jolly``. Everything else of a
card (``7♥``, ``10♠``) reads the same in every language."""

from __future__ import annotations

from collections.abc import Iterable

from tavolo.cardgames.games.rummy import deck, melds
from tavolo.cli.i18n import _


def shown(text: str) -> str:
    """Cards or a meld as the rules wrote them, with the joker in the client's word."""
    return text.replace("joker", _("joker"))


def pretty(code: str) -> str:
    return shown(deck.pretty(code))


def pretty_all(codes: Iterable[str]) -> str:
    return shown(deck.pretty_all(codes))


def describe(meld: melds.Meld) -> str:
    return shown(melds.describe(meld))
