"""How the Spades bots choose a card (SPADES-9, SPADES-10).

Every choice is one of the legal cards of a :class:`Situation`. The easy bot plays
simply: it wins a trick with its cheapest winning card whenever it can, even over its
partner, leads its highest card, and only ducks on its own nil. The medium and hard
bots play by the trick's position and the contract:

- *win*: the team still needs tricks. Second hand low, third hand high, the cheapest
  card that is sure to hold, no overtaking of a partner whose card holds, ruff when
  void, cash masters, draw trumps with master spades, lead suits the partner can ruff;
- *duck*: the contract is made, so avoid bags: play under the winning card, throw the
  dangerous high cards when void, lead the cards least likely to win;
- *nil*: the bot's own live nil, played like duck with no exception.

The hard bot adds what its memory allows: masters and voids are known from every card
played, the partner's nil is *covered* (play high before it, overtake it, lead what
it can discard on), an opponent's nil is *busted* (play low before it, stay under it,
lead low into it), and the opponents are *set* when taking a few bags is worth it.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass

from tavolo.cardgames.bots.tricks.spades_situation import Situation
from tavolo.cardgames.games.french_deck import rank_of, suit_of
from tavolo.cardgames.games.tricks.spades_tricks import SPADES, beats

BAG_LIMIT = 10


@dataclass(frozen=True, slots=True)
class Skill:
    """Which of the advanced plays a level makes."""

    cover_nil: bool
    bust_nil: bool
    set_opponents: bool


MEDIUM = Skill(cover_nil=False, bust_nil=False, set_opponents=False)
HARD = Skill(cover_nil=True, bust_nil=True, set_opponents=True)


def _low(cards: Sequence[str]) -> str:
    """The cheapest card: lowest rank, a spade last among equals (trumps are precious)."""
    return min(cards, key=lambda c: (rank_of(c), suit_of(c) == SPADES))


def _high(cards: Sequence[str]) -> str:
    return max(cards, key=lambda c: (rank_of(c), suit_of(c) != SPADES))


# -- easy --------------------------------------------------------------------------------


def easy_card(sit: Situation) -> str:
    if sit.nil_alive(sit.seat):
        return _duck(sit)
    best = sit.winning()
    if best is None:
        return _high(sit.legal)
    led = sit.led or ""
    beating = [c for c in sit.legal if beats(c, best[1], led)]
    return _low(beating) if beating else _low(sit.legal)


# -- medium and hard ---------------------------------------------------------------------


def choose_card(sit: Situation, skill: Skill) -> str:
    if sit.nil_alive(sit.seat):
        return _duck(sit)
    if skill.cover_nil and sit.nil_alive(sit.partner):
        return _cover(sit)
    if skill.bust_nil:
        target = _nil_to_bust(sit)
        if target is not None:
            return _bust(sit, target, skill)
    return _by_contract(sit, skill)


def _by_contract(sit: Situation, skill: Skill) -> str:
    if sit.team_need() > 0 or (skill.set_opponents and _worth_setting(sit)):
        return _win(sit)
    return _duck(sit)


def _worth_setting(sit: Situation) -> bool:
    """Take more tricks when the opponents can spare few, and the bags cost less than
    what a set takes from them."""
    need = sit.opponents_need()
    spare = sit.tricks_left - need
    if need <= 0 or spare < 0 or spare > 2:
        return False
    extra_bags = spare + 1
    cost = extra_bags + (100 if sit.bags[0] + extra_bags >= BAG_LIMIT else 0)
    contract = sum(sit.bids[s] for s in sit.opponents)
    return 20 * contract > cost


def _nil_to_bust(sit: Situation) -> int | None:
    for seat in sit.opponents:
        # Worth it unless busting would leave our own contract out of reach.
        if sit.nil_alive(seat) and sit.team_need() <= sit.tricks_left - 2:
            return seat
    return None


def _win(sit: Situation) -> str:
    return _follow_to_win(sit) if sit.trick else _lead_to_win(sit)


def _follow_to_win(sit: Situation) -> str:
    led = sit.led or ""
    best = sit.winning()
    assert best is not None
    wseat, wcard = best
    later = sit.later_seats()
    follow = [c for c in sit.legal if suit_of(c) == led]
    if wseat == sit.partner and sit.holds_against(wcard, led, later):
        return _low(follow) if follow else _discard_low(sit)
    pool = follow or [c for c in sit.legal if suit_of(c) == SPADES]
    beating = [c for c in pool if beats(c, wcard, led)]
    if not beating:
        return _low(follow) if follow else _discard_low(sit)
    if not later:
        return _low(beating)
    secure = [c for c in beating if sit.holds_against(c, led, later)]
    if secure:
        return _low(secure)
    if follow and len(sit.trick) == 1:
        return _low(follow)  # second hand low: the partner plays last
    return _high(beating) if follow else _low(beating)


def _discard_low(sit: Situation, pool: Sequence[str] | None = None) -> str:
    """The least useful card of ``pool`` (default: the legal cards) when void: a low
    card of a short side suit."""
    cards = sit.legal if pool is None else pool
    sides = [c for c in cards if suit_of(c) != SPADES] or cards
    length = sit.suit_lengths()
    return min(sides, key=lambda c: (rank_of(c), length[suit_of(c)]))


def _lead_to_win(sit: Situation) -> str:
    opponents = sit.opponents

    def ruffable(suit: str) -> bool:
        return suit != SPADES and any(sit.can_ruff(o, suit) for o in opponents)

    masters = [
        c
        for c in sit.legal
        if suit_of(c) != SPADES and sit.unseen_higher(c) == 0 and not ruffable(suit_of(c))
    ]
    if masters:
        return max(masters, key=lambda c: (sit.unseen_in(suit_of(c)), rank_of(c)))
    top_spades = [c for c in sit.legal if suit_of(c) == SPADES and sit.unseen_higher(c) == 0]
    if top_spades and any(sit.may_hold(o, SPADES) for o in opponents):
        return _high(top_spades)
    for card in sorted(sit.legal, key=rank_of):
        suit = suit_of(card)
        if suit != SPADES and sit.can_ruff(sit.partner, suit) and not ruffable(suit):
            return card
    safe = [c for c in sit.legal if not ruffable(suit_of(c))] or sit.legal
    sides = [c for c in safe if suit_of(c) != SPADES] or safe
    length = sit.suit_lengths()
    return min(sides, key=lambda c: (-length[suit_of(c)], rank_of(c)))


def _duck(sit: Situation) -> str:
    """Try not to win this trick, shedding the cards that would win tricks later."""
    if not sit.trick:
        return max(sit.legal, key=lambda c: (sit.unseen_higher(c), -rank_of(c)))
    led = sit.led or ""
    best = sit.winning()
    assert best is not None
    later = sit.later_seats()
    follow = [c for c in sit.legal if suit_of(c) == led]
    pool = follow or [c for c in sit.legal if suit_of(c) != SPADES]
    if not pool:  # only spades
        pool = sit.legal
    under = [c for c in pool if not beats(c, best[1], led)]
    if under:
        if follow or suit_of(under[0]) == SPADES:
            return _high(under)
        # A discard: shed the card most likely to win a later trick.
        return min(under, key=lambda c: (sit.unseen_higher(c), -rank_of(c)))
    return _high(pool) if not later else _low(pool)


def _cover(sit: Situation) -> str:
    """Play so that the partner's live nil takes no trick."""
    partner = sit.partner
    if not sit.trick:
        length = sit.suit_lengths()
        return max(
            sit.legal,
            key=lambda c: (
                suit_of(c) in sit.voids[partner],
                sit.unseen_higher(c) == 0,
                rank_of(c) - 2 * sit.unseen_higher(c) + length[suit_of(c)],
            ),
        )
    led = sit.led or ""
    best = sit.winning()
    assert best is not None
    wseat, wcard = best
    played = {s for s, _ in sit.trick}
    follow = [c for c in sit.legal if suit_of(c) == led]
    if partner in played:
        if wseat != partner:
            return _by_contract(sit, HARD)
        beating = [c for c in sit.legal if beats(c, wcard, led)]
        return _low(beating) if beating else _low(sit.legal)
    # The partner plays after: make the trick as high as possible.
    if follow:
        return _high(follow)
    spades = [c for c in sit.legal if suit_of(c) == SPADES and beats(c, wcard, led)]
    return _high(spades) if spades else _discard_low(sit)


def _bust(sit: Situation, target: int, skill: Skill) -> str:
    """Play so that the opponent's live nil must take a trick."""
    if not sit.trick:
        leads = [c for c in sit.legal if suit_of(c) not in sit.voids[target]] or sit.legal
        return _low(leads)
    led = sit.led or ""
    best = sit.winning()
    assert best is not None
    wseat, wcard = best
    follow = [c for c in sit.legal if suit_of(c) == led]
    if target in sit.later_seats():
        return _low(follow) if follow else _discard_low(sit)
    if wseat == target:
        under = [c for c in sit.legal if not beats(c, wcard, led)]
        if under:
            return _high(under) if follow else _discard_low(sit, under)
    return _by_contract(sit, skill)
