"""Which actions Poker all'italiana allows a seat, and why it refuses the others (RULES
§14, POKER-5…10): listed for clients and bots, checked directly for ``apply``.

The blind (``BET`` of the minimum, or ``CHECK``); the betting rounds (``CHECK``, ``BET``
only holding the minimum in the first round, ``CALL_BET``, ``RAISE``, ``FOLD``), amounts
from :mod:`~tavolo.cardgames.games.betting.poker_betting`; the change (``DISCARD`` of 0 to 4
cards, named in the hand's order so each change is one action).
"""

from __future__ import annotations

from itertools import combinations

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import GameOver, NotYourTurn, RuleError
from tavolo.cardgames.games.betting import poker_betting, poker_hands
from tavolo.cardgames.games.betting.poker_state import (
    BLIND,
    CHANGE,
    FIRST,
    MAX_CHANGE,
    OVER,
    SECOND,
    PokerState,
)

CHECK, CALL, FOLD = Action(ActionKind.CHECK), Action(ActionKind.CALL_BET), Action(ActionKind.FOLD)
STAND_PAT = Action(ActionKind.DISCARD)


def bet(amount: int) -> Action:
    return Action(ActionKind.BET, amount=amount)


def raise_by(amount: int) -> Action:
    return Action(ActionKind.RAISE, amount=amount)


def _bare(action: Action) -> Action:
    """``action`` with only the fields poker uses: its kind, cards and amount."""
    return Action(action.kind, cards=action.cards, amount=action.amount)


def _in_order(cards: tuple[str, ...], hand: tuple[str, ...]) -> bool:
    """``cards`` are 0 to 4 different cards of ``hand``, listed in the hand's order."""
    if len(cards) > MAX_CHANGE:
        return False
    at = 0
    for card in cards:
        try:
            at = hand.index(card, at) + 1
        except ValueError:
            return False
    return True


def legal_actions(state: PokerState, seat: int) -> list[Action]:
    if seat != state.turn or state.phase == OVER:
        return []
    if state.phase == BLIND:
        return [CHECK, bet(min(int(state.options["min_bet"]), state.chips[seat]))]
    if state.phase == CHANGE:
        hand = state.hands[seat]
        return [
            Action(ActionKind.DISCARD, cards=tuple(c))
            for k in range(MAX_CHANGE + 1)
            for c in combinations(hand, k)
        ]
    return betting_actions(state, seat)


def betting_actions(state: PokerState, seat: int) -> list[Action]:
    rnd, chips = state.rnd, state.chips[seat]
    min_bet = int(state.options["min_bet"])
    if rnd.bet == 0:
        actions = [CHECK]
        if state.phase == SECOND or poker_hands.opens(state.hands[seat], state.low, state.minimum):
            low, high = poker_betting.bet_range(state.pot, chips, min_bet)
            actions.extend(bet(a) for a in range(low, high + 1))
        return [*actions, FOLD]
    actions = [CALL]
    others = any(state.can_act(s) for s in range(state.seats) if s != seat)
    if others:
        low, high = poker_betting.raise_range(rnd, seat, state.pot, chips, min_bet)
        actions.extend(raise_by(a) for a in range(low, high + 1))
    return [*actions, FOLD]


def is_legal(state: PokerState, seat: int, action: Action) -> bool:
    """The same answer as ``action in legal_actions``, without listing every amount
    and every change: ``apply`` asks it on every action."""
    if seat != state.turn or state.phase == OVER or action != _bare(action):
        return False
    kind, amount = action.kind, action.amount
    if state.phase == CHANGE:
        return (
            kind is ActionKind.DISCARD
            and amount is None
            and _in_order(action.cards, state.hands[seat])
        )
    if action.cards:
        return False
    if state.phase == BLIND:
        return action == CHECK or action == bet(
            min(int(state.options["min_bet"]), state.chips[seat])
        )
    if kind in (ActionKind.CHECK, ActionKind.BET):
        if state.rnd.bet != 0:
            return False
    elif kind in (ActionKind.CALL_BET, ActionKind.RAISE):
        if state.rnd.bet == 0:
            return False
    elif kind is not ActionKind.FOLD:
        return False
    if kind in (ActionKind.CHECK, ActionKind.CALL_BET, ActionKind.FOLD):
        return amount is None
    if amount is None:
        return False
    chips, min_bet = state.chips[seat], int(state.options["min_bet"])
    if kind is ActionKind.BET:
        if state.phase == FIRST and not poker_hands.opens(
            state.hands[seat], state.low, state.minimum
        ):
            return False
        low, high = poker_betting.bet_range(state.pot, chips, min_bet)
        return low <= amount <= high
    if not any(state.can_act(s) for s in range(state.seats) if s != seat):
        return False
    low, high = poker_betting.raise_range(state.rnd, seat, state.pot, chips, min_bet)
    return low <= amount <= high


def explain(state: PokerState, seat: int, action: Action) -> RuleError:
    if state.phase == OVER:
        return GameOver("the game is over")
    if seat != state.turn:
        return NotYourTurn(f"it is not your turn: seat {state.turn} is to act")
    if state.phase == BLIND:
        return RuleError(
            "open blind with the minimum bet (bet) or see your cards (check)",
            reason="ACTION_NOT_ALLOWED",
        )
    if state.phase == CHANGE:
        if action.kind is not ActionKind.DISCARD:
            return RuleError(
                "change cards: discard 0 to 4 cards of your hand", reason="RULE_VIOLATION"
            )
        if len(action.cards) > MAX_CHANGE or len(set(action.cards)) != len(action.cards):
            return RuleError("discard at most 4 different cards", reason="RULE_VIOLATION")
        if set(action.cards) <= set(state.hands[seat]):
            return RuleError(
                "name the cards to discard in the order of your hand", reason="RULE_VIOLATION"
            )
        return RuleError(f"you do not hold all of {' '.join(action.cards)}", reason="CARD_NOT_HELD")
    legal = betting_actions(state, seat)
    kinds = {a.kind for a in legal}
    if action.kind not in kinds:
        if action.kind is ActionKind.BET and state.rnd.bet == 0:
            name = poker_hands.RANK_WORDS[state.minimum]
            return RuleError(
                f"to open you need a pair of {name}s or better", reason="RULE_VIOLATION"
            )
        offered = ", ".join(sorted(k.value for k in kinds))
        return RuleError(
            f"{action.kind.value} is not allowed now; you may {offered}",
            reason="ACTION_NOT_ALLOWED",
        )
    amounts = [a.amount for a in legal if a.kind is action.kind and a.amount is not None]
    if amounts:
        return RuleError(
            f"{action.kind.value} from {min(amounts)} to {max(amounts)} chips, not {action.amount}",
            reason="AMOUNT_OUT_OF_RANGE",
        )
    return RuleError(f"{action} is not allowed now", reason="ACTION_NOT_ALLOWED")
