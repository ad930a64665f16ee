"""Whose turn it is, and who comes after, in words every renderer shares.

Seat numbers say nothing about direction to a player: "clockwise" at Tavolo's tables
passes the turn from seat s to s-1 (RULES §0.3), which reads as 2, 1, 0, 3. So a turn
line names the seats in the order they will play instead of trusting a direction word.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavolo.cli.i18n import N_, _

CLOCKWISE = -1
"""The seat step of clockwise play: s, s-1, s-2 ..."""
ANTICLOCKWISE = 1

DIRECTION_WORDS = {CLOCKWISE: N_("clockwise"), ANTICLOCKWISE: N_("anticlockwise")}


def seats_from(start: int, seats: int, step: int) -> list[int]:
    """Every seat once, in playing order from ``start``."""
    return [(start + step * i) % seats for i in range(seats)]


def turn_line(turn: int, me: int | None, names: Sequence[str], step: int, doing: str) -> str:
    """``Waiting for Bot 2 to play; then Bot 1, You, Bot 3 (clockwise).`` ``doing`` comes
    translated, as the verb reads after "to" (``pgettext("to", "play")``)."""
    order = seats_from(turn, len(names), step)
    if turn == me:
        head = _("Your turn to {doing}").format(doing=doing)
    else:
        head = _("Waiting for {name} to {doing}").format(name=names[turn], doing=doing)
    then = ", ".join(names[s] for s in order[1:])
    return _("{head}; then {then} ({direction}).").format(
        head=head, then=then, direction=_(DIRECTION_WORDS[step])
    )
