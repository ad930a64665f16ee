"""The trick games' shared news line: who played what to a trick, and who took it.

Briscola, Tresette, Bestia and Spades say a finished trick the same way; the deck's own
``pretty`` draws the cards (Italian or French).
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

from tavolo.cli.i18n import _, pgettext


def seat_does(names: Sequence[str], seat: int, me: int | None, you: str, others: str) -> str:
    """``"You take"`` for the viewer's own seat, ``"Bot 1 takes"`` for another."""
    return f"{names[seat]} {you if seat == me else others}"


def plays_line(
    plays: Sequence[Mapping[str, Any]], names: Sequence[str], pretty: Callable[[str], str]
) -> str:
    """``"You 3♠, Bot 1 A♠"``: each seat's card in the order played."""
    return ", ".join(f"{names[p['seat']]} {pretty(p['card'])}" for p in plays)


def trick_taken(
    last: Mapping[str, Any],
    names: Sequence[str],
    me: int | None,
    pretty: Callable[[str], str],
) -> str:
    """``"Trick 3: You 3♠, Bot 1 A♠ - Bot 1 takes it."``"""
    won = seat_does(names, last["winner"], me, pgettext("you", "take"), pgettext("verb", "takes"))
    return _("Trick {n}: {plays} - {who_takes} it.").format(
        n=last["number"], plays=plays_line(last["plays"], names, pretty), who_takes=won
    )
