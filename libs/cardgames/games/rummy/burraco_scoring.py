"""Burraco scoring (RULES 12.5, 12.9): card points, burraco bonuses and a side's hand.

Kept apart from the turn rules so that the fixtures (RULES 21-23) read against it alone.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from dataclasses import dataclass

from tavolo.cardgames.games.rummy.deck import ACE_HIGH, JOKER, RANK
from tavolo.cardgames.games.rummy.melds import RUN, Meld

BURRACO_SIZE = 7
PULITO, SEMIPULITO, SPORCO = "pulito", "semipulito", "sporco"
BONUS = {PULITO: 200, SEMIPULITO: 150, SPORCO: 100}
CLOSING_BONUS = 100
NO_POZZETTO = 100


def card_points(code: str) -> int:
    """Joker 30, 2 20, A 15, K-8 10, 7-3 5 (RULES 12.9)."""
    if code == JOKER:
        return 30
    rank = RANK[code]
    if rank == 2:
        return 20
    if rank == ACE_HIGH:
        return 15
    return 10 if rank >= 8 else 5


def points(cards: Iterable[str]) -> int:
    return sum(card_points(c) for c in cards)


def burraco_kind(meld: Meld, semipulito: bool) -> str | None:
    """``None`` below 7 cards; else pulito, semipulito (when on) or sporco (RULES 12.5)."""
    if len(meld.cards) < BURRACO_SIZE:
        return None
    if meld.wild < 0:
        return PULITO
    if semipulito and _naturals_make_pulito(meld):
        return SEMIPULITO
    return SPORCO


def _naturals_make_pulito(meld: Meld) -> bool:
    """A run with its wild at an end and 7+ unbroken naturals; a set with 7+ naturals."""
    naturals = len(meld.cards) - 1
    if meld.kind == RUN:
        return meld.wild in (0, len(meld.cards) - 1) and naturals >= BURRACO_SIZE
    return naturals >= BURRACO_SIZE


@dataclass(frozen=True)
class SideScore:
    """One side's hand, line by line (what the end-of-hand screen shows)."""

    melded: int
    burraco_bonus: int
    burraci: tuple[str, ...]
    closing: int
    in_hand: int
    no_pozzetto: int

    @property
    def total(self) -> int:
        return self.melded + self.burraco_bonus + self.closing - self.in_hand - self.no_pozzetto

    def to_json(self) -> dict[str, object]:
        return {
            "melded": self.melded,
            "burraco_bonus": self.burraco_bonus,
            "burraci": list(self.burraci),
            "closing": self.closing,
            "in_hand": self.in_hand,
            "no_pozzetto": self.no_pozzetto,
            "total": self.total,
        }


def score_side(
    melds: Sequence[Meld],
    hands: Sequence[Sequence[str]],
    *,
    closed: bool,
    took_pozzetto: bool,
    semipulito: bool,
) -> SideScore:
    """A side's score for the hand: its melds, its burraci, closing, its members' hands
    and the pozzetto it never took (RULES 12.9)."""
    kinds = [k for k in (burraco_kind(m, semipulito) for m in melds) if k is not None]
    return SideScore(
        melded=sum(points(m.cards) for m in melds),
        burraco_bonus=sum(BONUS[k] for k in kinds),
        burraci=tuple(kinds),
        closing=CLOSING_BONUS if closed else 0,
        in_hand=sum(points(h) for h in hands),
        no_pozzetto=0 if took_pozzetto else NO_POZZETTO,
    )


def has_burraco(melds: Iterable[Meld]) -> bool:
    return any(len(m.cards) >= BURRACO_SIZE for m in melds)
