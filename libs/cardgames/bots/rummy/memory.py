"""What a rummy bot remembers and reasons about from its own views: the discard pile as
it grows, which cards an opponent picked up with it, and which discards would feed them.

A bot is asked only when its seat acts, so it compares the pile it left with the pile it
finds: when the pile it left is gone, the player after it took those cards.
"""

from __future__ import annotations

from collections.abc import Sequence

from tavolo.cardgames.contract import View
from tavolo.cardgames.games.rummy.deck import JOKER, RANK, SUIT
from tavolo.cardgames.games.rummy.melds import Meld, MeldRules, attach, read_meld


class PileMemory:
    """The cards seen taken by the other side, and the last pile this seat saw."""

    def __init__(self) -> None:
        self.taken_by_rivals: list[str] = []
        self.passed_by_rivals: list[str] = []  # what the player before us discarded
        self.last_pile: list[str] = []
        self.hand_no: object = None

    def update(self, view: View) -> None:
        public = view.public
        if public.get("hand") != self.hand_no:
            self.hand_no = public.get("hand")
            self.taken_by_rivals, self.passed_by_rivals, self.last_pile = [], [], []
        pile = list(public["discard"])
        if public.get("phase") == "draw" and pile and pile != self.last_pile:
            self.passed_by_rivals.append(pile[-1])
        seen = self.last_pile
        if seen and pile[: len(seen)] != seen:
            kept = 0  # Burraco's pile goes whole, Scala 40's pozzo loses its top card
            while kept < min(len(seen), len(pile)) and pile[kept] == seen[kept]:
                kept += 1
            self.taken_by_rivals.extend(seen[kept:])
        self.last_pile = pile


def usefulness(card: str, hand: Sequence[str]) -> int:
    """How many other cards of ``hand`` this card could meld with (same rank, or the
    same suit within two places)."""
    if card == JOKER or card not in RANK:
        return 0
    rank, suit = RANK[card], SUIT[card]
    count = 0
    skipped = False
    for other in hand:
        if other == card and not skipped:
            skipped = True
            continue
        if other == JOKER or other not in RANK:
            continue
        if RANK[other] == rank or (SUIT[other] == suit and abs(RANK[other] - rank) <= 2):
            count += 1
    return count


def rival_melds(view: View, rules: MeldRules) -> list[Meld]:
    """The melds of the sides this seat plays against, as its view shows them."""
    seat = view.seat
    public = view.public
    sides = public.get("sides")
    out: list[Meld] = []
    for side, melds in enumerate(public.get("melds", [])):
        if isinstance(sides, list) and seat in sides[side]:
            continue
        for shown in melds:
            meld = read_meld(tuple(shown["cards"]), rules)
            if isinstance(meld, Meld):
                out.append(meld)
    return out


def danger(card: str, view: View, memory: PileMemory, rules: MeldRules) -> float:
    """How much discarding ``card`` would help the next players: 2 when it joins one of
    their melds, 1 when it pairs with a card they picked up (same rank, or next to it in
    its suit), since that is what they are collecting."""
    score = 0.0
    for meld in rival_melds(view, rules):
        if not isinstance(attach(meld, card, None, rules), str):
            score += 2.0
            break
    if card in RANK:
        rank, suit = RANK[card], SUIT[card]
        for other in memory.taken_by_rivals:
            if other in RANK and (
                RANK[other] == rank or (SUIT[other] == suit and abs(RANK[other] - rank) == 1)
            ):
                score += 1.0
                break
        for other in memory.passed_by_rivals:
            if other in RANK and RANK[other] == rank:
                score -= 0.5  # they let that rank go: it is the safer discard
                break
    return score
