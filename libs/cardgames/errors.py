"""Errors a rules engine raises: each says what is wrong in words a player understands."""

from __future__ import annotations


class RuleError(Exception):
    """An action that the rules do not allow now; the message says why and what is allowed."""


class NotYourTurn(RuleError):
    """The seat may not act now."""


class GameOver(RuleError):
    """The game has ended; no action is accepted."""


class MalformedAction(ValueError):
    """An action whose shape is wrong (unknown kind, missing field), before any rule is asked."""


class InvalidOptions(ValueError):
    """Table options that the game does not offer, or values out of range."""
