"""How the Spades bots bid (SPADES-9, SPADES-10), as pure functions of a hand and the
public bids, so each level's formula can be checked by hand.

- *Easy* uses the seed's beginner rule exactly: 1 per non-spade ace and king, plus 1 per
  high spade (10 to ace). A hand that counts 0 bids 0, which is nil.
- *Medium* estimates tricks card by card, adding extra winners (long spades, ruffs in
  short suits, guarded kings and queens) and discounting losers (kings without guard,
  aces in long suits that will be ruffed), then shades the bid when the table's bids
  already add up to more than 13.
- *Hard* starts from the medium estimate and applies the seed's tips: never nil with the
  ace of spades or after the partner bid nil, bid lower when the partner bid nil, higher
  when an opponent bid nil, and bids nil itself on a hand with little risk.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavolo.cardgames.games.french_deck import SUITS, rank_of, suit_of
from tavolo.cardgames.games.tricks.spades_scoring import TRICKS_PER_ROUND as TRICKS
from tavolo.cardgames.games.tricks.spades_tricks import SPADES

ACE, KING, QUEEN, JACK = 14, 13, 12, 11
# Added before rounding down. The card-by-card estimate runs about 0.8 of a trick below
# what a hand takes in play (low cards of long suits win too); these were tuned by
# self-play (bench/bench_bot_league.py), trading the risk of a set against bags.
MEDIUM_ROUNDING = 0.8
HARD_ROUNDING = 0.95


def easy_bid(hand: Sequence[str]) -> int:
    """The seed's beginner count: non-spade aces and kings, and spades from 10 up."""
    count = 0
    for card in hand:
        rank = rank_of(card)
        if suit_of(card) == SPADES:
            count += rank >= 10
        else:
            count += rank >= KING
    return min(count, TRICKS)


def _by_suit(hand: Sequence[str]) -> dict[str, list[int]]:
    suits: dict[str, list[int]] = {s: [] for s in SUITS}
    for card in hand:
        suits[suit_of(card)].append(rank_of(card))
    for ranks in suits.values():
        ranks.sort(reverse=True)
    return suits


def _spade_tricks(spades: list[int]) -> tuple[float, int]:
    """Tricks from the trump suit, and how many small spades are left over for ruffing."""
    n = len(spades)
    tricks = 0.0
    used = 0
    for rank, need, value in ((ACE, 1, 1.0), (KING, 2, 0.9), (QUEEN, 3, 0.75), (JACK, 4, 0.5)):
        if rank in spades:
            tricks += value if n >= need else value * 0.35
            used += 1
    # Spades beyond the fourth are long winners once the others have run out of trumps.
    long_cards = max(0, n - 4)
    tricks += 0.85 * long_cards
    spare = max(0, n - used - long_cards)
    return tricks, spare


def _side_tricks(ranks: list[int]) -> float:
    n = len(ranks)
    tricks = 0.0
    has_ace, has_king = ACE in ranks, KING in ranks
    if has_ace:
        tricks += 1.0 if n <= 5 else 0.75 if n <= 7 else 0.4
    if has_king:
        if has_ace:
            tricks += 0.85 if n <= 4 else 0.55 if n == 5 else 0.25
        else:
            tricks += 0.1 if n == 1 else 0.6 if n <= 4 else 0.4 if n == 5 else 0.2
    if QUEEN in ranks and 3 <= n <= 4:
        tricks += 0.45 if has_ace and has_king else 0.25 if has_ace or has_king else 0.1
    return tricks


def estimate_tricks(hand: Sequence[str]) -> float:
    """Expected tricks of a hand on its own: winners plus ruffs, minus likely losers."""
    suits = _by_suit(hand)
    tricks, spare = _spade_tricks(suits[SPADES])
    sides = [suits[s] for s in SUITS if s != SPADES]
    for ranks in sides:
        tricks += _side_tricks(ranks)
    # Ruffs: a short side suit lets spare spades win tricks. Shortest suits first.
    for ranks in sorted(sides, key=len):
        if spare <= 0:
            break
        n = len(ranks)
        if n == 0:
            use = min(spare, 2)
            tricks += 0.8 * use
        elif n == 1 and ranks[0] < ACE:
            use = 1
            tricks += 0.6
        elif n == 2 and spare >= 2:
            use = 1
            tricks += 0.3
        else:
            continue
        spare -= use
    return tricks


def nil_risk(hand: Sequence[str]) -> float:
    """How likely this hand is to take a trick it cannot avoid (0 = a safe nil)."""
    suits = _by_suit(hand)
    risk = 0.0
    spades = suits[SPADES]
    if spades:
        top = spades[0]
        risk += max(0, top - 8) * 0.18 + max(0, len(spades) - 3) * 0.35
    for suit in SUITS:
        if suit == SPADES:
            continue
        ranks = suits[suit]
        low_cards = sum(1 for r in ranks if r <= 7)
        for rank in ranks:
            if rank < 10:
                continue
            # A high card is safe only with enough small cards to duck under the others.
            cover = low_cards
            risk += max(0.0, (rank - 9) * 0.16 - 0.12 * cover)
    return risk


@dataclass(frozen=True, slots=True)
class BidContext:
    """The public bids around a seat when it bids: ``None`` for seats yet to bid."""

    seat: int
    bids: tuple[int | None, ...]
    scores: tuple[int, int] = (0, 0)
    bags: tuple[int, int] = (0, 0)
    target: int = 500

    @property
    def partner(self) -> int:
        return (self.seat + 2) % 4

    def opponent_bids(self) -> list[int]:
        return [b for s, b in enumerate(self.bids) if s % 2 != self.seat % 2 and b is not None]

    def partner_bid(self) -> int | None:
        return self.bids[self.partner]


def _shade_for_table(estimate: float, ctx: BidContext) -> float:
    """Less when the bids already made leave fewer than 13 tricks for this hand."""
    made = sum(b for b in ctx.bids if b is not None)
    excess = made + estimate - TRICKS
    return estimate - 0.5 * excess if excess > 0 else estimate


def medium_bid(hand: Sequence[str], ctx: BidContext) -> int:
    estimate = _shade_for_table(estimate_tricks(hand), ctx)
    if estimate < 0.9 and nil_risk(hand) < 0.5 and ctx.partner_bid() != 0:
        return 0
    return max(1, min(TRICKS, int(estimate + MEDIUM_ROUNDING)))


def hard_bid(hand: Sequence[str], ctx: BidContext) -> int:
    estimate = _shade_for_table(estimate_tricks(hand), ctx)
    partner = ctx.partner_bid()
    opponents = ctx.opponent_bids()
    if partner == 0:
        # Protecting the nil will cost some of this hand's winners.
        estimate -= 0.8 if estimate >= 3 else 0.4
    if 0 in opponents:
        estimate += 0.7
    if _may_bid_nil(hand, ctx) and _nil_pays(hand, estimate, ctx):
        return 0
    return max(1, min(TRICKS, int(estimate + HARD_ROUNDING)))


def _may_bid_nil(hand: Sequence[str], ctx: BidContext) -> bool:
    """The seed's two hard limits on nil: never with the ace of spades, never after the
    partner bid nil."""
    return "AS" not in hand and ctx.partner_bid() != 0


def _nil_pays(hand: Sequence[str], estimate: float, ctx: BidContext) -> bool:
    """Nil is worth 100 and a covering partner makes it likely: bid it on any hand with
    few winners and little risk (thresholds tuned by self-play against medium)."""
    risk = nil_risk(hand)
    partner = ctx.partner_bid()
    # A partner who bid big can cover; one who bid low cannot.
    allowance = 1.2 + (0.2 if partner is not None and partner >= 4 else 0.0)
    return estimate < 2.5 and risk < allowance
