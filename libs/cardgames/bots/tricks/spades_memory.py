"""The hard Spades bot's memory of a round, fed only by the views its seat receives.

A seat is asked to act once per trick, and its view then shows the trick in progress
and the last finished one, so across its turns it sees every card of the round. From
those cards it deduces which cards are still out, and which seats are void in a suit:

- a seat that did not follow the suit led has none left;
- a seat that led a spade before spades were broken (or on the first trick) held only
  spades, because the rules allow nothing else.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from tavolo.cardgames.games.french_deck import SUITS, suit_of
from tavolo.cardgames.games.tricks.spades_state import SEATS
from tavolo.cardgames.games.tricks.spades_tricks import SPADES

NON_SPADES = tuple(s for s in SUITS if s != SPADES)


class CardMemory:
    """Tricks of the current round as this seat has seen them, keyed by trick number."""

    def __init__(self) -> None:
        self.round: int | None = None
        self._tricks: dict[int, list[tuple[int, str]]] = {}

    def observe(self, public: Mapping[str, Any]) -> None:
        """Take in what a view shows: the last finished trick and the one in progress."""
        if public["round"] != self.round:
            self.round = public["round"]
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
        """Every card seen played this round, the trick in progress included."""
        return {card for plays in self._tricks.values() for _, card in plays}

    def voids(self) -> list[set[str]]:
        """Per seat, the suits it is known to hold no more of."""
        voids: list[set[str]] = [set() for _ in range(SEATS)]
        broken = False
        for number in sorted(self._tricks):
            plays = self._tricks[number]
            leader, lead = plays[0]
            led = suit_of(lead)
            if led == SPADES and (number == 1 or not broken):
                voids[leader].update(NON_SPADES)
            for seat, card in plays[1:]:
                if suit_of(card) != led:
                    voids[seat].add(led)
            broken = broken or any(suit_of(c) == SPADES for _, c in plays)
        return voids
