"""A refused move in the player's language, built from the refusal's reason and metadata.

The engine sends every refusal with a ``reason`` from :mod:`tavolo.servicekit.reasons`
and the values that explain it (API-1); the rules raise the same names locally on
:class:`~tavolo.cardgames.errors.RuleError`. The client says each one in its own words,
so an Italian player never reads the server's English: only a reason the client does not
know yet falls back to the message as the server worded it. Two reasons mean "the message
says why" (``RULE_VIOLATION``, ``ACTION_NOT_ALLOWED``): in English their sentence is
followed by that message, the one detail the reason cannot carry; in another language the
sentence stands alone, since the message is English.
"""

from __future__ import annotations

from collections.abc import Mapping

import grpc

from tavolo.cardgames.errors import RuleError
from tavolo.cli.i18n import LANGUAGES, N_, _, language
from tavolo.servicekit.error_details import refusal_from_error

MESSAGES: dict[str, str] = {
    # The rules of the games.
    "NOT_YOUR_TURN": N_("It is not your turn."),
    "SEAT_UNKNOWN": N_("The table has no seat {seat}."),
    "GAME_OVER": N_("The game is over: no more moves."),
    "CARD_NOT_HELD": N_("You do not hold {card}."),
    "CARD_UNKNOWN": N_("'{card}' is not a card of this deck."),
    "ONE_CARD_EXPECTED": N_("Play exactly one card of your hand."),
    "MUST_FOLLOW_SUIT": N_("You must follow suit: play a card of {suit}."),
    "SUIT_NOT_BROKEN": N_("That suit may not be led before it is broken."),
    "FIRST_TRICK_RESTRICTED": N_("The first trick has its own rules for the lead and discards."),
    "CAPTURE_COMPULSORY": N_("{card} must take from the table."),
    "CAPTURE_INVALID": N_("{card} cannot take those cards from the table."),
    "CARD_DOES_NOT_MATCH": N_("{card} matches neither the colour nor the value in play."),
    "COLOUR_REQUIRED": N_("Name a colour for that card."),
    "COLOUR_NOT_ALLOWED": N_("Only a black or wild card names a colour."),
    "DRAW_NOT_ALLOWED": N_("You may draw only when you cannot play."),
    "STOCK_EMPTY": N_("The stock is empty."),
    "CALL_NOT_ALLOWED": N_("That call is not open now."),
    "DECLARATION_INVALID": N_("Your hand does not hold that declaration, or it is too late."),
    "AMOUNT_OUT_OF_RANGE": N_("That amount is not allowed now."),
    "OPTION_OFF": N_("That move needs a table option that is off at this table."),
    "TIMER_NOT_RUNNING": N_("No such timer runs for your seat."),
    "OPTION_INVALID": N_("The table's options are not valid."),
    # The table at the engine.
    "TABLE_NOT_FOUND": N_("There is no table {table_id}."),
    "NO_SEAT": N_("You have no seat at this table."),
    "SEAT_LEFT": N_("You left this table; a bot plays your seat."),
    "ALREADY_LEFT": N_("You left this table already."),
    "TABLE_MOVED_ON": N_("The table moved on: look at it again and choose."),
    "TABLE_BUSY": N_("The table is busy: try again in a moment."),
    "TABLE_ENDED": N_("This table has ended: no more moves."),
    "ACTION_MALFORMED": N_("That move is not well formed."),
    "LOG_CONFLICT": N_("Another move came first: look at the table again and choose."),
}
"""Reason → the client's sentence; ``{key}`` is the refusal's metadata value."""

WITHOUT_VALUES: dict[str, str] = {
    "SEAT_UNKNOWN": N_("The table has no such seat."),
    "CARD_NOT_HELD": N_("You do not hold that card."),
    "CARD_UNKNOWN": N_("That is not a card of this deck."),
    "MUST_FOLLOW_SUIT": N_("You must follow suit."),
    "CAPTURE_COMPULSORY": N_("That card must take from the table."),
    "CAPTURE_INVALID": N_("That card cannot take those cards from the table."),
    "CARD_DOES_NOT_MATCH": N_("That card matches neither the colour nor the value in play."),
    "TABLE_NOT_FOUND": N_("There is no such table."),
}
"""The sentence of a reason whose metadata lacks a value its sentence names (the keys are
listed "when it applies")."""

WITH_MESSAGE: dict[str, str] = {
    "RULE_VIOLATION": N_("The rules do not allow that now"),
    "ACTION_NOT_ALLOWED": N_("That kind of move is not allowed now"),
}
"""Reasons whose sentence is followed by the server's message (it says which rule)."""


def refusal_text(reason: str, metadata: Mapping[str, str], message: str) -> str:
    """The refusal in the client's language; ``message`` (the server's) when the reason
    is not one the client knows."""
    if reason in WITH_MESSAGE:
        lead = _(WITH_MESSAGE[reason])
        english = language() == LANGUAGES[0]
        return f"{lead}: {message}" if message and english else f"{lead}."
    known = MESSAGES.get(reason)
    if known is None:
        return message
    try:
        return _(known).format_map(dict(metadata))
    except (KeyError, IndexError, ValueError):
        bare = WITHOUT_VALUES.get(reason)
        return _(bare) if bare is not None else message


def rule_error_text(error: RuleError) -> str:
    """A refusal the rules raised here (offline play)."""
    return refusal_text(error.reason, error.metadata, str(error))


def rpc_refusal_text(error: grpc.RpcError) -> str:
    """A refusal the engine sent: its ErrorInfo's reason and metadata in the client's
    words, the call's details as they came when it carries none."""
    details = ""
    if isinstance(error, grpc.Call | grpc.aio.AioRpcError):
        details = error.details() or ""
    refusal = refusal_from_error(error)
    if refusal is None:
        return details
    return refusal_text(refusal.reason, refusal.metadata, details)
