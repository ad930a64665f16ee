"""Why a Pika action is refused: one message per mistake, saying what is allowed instead."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Final

from tavolo.cardgames.actions import Action, ActionKind
from tavolo.cardgames.errors import NotYourTurn, RuleError
from tavolo.cardgames.games.shedding.deck import COLOUR_NAMES, COLOURS
from tavolo.cardgames.games.shedding.pika_state import PikaState, matches

PIKA_KINDS: Final = frozenset(
    {
        ActionKind.PLAY,
        ActionKind.DRAW,
        ActionKind.KEEP,
        ActionKind.TAKE,
        ActionKind.CALL,
        ActionKind.REORDER,
        ActionKind.EXPIRE,
    }
)


def _cards(cards: Sequence[str]) -> str:
    return ", ".join(cards) if cards else "no cards"


def stack_rule(state: PikaState) -> str:
    """What the seat facing a stack may do, in words (RULES §1.5)."""
    if not state.hands[state.turn]:
        return f"you have no cards left: you must take the {state.stack} cards"
    if state.discard[-1] == "W+4":
        colour = COLOUR_NAMES[state.colour]
        return (
            f"you must chain a +2 of the chosen colour ({colour}) or a +4, "
            f"or take {state.stack} cards"
        )
    return f"you must chain a +2 or a +4, or take {state.stack} cards"


def explain(state: PikaState, seat: int, action: Action, legal: Sequence[Action]) -> RuleError:
    """The refusal for ``action``; ``legal`` is what ``seat`` may do instead."""
    kind = action.kind
    hand = state.hands[seat]
    if kind not in PIKA_KINDS:
        return RuleError(
            f"Pika has no {kind.value!r} action; its actions are play, draw, keep, take, "
            "call and reorder",
            reason="ACTION_NOT_ALLOWED",
        )
    if kind is ActionKind.REORDER:
        return RuleError(
            "a reorder lists every card of your hand exactly once, in the new order; "
            f"your hand: {_cards(hand)}",
            reason="RULE_VIOLATION",
        )
    if kind is ActionKind.CALL:
        if action != Action(ActionKind.CALL, call="pika"):
            return RuleError(
                "a Pika call is call='pika' and nothing else", reason="CALL_NOT_ALLOWED"
            )
        return RuleError(
            "you have no Pika to call: it is called after a play leaves you one card, "
            "until its window expires",
            reason="CALL_NOT_ALLOWED",
        )
    if seat != state.turn:
        extra = " or call Pika" if any(a.kind is ActionKind.CALL for a in legal) else ""
        return NotYourTurn(
            f"it is seat {state.turn}'s turn; out of turn you may only reorder your hand{extra}"
        )
    if state.drawn is not None and not (kind is ActionKind.PLAY and action.cards == (state.drawn,)):
        return RuleError(f"you drew {state.drawn}: play it or keep it", reason="RULE_VIOLATION")
    if kind is ActionKind.KEEP:
        return RuleError(
            "keep is only for a playable card you have just drawn", reason="RULE_VIOLATION"
        )
    if kind is ActionKind.TAKE:
        return RuleError("there is no stack to take", reason="RULE_VIOLATION")
    if kind is ActionKind.DRAW:
        if state.stack:
            return RuleError(stack_rule(state), reason="RULE_VIOLATION")
        playable = list(dict.fromkeys([a.cards[0] for a in legal if a.kind is ActionKind.PLAY]))
        return RuleError(
            f"you may draw only when you cannot play; you can play {_cards(playable)}",
            reason="DRAW_NOT_ALLOWED",
        )
    if kind is ActionKind.PLAY:
        return _explain_play(state, hand, action, legal)
    return RuleError(f"{action} is not allowed now", reason="ACTION_NOT_ALLOWED")


def _explain_play(
    state: PikaState, hand: tuple[str, ...], action: Action, legal: Sequence[Action]
) -> RuleError:
    if len(action.cards) != 1:
        return RuleError("play exactly one card", reason="ONE_CARD_EXPECTED")
    card = action.cards[0]
    if state.stack and not hand:
        return RuleError(stack_rule(state), reason="RULE_VIOLATION")
    if card not in hand:
        return RuleError(
            f"you do not hold {card}; your hand: {_cards(hand)}",
            reason="CARD_NOT_HELD",
            metadata={"card": card},
        )
    if state.stack and not any(a.cards == (card,) for a in legal):
        return RuleError(f"{card} cannot be chained: {stack_rule(state)}", reason="RULE_VIOLATION")
    top = state.discard[-1]
    if not state.stack and not matches(card, top, state.colour):
        colour = COLOUR_NAMES[state.colour]
        value = "" if top[0] == "W" else f", a {top[1:]}"
        return RuleError(
            f"{card} does not match {top} (colour in play: {colour}): play a {colour} "
            f"card{value} or a black card",
            reason="CARD_DOES_NOT_MATCH",
            metadata={"card": card},
        )
    names = ", ".join(COLOURS)
    if card[0] == "W" and action.colour not in COLOURS:
        return RuleError(f"name the colour for {card}: one of {names}", reason="COLOUR_REQUIRED")
    if card[0] != "W" and action.colour is not None:
        return RuleError("only a black card names a colour", reason="COLOUR_NOT_ALLOWED")
    if action.call is not None:
        if action.call != "pika":
            return RuleError("the only call in Pika is 'pika'", reason="CALL_NOT_ALLOWED")
        if len(hand) != 2:
            return RuleError(
                "call Pika with the play that leaves you one card", reason="CALL_NOT_ALLOWED"
            )
    return RuleError(
        "a play gives only the card, a colour for black cards and a Pika call",
        reason="RULE_VIOLATION",
    )
