"""What a Pika seat may do now: the legal-action list, and the same answer checked
directly for one action (the path ``apply`` takes, which must not build the list)."""

from __future__ import annotations

from typing import Final

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.games.shedding.deck import CODES, COLOUR_NAMES, COLOURS
from tavolo.cardgames.games.shedding.pika_state import PikaState, playable

PIKA: Final = "pika"

DRAW: Final = Action(ActionKind.DRAW)
KEEP: Final = Action(ActionKind.KEEP)
TAKE: Final = Action(ActionKind.TAKE)
CALL: Final = Action(ActionKind.CALL, call=PIKA)


def _play_options(card: str, call: bool) -> tuple[Action, ...]:
    calls: tuple[str | None, ...] = (None, PIKA) if call else (None,)
    if card[0] == "W":
        return tuple(
            Action(ActionKind.PLAY, cards=(card,), colour=colour, call=c)
            for colour in COLOURS
            for c in calls
        )
    return tuple(Action(ActionKind.PLAY, cards=(card,), call=c) for c in calls)


# Legal-action lists are built from these prebuilt actions: enumeration is the hot path.
_PLAYS: Final = {card: _play_options(card, False) for card in CODES}
_PLAYS_CALLING: Final = {card: _play_options(card, True) for card in CODES}


def legal_actions(state: PikaState, seat: int) -> list[Action]:
    """Every action ``seat`` may take now, in a stable order (reorders aside)."""
    actions: list[Action] = []
    if seat == state.turn:
        hand = state.hands[seat]
        plays = _PLAYS_CALLING if len(hand) == 2 else _PLAYS
        drawn = state.drawn
        if drawn is not None:
            actions.extend(plays[drawn])
            actions.append(KEEP)
        else:
            top, colour = state.discard[-1], state.colour
            stacked = state.stack > 0
            allowed = chaining(top, colour) if stacked else playable(top, colour)
            for card in hand:
                if card in allowed:
                    _offer(actions, plays[card])
            if stacked:
                actions.append(TAKE)
            elif not actions:
                actions.append(DRAW)
    for s, _ in state.windows:
        if s == seat:
            actions.append(CALL)
            break
    return actions


def _offer(actions: list[Action], plays: tuple[Action, ...]) -> None:
    """Add a card's plays unless a copy of the card already added them (hands may hold
    two of a card). The plays are shared prebuilt objects, so identity tells."""
    first = plays[0]
    for action in actions:
        if action is first:
            return
    actions.extend(plays)


def is_legal(state: PikaState, seat: int, action: Action) -> bool:
    """The same answer as ``action in legal_actions`` (plus reorders), checked directly."""
    kind = action.kind
    if kind is ActionKind.PLAY:
        return _is_legal_play(state, seat, action)
    if kind is ActionKind.REORDER:
        return _is_reorder(state, seat, action)
    if kind is ActionKind.CALL:
        return any(s == seat for s, _ in state.windows) and (action is CALL or action == CALL)
    if seat != state.turn:
        return False
    if kind is ActionKind.KEEP:
        return state.drawn is not None and (action is KEEP or action == KEEP)
    if kind is ActionKind.TAKE:
        return state.drawn is None and state.stack > 0 and (action is TAKE or action == TAKE)
    if kind is ActionKind.DRAW:
        if state.drawn is not None or state.stack or not (action is DRAW or action == DRAW):
            return False
        allowed = playable(state.discard[-1], state.colour)
        return not any(card in allowed for card in state.hands[seat])
    return False


def chains(card: str, top: str, colour: str) -> bool:
    """PIKA-6 / RULES §1.5: on a +2 any +2 or +4; on a +4 a +2 of the named colour or a +4."""
    if card == "W+4":
        return True
    if top == "W+4":
        return card == colour + "+2"
    return card[1:] == "+2"


_CHAINING: Final[dict[str, dict[str, frozenset[str]]]] = {
    colour: {top: frozenset(c for c in CODES if chains(c, top, colour)) for top in CODES}
    for colour in COLOUR_NAMES
}


def chaining(top: str, colour: str) -> frozenset[str]:
    """Every code that :func:`chains` onto ``top`` in ``colour``, from a table built with it."""
    return _CHAINING[colour][top]


def _is_legal_play(state: PikaState, seat: int, action: Action) -> bool:
    """The same answer as ``action in legal_actions``, without building the list."""
    if seat != state.turn or len(action.cards) != 1:
        return False
    card = action.cards[0]
    hand = state.hands[seat]
    if card not in hand:
        return False
    if state.drawn is not None:
        if card != state.drawn:
            return False
    else:
        top, colour = state.discard[-1], state.colour
        if card not in (chaining(top, colour) if state.stack else playable(top, colour)):
            return False
    if card[0] == "W":
        if action.colour not in _COLOUR_SET:
            return False
    elif action.colour is not None:
        return False
    call = action.call
    if call is not None and (call != PIKA or len(hand) != 2):
        return False
    return (
        not action.capture
        and action.amount is None
        and action.meld is None
        and action.source is None
        and action.target is None
        and action.count is None
        and action.timer is None
    )


_COLOUR_SET: Final = frozenset(COLOURS)


def _is_reorder(state: PikaState, seat: int, action: Action) -> bool:
    hand = state.hands[seat]
    return (
        len(action.cards) == len(hand)
        and sorted(action.cards) == sorted(hand)
        and action == Action(ActionKind.REORDER, cards=action.cards)
    )
