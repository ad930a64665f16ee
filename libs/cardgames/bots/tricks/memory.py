"""A trick-game bot's memory of a hand, fed only by the views its seat receives.

Every trick game's view shows the trick in progress and the last finished one, under
``hand_no``, ``trick_number``, ``trick`` and ``last_trick``. A seat acts at least once per
trick, so across its turns it sees every card played in the hand; this keeps them.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any


class TrickMemory:
    """Tricks of the current hand as this seat has seen them, keyed by trick number."""

    def __init__(self) -> None:
        self.hand: Any = None
        self._tricks: dict[int, list[tuple[int, str]]] = {}

    def observe(self, public: Mapping[str, Any]) -> None:
        """Take in what a view shows: the last finished trick and the one in progress."""
        if public["hand_no"] != self.hand:
            self.hand = public["hand_no"]
            self._tricks = {}
        last = public.get("last_trick")
        if last:
            self._record(int(last["number"]), last["plays"])
        if public["trick"]:
            self._record(int(public["trick_number"]), public["trick"])

    def _record(self, number: int, plays: list[Mapping[str, Any]]) -> None:
        known = self._tricks.setdefault(number, [])
        for play in plays[len(known) :]:
            known.append((int(play["seat"]), str(play["card"])))

    def played(self) -> set[str]:
        """Every card seen played this hand, the trick in progress included."""
        return {card for plays in self._tricks.values() for _, card in plays}

    def tricks(self) -> list[list[tuple[int, str]]]:
        """The tricks seen, in order (the one in progress last, if any)."""
        return [self._tricks[n] for n in sorted(self._tricks)]
