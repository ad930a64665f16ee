"""Which plays a Scala 40 player may make (RULES 13.2-13.6), and why not when not.

An opening is laid meld by meld: the melds of a player who has not opened stay
*pending* until the discard, which opens only if they are worth 40 (or the whole hand is
laid: the chiusura in mano). Until then ``PASS`` takes them back, and a pozzo card taken
to open with goes back on the pozzo while the player draws from the stock instead
**[decision]**: so nobody is ever left holding cards they may neither lay nor discard.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.games.rummy.deck import JOKER, is_card, pretty, sort_key
from tavolo.cardgames.games.rummy.meld_search import attachments, melds_in_hand
from tavolo.cardgames.games.rummy.melds import (
    HIGH,
    LOW,
    SCALA40_MELDS,
    Attached,
    Meld,
    attach,
    read_meld,
)
from tavolo.cardgames.games.rummy.scala40_scoring import OPENING, card_penalty, opening_value
from tavolo.cardgames.games.rummy.scala40_state import DRAW, Scala40State, players_in

RULES = SCALA40_MELDS
DRAW_ACTION = Action(ActionKind.DRAW)
TAKE_ACTION = Action(ActionKind.TAKE_DISCARD)
TAKE_BACK = Action(ActionKind.PASS)


def first_round(state: Scala40State) -> bool:
    """Nobody closes before every player, the closer included, has completed a turn."""
    return state.turns_done < len(players_in(state))


def pending_melds(state: Scala40State) -> list[Meld]:
    return [m for _, m in state.melds[len(state.melds) - state.pending :]] if state.pending else []


def listed_actions(state: Scala40State, seat: int) -> list[Action]:
    if state.phase == DRAW:
        return [DRAW_ACTION, TAKE_ACTION] if state.pozzo else [DRAW_ACTION]
    hand = state.hands[seat]
    actions = [
        Action(ActionKind.MELD, cards=cards)
        for cards, _ in melds_in_hand(hand, RULES)
        if _keeps_a_card(state, seat, cards, freed=None) is None
    ]
    if state.opened[seat]:
        table = [m for _, m in state.melds]
        for index, card, end in attachments(table, hand, RULES):
            done = attach(table[index], card, end, RULES)
            assert isinstance(done, Attached)
            if _keeps_a_card(state, seat, (card,), freed=done.freed) is None:
                actions.append(Action(ActionKind.ATTACH, cards=(card,), meld=index, target=end))
    actions.extend(
        Action(ActionKind.DISCARD, cards=(c,))
        for c in sorted(set(hand), key=sort_key)
        if discard_refusal(state, seat, c) is None
    )
    if take_back_refusal(state, seat) is None:
        actions.append(TAKE_BACK)
    return actions


def refusal(state: Scala40State, seat: int, action: Action) -> str | None:
    kind = action.kind
    if state.phase == DRAW:
        if action == DRAW_ACTION:
            return None
        if action == TAKE_ACTION:
            return None if state.pozzo else "the pozzo is empty"
        return "first draw from the stock or take the top of the pozzo"
    if kind in (ActionKind.DRAW, ActionKind.TAKE_DISCARD):
        return "you have already drawn this turn: meld, attach or discard"
    if kind is ActionKind.MELD:
        if action != Action(kind, cards=action.cards):
            return "a meld names only its cards, in table order"
        return meld_refusal(state, seat, action.cards)
    if kind is ActionKind.ATTACH:
        if action != Action(kind, cards=action.cards, meld=action.meld, target=action.target):
            return "an attachment names one card, the meld's number and, for a joker, low or high"
        return attach_refusal(state, seat, action.cards, action.meld, action.target)
    if kind is ActionKind.DISCARD:
        if action != Action(kind, cards=action.cards) or len(action.cards) != 1:
            return "discard exactly one card"
        return discard_refusal(state, seat, action.cards[0])
    if kind is ActionKind.PASS and action == TAKE_BACK:
        return take_back_refusal(state, seat)
    return "meld, attach, or discard to end your turn"


def _missing(hand: Sequence[str], cards: Sequence[str]) -> str | None:
    have = Counter(hand)
    have.subtract(cards)
    short = [c for c, n in have.items() if n < 0]
    return f"you do not hold {' '.join(pretty(c) for c in short)}" if short else None


def meld_refusal(state: Scala40State, seat: int, cards: Sequence[str]) -> str | None:
    meld = read_meld(cards, RULES)
    if isinstance(meld, str):
        return meld
    return _missing(state.hands[seat], cards) or _keeps_a_card(state, seat, cards, freed=None)


def attach_refusal(
    state: Scala40State, seat: int, cards: Sequence[str], index: int | None, end: str | None
) -> str | None:
    if not state.opened[seat]:
        return "you may add to the melds on the table once you have opened"
    if len(cards) != 1:
        return "attach one card at a time"
    if not is_card(cards[0]):
        return f"{cards[0]!r} is not a card"
    if index is None or not 0 <= index < len(state.melds):
        return f"there is no meld {index} on the table"
    if end not in (None, LOW, HIGH):
        return "a joker goes at the low or the high end of a run"
    lacking = _missing(state.hands[seat], cards)
    if lacking:
        return lacking
    done = attach(state.melds[index][1], cards[0], end, RULES)
    if isinstance(done, str):
        return done
    return _keeps_a_card(state, seat, cards, freed=done.freed)


def _keeps_a_card(
    state: Scala40State, seat: int, played: Sequence[str], freed: str | None
) -> str | None:
    """A turn ends with a discard (RULES 13.6): a play must leave a card, and may leave
    only one when that card can close the hand."""
    left = len(state.hands[seat]) - len(played) + (freed is not None)
    if left >= 2:
        return None
    if left == 0:
        return "keep one card to discard: you close by discarding your last card"
    if first_round(state):
        return "nobody may close in the first round: keep two cards"
    rest = Counter(state.hands[seat])
    rest.subtract(played)
    if freed is not None:
        rest[freed] += 1
    if state.taken is not None and rest[state.taken] > 0 and state.taken not in played:
        return f"this would leave {pretty(state.taken)}, the pozzo card you took, to discard"
    return None


def discard_refusal(state: Scala40State, seat: int, card: str) -> str | None:
    refused = _discard_rule_refusal(state, seat, card)
    if refused is not None or not state.options.no_attachable_discard:
        return refused
    hand = state.hands[seat]
    if len(hand) == 1 or not state.opened[seat]:
        return None  # the closing discard; a player who has not opened is not bound
    table = [m for _, m in state.melds]
    if not _attachable(table, card):
        return None
    # RULES 13.5: the option never leaves a turn without a discard.
    if any(
        _discard_rule_refusal(state, seat, c) is None and not _attachable(table, c)
        for c in set(hand)
    ):
        return f"{pretty(card)} could be added to a meld on the table: it may not be discarded"
    return None


def _attachable(table: Sequence[Meld], card: str) -> bool:
    """Whether ``card`` could join a meld on the table (RULES 13.5): at either end, in
    its place, or in a joker's place; a joker wherever a meld could still take it."""
    return any(
        not isinstance(attach(meld, card, end, RULES), str)
        for meld in table
        for end in (None, LOW, HIGH)
    )


def _discard_rule_refusal(state: Scala40State, seat: int, card: str) -> str | None:
    """Why ``card`` may not be discarded, ``no_attachable_discard`` aside."""
    hand = state.hands[seat]
    if card not in hand:
        return f"you do not hold {pretty(card) if is_card(card) else repr(card)}"
    if card == state.taken and any(c != card for c in hand):
        return f"you took {pretty(card)} from the pozzo to use it: you may not discard it"
    if len(hand) == 1 and first_round(state):
        return "nobody may close in the first round"
    if not state.opened[seat]:
        return _opening_refusal(state, seat, closing=len(hand) == 1)
    return None


def _opening_refusal(state: Scala40State, seat: int, *, closing: bool) -> str | None:
    pending = pending_melds(state)
    if state.taken is not None and state.taken in state.hands[seat] and not closing:
        used = sum(1 for m in pending for c in m.cards if c == state.taken)
        if not used:
            return (
                f"open with {pretty(state.taken)}, the pozzo card you took, or take it back (pass)"
            )
    if not pending or closing:
        return None
    worth = opening_value(pending)
    if worth < OPENING:
        return f"your opening melds are worth {worth}: an opening needs {OPENING} (or pass)"
    return None


def take_back_refusal(state: Scala40State, seat: int) -> str | None:
    if state.opened[seat] or (state.pending == 0 and state.taken is None):
        return "there is nothing to take back"
    return None


def timeout_action(state: Scala40State, seat: int) -> Action:
    """Draw; take back an unfinished opening; else discard the card that costs most in
    hand, a joker last **[decision]**."""
    if state.phase == DRAW:
        return DRAW_ACTION
    if take_back_refusal(state, seat) is None:
        return TAKE_BACK
    allowed = [c for c in state.hands[seat] if discard_refusal(state, seat, c) is None]
    best = max(allowed, key=lambda c: (c != JOKER, card_penalty(c, alone=False), sort_key(c)))
    return Action(ActionKind.DISCARD, cards=(best,))
