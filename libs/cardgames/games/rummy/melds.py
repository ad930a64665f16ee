"""The meld core of the rummy games (RULES §12.3-4, §13.3): runs and sets with wild cards.

A meld travels as its cards in table order, and the order carries the meaning:

- a *run* (sequence) is laid low to high, each card in the place it fills, so the
  place of a wild says what it stands for: ``5H JK 7H`` is 5♥ 6♥ 7♥ with the joker as
  6♥. An ace goes first (A-2-3) or last (Q-K-A), never in the middle.
- a *set* (combination) lists its naturals in suit order (♠♥♦♣), any wild last, so that
  one set has one spelling.

:func:`read_meld` turns cards into a :class:`Meld` or into the reason they are none
("a run needs 3 cards of one suit in sequence; 7♥ 9♥ skips 8♥"); :func:`attach` adds a
single card to a meld. The differences between the games are a :class:`MeldRules`.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from tavolo.cardgames.games.french_deck import SUIT_SYMBOLS, SUITS
from tavolo.cardgames.games.rummy.deck import (
    ACE_HIGH,
    ACE_LOW,
    JOKER,
    RANK,
    SUIT,
    code_at,
    fits,
    is_card,
    pretty,
    pretty_all,
)

RUN, SET = "run", "set"
LOW, HIGH = "low", "high"
MIN_MELD = 3


@dataclass(frozen=True)
class MeldRules:
    """What a game allows in a meld."""

    pinelle: bool  # the 2s are wild too (Burraco)
    max_set: int  # cards in a set, wild included
    max_set_naturals: int
    distinct_suits: bool  # a set has one card per suit (Scala 40)
    wild_returns: bool  # a replaced wild goes to the hand (Scala 40), else to an end


BURRACO_MELDS = MeldRules(
    pinelle=True, max_set=9, max_set_naturals=8, distinct_suits=False, wild_returns=False
)
SCALA40_MELDS = MeldRules(
    pinelle=False, max_set=4, max_set_naturals=4, distinct_suits=True, wild_returns=True
)


class Meld(NamedTuple):
    """A valid meld. ``low`` is the position of ``cards[0]`` in a run (1 = ace low,
    14 = ace high) and the rank in a set; ``wild`` the index of its wild card, or -1.

    A named tuple: states hold many melds and are copied and pickled on every action."""

    kind: str
    cards: tuple[str, ...]
    suit: str
    low: int
    wild: int

    @property
    def high(self) -> int:
        return self.low + len(self.cards) - 1 if self.kind == RUN else self.low

    def stands_for(self) -> str | None:
        """The natural card a run's wild stands for (a set's wild stands for its rank)."""
        if self.wild < 0 or self.kind != RUN:
            return None
        return code_at(self.low + self.wild, self.suit)

    def naturals(self) -> tuple[str, ...]:
        return tuple(c for i, c in enumerate(self.cards) if i != self.wild)

    def to_json(self) -> dict[str, object]:
        return {
            "kind": self.kind,
            "cards": list(self.cards),
            "wild_for": _named(self.stands_for()),
            "shown": describe(self),
        }


_PINELLE = frozenset((JOKER, "2S", "2H", "2D", "2C"))


def is_wild(code: str, rules: MeldRules) -> bool:
    """Whether ``code`` can act as a wild: a joker, or a 2 where the 2s are pinelle."""
    return code == JOKER or (rules.pinelle and code in _PINELLE)


_SHOWN: dict[Meld, str] = {}


def describe(meld: Meld) -> str:
    """``"5♥ 6♥ joker(7♥) 8♥"``: a meld for people, with what its wild stands for."""
    shown = _SHOWN.get(meld)
    if shown is None:
        if len(_SHOWN) > 50_000:  # views ask for the same melds again and again
            _SHOWN.clear()
        shown = _SHOWN[meld] = _describe(meld)
    return shown


def _describe(meld: Meld) -> str:
    parts = []
    for i, c in enumerate(meld.cards):
        text = pretty(c)
        if i == meld.wild and meld.kind == RUN:
            text += f"({pretty(code_at(meld.low + i, meld.suit))})"
        parts.append(text)
    return " ".join(parts)


# -- reading a meld -------------------------------------------------------------------


def read_meld(cards: Sequence[str], rules: MeldRules) -> Meld | str:
    """The meld ``cards`` make, or the reason they make none."""
    cards = tuple(cards)
    strange = [c for c in cards if not is_card(c)]
    if strange:
        return f"{strange[0]!r} is not a card"
    if len(cards) < MIN_MELD:
        shown = pretty_all(cards) or "no cards"
        return f"a meld needs at least 3 cards, not {len(cards)} ({shown})"
    plain = [c for c in cards if not is_wild(c, rules)]
    if all(c == JOKER for c in cards):
        return "a meld may not be wild cards only"
    if len(plain) >= 2 and len({RANK[c] for c in plain}) == 1:
        return read_set(cards, rules)
    return read_run(cards, rules)


def read_set(cards: tuple[str, ...], rules: MeldRules) -> Meld | str:
    """A combination: 3 or more cards of one rank (RULES 12.3, 13.3)."""
    wilds = [c for c in cards if is_wild(c, rules)]
    naturals = [c for c in cards if not is_wild(c, rules)]
    if not naturals:
        return "a meld may not be wild cards only"
    rank = RANK[naturals[0]]
    odd = [c for c in naturals if RANK[c] != rank]
    if odd:
        return f"a combination is of one rank: {pretty(odd[0])} is not a {naturals[0][:-1]}"
    if len(wilds) > 1:
        return f"a meld holds at most one wild card: {pretty_all(wilds)} are all wild"
    if len(cards) > rules.max_set:
        return f"a combination has at most {rules.max_set} cards, not {len(cards)}"
    if len(naturals) > rules.max_set_naturals:
        return f"a combination has at most {rules.max_set_naturals} natural cards"
    if rules.distinct_suits and len({SUIT[c] for c in naturals}) < len(naturals):
        twice = next(c for c in naturals if naturals.count(c) > 1 or _suit_twice(c, naturals))
        return f"a combination has one card of each suit: {SUIT_SYMBOLS[SUIT[twice]]} twice"
    order = (*sorted(naturals, key=lambda c: SUITS.index(SUIT[c])), *wilds)
    if order != cards:
        return f"lay a combination in suit order, any wild last: {pretty_all(order)}"
    return Meld(SET, cards, "", rank, len(naturals) if wilds else -1)


def _suit_twice(card: str, naturals: Sequence[str]) -> bool:
    return sum(1 for c in naturals if SUIT[c] == SUIT[card]) > 1


def read_run(cards: tuple[str, ...], rules: MeldRules) -> Meld | str:
    """A sequence of one suit, low to high, with at most one wild (RULES 12.3-4, 13.3)."""
    anchor = next((i for i, c in enumerate(cards) if not is_wild(c, rules)), None)
    if anchor is None:  # only pinelle and jokers: a 2 can still be natural in place
        anchor = next(i for i, c in enumerate(cards) if c != JOKER)
        starts = [2 - anchor]
    else:
        rank = RANK[cards[anchor]]
        starts = [ACE_LOW - anchor, ACE_HIGH - anchor] if rank == ACE_HIGH else [rank - anchor]
    suit = SUIT[cards[anchor]]
    reasons: list[str] = []
    for start in starts:
        meld = _run_from(cards, suit, start, rules)
        if isinstance(meld, Meld):
            return meld
        reasons.append(meld)
    inside = [r for s, r in zip(starts, reasons, strict=True) if _inside(s, len(cards))]
    return (inside or reasons)[0]


def _inside(start: int, length: int) -> bool:
    return start >= ACE_LOW and start + length - 1 <= ACE_HIGH


def _run_from(cards: tuple[str, ...], suit: str, start: int, rules: MeldRules) -> Meld | str:
    wilds: list[int] = []
    for j, c in enumerate(cards):
        position = start + j
        natural = c != JOKER and fits(c, position, suit) and ACE_LOW <= position <= ACE_HIGH
        if natural:
            continue
        if is_wild(c, rules):
            wilds.append(j)
            continue
        return _run_break(cards, j, suit, start)
    if start < ACE_LOW or start + len(cards) - 1 > ACE_HIGH:
        return "a run stops at the ace: nothing goes below A-2-3 or above Q-K-A"
    if len(wilds) > 1:
        shown = pretty_all(cards[j] for j in wilds)
        return f"a meld holds at most one wild card: {shown} are all wild"
    aces = [j for j, c in enumerate(cards) if j not in wilds and RANK.get(c) == ACE_HIGH]
    if len(aces) > 1:
        return "a run has one ace, low (A-2-3) or high (Q-K-A)"
    return Meld(RUN, cards, suit, start, wilds[0] if wilds else -1)


def _run_break(cards: tuple[str, ...], j: int, suit: str, start: int) -> str:
    """Why ``cards[j]`` cannot stand at its place in a run of ``suit`` from ``start``."""
    card = cards[j]
    if SUIT[card] != suit:
        return (
            f"a run is of one suit: {pretty(card)} is not {SUIT_SYMBOLS[suit]} "
            f"like {pretty(next(c for c in cards if SUIT.get(c) == suit))}"
        )
    position = start + j
    if position > ACE_HIGH:
        return "a run stops at the ace: nothing goes above Q-K-A"
    if j == 0:
        return f"{pretty(card)} cannot start this run"
    before = pretty(cards[j - 1])
    rank = ACE_LOW if RANK[card] == ACE_HIGH and position < 8 else RANK[card]
    if rank > position and ACE_LOW <= position <= ACE_HIGH:
        return (
            f"a run needs 3 cards of one suit in sequence; {before} {pretty(card)} "
            f"skips {pretty(code_at(position, suit))}"
        )
    if RANK[card] == ACE_HIGH:
        return "an ace ends a run, low (A-2-3) or high (Q-K-A), never in the middle"
    return f"a run is laid low to high: {pretty(card)} cannot follow {before}"


# -- adding to a meld -----------------------------------------------------------------


@dataclass(frozen=True)
class Attached:
    """The meld after an attachment, and the wild it gave back to the hand, if any."""

    meld: Meld
    freed: str | None = None


def attach(meld: Meld, card: str, end: str | None, rules: MeldRules) -> Attached | str:
    """Add one card to ``meld``. ``end`` ("low"/"high") places a wild on a run, and an
    ace beside 2…K, which could go at either end; another natural's place is its own. A
    natural that fills a wild's place moves the wild to the high end (the low end when the
    top is reached) or, in Scala 40, back to the hand."""
    if not is_card(card):
        return f"{card!r} is not a card"
    if meld.kind == SET:
        if end is not None:
            return "a combination has no ends: attach without low or high"
        return _attach_to_set(meld, card, rules)
    in_place = (
        fits(card, meld.low - 1, meld.suit)
        or fits(card, meld.high + 1, meld.suit)
        or (meld.wild >= 0 and fits(card, meld.low + meld.wild, meld.suit))
    )
    both_ends = _fits_both_ends(meld, card)
    if both_ends and not is_wild(card, rules):
        # An ace beside 2…K: the player names the end (RULES 12.3, 13.5).
        if end not in (LOW, HIGH):
            return f"say where {pretty(card)} goes on {describe(meld)}: low or high"
        return _run_result(meld, card, end, rules)
    if end is not None and not is_wild(card, rules):
        return f"{pretty(card)} has one place in this run: attach it without low or high"
    if is_wild(card, rules) and (end is not None or not in_place):
        if end not in (LOW, HIGH):
            return "say where the wild goes on the run: low or high"
        if meld.wild >= 0:
            return f"this run already holds a wild ({pretty(meld.cards[meld.wild])})"
        return _run_result(meld, card, end, rules)
    if SUIT.get(card) != meld.suit:
        return f"{pretty(card)} is not {SUIT_SYMBOLS[meld.suit]}: it cannot join {describe(meld)}"
    if meld.wild >= 0 and fits(card, meld.low + meld.wild, meld.suit):
        return _replace_wild(meld, card, rules)
    if fits(card, meld.low - 1, meld.suit) and meld.low > ACE_LOW:
        return _run_result(meld, card, LOW, rules)
    if fits(card, meld.high + 1, meld.suit) and meld.high < ACE_HIGH:
        return _run_result(meld, card, HIGH, rules)
    return f"{pretty(card)} does not continue {describe(meld)}"


def _fits_both_ends(meld: Meld, card: str) -> bool:
    """Whether a natural ``card`` could go at either end of the run ``meld``: an ace
    beside 2…K, the one card with two places."""
    return (
        meld.low > ACE_LOW
        and meld.high < ACE_HIGH
        and fits(card, meld.low - 1, meld.suit)
        and fits(card, meld.high + 1, meld.suit)
    )


def _run_result(meld: Meld, card: str, end: str, rules: MeldRules) -> Attached | str:
    cards = (card, *meld.cards) if end == LOW else (*meld.cards, card)
    found = read_run(cards, rules)
    if isinstance(found, str):
        return found
    return Attached(found)


def _replace_wild(meld: Meld, card: str, rules: MeldRules) -> Attached | str:
    wild = meld.cards[meld.wild]
    cards = list(meld.cards)
    cards[meld.wild] = card
    if rules.wild_returns:
        found = read_run(tuple(cards), rules)
        return found if isinstance(found, str) else Attached(found, freed=wild)
    for end in (HIGH, LOW):
        moved = (*cards, wild) if end == HIGH else (wild, *cards)
        found = read_run(moved, rules)
        if isinstance(found, Meld):
            return Attached(found)
    return f"the wild replaced by {pretty(card)} has no end of the run to go to"


def _attach_to_set(meld: Meld, card: str, rules: MeldRules) -> Attached | str:
    naturals = list(meld.naturals())
    wilds = [meld.cards[meld.wild]] if meld.wild >= 0 else []
    if is_wild(card, rules):
        if wilds:
            return f"this combination already holds a wild ({pretty(wilds[0])})"
        wilds.append(card)
    elif RANK.get(card) != meld.low:
        return f"{pretty(card)} is not of the rank of {describe(meld)}"
    else:
        naturals.append(card)
    freed = None
    full = len(naturals) + 1 > rules.max_set
    if rules.wild_returns and meld.wild >= 0 and not is_wild(card, rules) and full:
        freed = wilds.pop()  # the natural takes the joker's place; the joker comes back
    ordered = (*sorted(naturals, key=lambda c: SUITS.index(SUIT[c])), *wilds)
    found = read_set(ordered, rules)
    if isinstance(found, str):
        return found
    return Attached(found, freed)


def _named(code: str | None) -> str | None:
    """A card a wild stands for, for people (a code would read as a card on view)."""
    return None if code is None else pretty(code)
