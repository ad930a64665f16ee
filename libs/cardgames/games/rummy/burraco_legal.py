"""Which plays a Burraco seat may make (RULES 12.2-12.7), and why not when it may not.

Every check answers with ``None`` (allowed) or the reason it is refused, so that the
listing, the acceptance of unlisted melds and the refusal messages are one code path.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.games.rummy.burraco_scoring import card_points, has_burraco
from tavolo.cardgames.games.rummy.burraco_state import DRAW, BurracoState, side_of
from tavolo.cardgames.games.rummy.deck import is_card, pretty, sort_key
from tavolo.cardgames.games.rummy.meld_search import attachments, melds_in_hand
from tavolo.cardgames.games.rummy.melds import (
    BURRACO_MELDS,
    HIGH,
    LOW,
    SET,
    Attached,
    Meld,
    attach,
    is_wild,
    read_meld,
)

RULES = BURRACO_MELDS
DRAW_ACTION = Action(ActionKind.DRAW)
TAKE_ACTION = Action(ActionKind.TAKE_DISCARD)


def listed_actions(state: BurracoState, seat: int) -> list[Action]:
    """Draw or take; then every meld, every single-card attachment and every discard."""
    if state.phase == DRAW:
        return [DRAW_ACTION, TAKE_ACTION] if state.discard else [DRAW_ACTION]
    hand = state.hands[seat]
    side = side_of(state, seat)
    own = state.melds[side]
    set_ranks = {m.low for m in own if m.kind == SET}
    set_ranks.discard(0)
    actions: list[Action] = []
    left = len(hand)
    for cards, rank in melds_in_hand(hand, RULES):
        if rank in set_ranks:
            continue
        if left - len(cards) < 2:
            meld = read_meld(cards, RULES)
            assert isinstance(meld, Meld)
            if _leaves_a_discard(state, seat, cards, (*own, meld)) is not None:
                continue
        actions.append(Action(ActionKind.MELD, cards=cards))
    for index, card, end in attachments(own, hand, RULES):
        after = attach(own[index], card, end, RULES)
        assert isinstance(after, Attached)
        melds = (*own[:index], after.meld, *own[index + 1 :])
        if _leaves_a_discard(state, seat, (card,), melds) is None:
            actions.append(Action(ActionKind.ATTACH, cards=(card,), meld=index, target=end))
    actions.extend(
        Action(ActionKind.DISCARD, cards=(c,))
        for c in sorted(set(hand), key=sort_key)
        if discard_refusal(state, seat, c) is None
    )
    return actions


def refusal(state: BurracoState, seat: int, action: Action) -> str | None:
    """Why ``seat`` may not take ``action`` now, or ``None`` when it may."""
    kind = action.kind
    if state.phase == DRAW:
        if kind is ActionKind.DRAW and action == DRAW_ACTION:
            return None
        if kind is ActionKind.TAKE_DISCARD and action == TAKE_ACTION:
            return None if state.discard else "the discard pile is empty"
        return "first draw the top card of the stock or take the whole discard pile"
    if kind in (ActionKind.DRAW, ActionKind.TAKE_DISCARD):
        return "you have already drawn this turn: meld, attach or discard"
    if kind is ActionKind.MELD:
        if action != Action(kind, cards=action.cards):
            return "a meld names only its cards, in table order"
        return meld_refusal(state, seat, action.cards)
    if kind is ActionKind.ATTACH:
        if action != Action(kind, cards=action.cards, meld=action.meld, target=action.target):
            return "an attachment names one card, the meld's number and, for a wild, low or high"
        return attach_refusal(state, seat, action.cards, action.meld, action.target)
    if kind is ActionKind.DISCARD:
        if action != Action(kind, cards=action.cards) or len(action.cards) != 1:
            return "discard exactly one card"
        return discard_refusal(state, seat, action.cards[0])
    return "meld, attach a card to your side's melds, or discard to end your turn"


def _missing(hand: Sequence[str], cards: Sequence[str]) -> str | None:
    have = Counter(hand)
    have.subtract(cards)
    short = [c for c, n in have.items() if n < 0]
    return f"you do not hold {' '.join(pretty(c) for c in short)}" if short else None


def meld_refusal(state: BurracoState, seat: int, cards: Sequence[str]) -> str | None:
    meld = read_meld(cards, RULES)
    if isinstance(meld, str):
        return meld
    lacking = _missing(state.hands[seat], cards)
    if lacking:
        return lacking
    own = state.melds[side_of(state, seat)]
    if meld.kind == SET and any(m.kind == SET and m.low == meld.low for m in own):
        return f"your side already has a combination of {cards[0][:-1]}s: attach to it"
    return _leaves_a_discard(state, seat, cards, (*own, meld))


def attach_refusal(
    state: BurracoState, seat: int, cards: Sequence[str], index: int | None, end: str | None
) -> str | None:
    own = state.melds[side_of(state, seat)]
    if len(cards) != 1:
        return "attach one card at a time"
    if not is_card(cards[0]):
        return f"{cards[0]!r} is not a card"
    if index is None or not 0 <= index < len(own):
        return f"your side has no meld {index}" if own else "your side has no melds yet"
    if end not in (None, LOW, HIGH):
        return "a wild goes at the low or the high end of a run"
    lacking = _missing(state.hands[seat], cards)
    if lacking:
        return lacking
    after = attach(own[index], cards[0], end, RULES)
    if isinstance(after, str):
        return after
    return _leaves_a_discard(state, seat, cards, (*own[:index], after.meld, *own[index + 1 :]))


def _leaves_a_discard(
    state: BurracoState, seat: int, played: Sequence[str], melds: Sequence[Meld]
) -> str | None:
    """A turn ends with a discard: a play may empty the hand only to take the pozzetto
    (al volo), and may leave one card only if that card can then be discarded (12.6-7)."""
    left = len(state.hands[seat]) - len(played)
    side = side_of(state, seat)
    if left >= 2:
        return None
    if left == 0:
        if state.took_pozzetto[side]:
            return "you may not meld your last card: keep one to discard"
        return None
    rest = Counter(state.hands[seat])
    rest.subtract(played)
    last = next(c for c, n in rest.items() if n > 0)
    if last == state.banned:
        return f"this would leave only {pretty(last)}, the card you took, to discard"
    return _emptying_refusal(state, side, last, melds)


def _emptying_refusal(
    state: BurracoState, side: int, card: str, melds: Sequence[Meld]
) -> str | None:
    if not state.took_pozzetto[side]:
        return None  # into the pozzetto, con scarto
    if not has_burraco(melds):
        return "you may close only once your side has a burraco (7 or more cards)"
    if is_wild(card, RULES):
        return f"you may not close on a wild ({pretty(card)})"
    return None


def discard_refusal(state: BurracoState, seat: int, card: str) -> str | None:
    hand = state.hands[seat]
    if card not in hand:
        return f"you do not hold {pretty(card) if is_card(card) else repr(card)}"
    if card == state.banned and any(c != card for c in hand):
        return f"you may not discard {pretty(card)}, the single discard you just took"
    if len(hand) == 1:
        side = side_of(state, seat)
        return _emptying_refusal(state, side, card, state.melds[side])
    return None


def timeout_discard(state: BurracoState, seat: int) -> str:
    """The discard a timed-out turn makes: the cheapest card it may discard, a wild
    last, so a timeout neither wastes a wild nor hands the next player a rich card."""
    allowed = [c for c in state.hands[seat] if discard_refusal(state, seat, c) is None]
    return min(allowed, key=lambda c: (is_wild(c, RULES), card_points(c), sort_key(c)))
